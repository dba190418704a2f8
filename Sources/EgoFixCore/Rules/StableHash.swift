import Foundation

/// Deterministic hashing and randomness. Swift's `Hasher` is seeded per process, so it
/// must never decide anything a user sees; these are stable across runs and machines.
public enum StableHash {
    /// FNV-1a, 64-bit, over the given strings' UTF-8 with a separator.
    public static func fnv1a(_ parts: [String]) -> UInt64 { fnv1a(bytes: parts.map(\.utf8)) }

    /// FNV-1a, 64-bit, over the given byte strings with a separator (0x1F between two parts).
    /// Inlinable, so a caller in another module gets it specialized for its byte type (every
    /// command hashes the seeds' half megabyte through it).
    @inlinable
    public static func fnv1a<Bytes: Sequence>(bytes parts: [Bytes]) -> UInt64 where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for (i, p) in parts.enumerated() {
            if i > 0 {
                h ^= 0x1f
                h = h &* 0x0000_0100_0000_01b3
            }
            for b in p {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01b3
            }
        }
        return SplitMix64.mix(h)
    }
}
