import Foundation

/// Deterministic hashing and randomness. Swift's `Hasher` is seeded per process, so it
/// must never decide anything a user sees; these are stable across runs and machines.
public enum StableHash {
    /// FNV-1a, 64-bit, over the given byte strings with a separator.
    public static func fnv1a(_ parts: [String]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for (i, p) in parts.enumerated() {
            if i > 0 {
                h ^= 0x1f
                h = h &* 0x0000_0100_0000_01b3
            }
            for b in p.utf8 {
                h ^= UInt64(b)
                h = h &* 0x0000_0100_0000_01b3
            }
        }
        return SplitMix64.mix(h)
    }
}

/// SplitMix64: a small, fast, well-distributed generator; deterministic under a seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        return SplitMix64.mix(state)
    }

    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A double in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
