import Foundation

/// Deterministic identifiers: the same finding (user, type, key facts) always gets the same id,
/// so a store can merge a re-detected pattern with the one already saved and keep its viewedAt.
public enum StableUUID {
    public static func make(_ parts: [String]) -> UUID {
        let h1 = StableHash.fnv1a(parts + ["a"]), h2 = StableHash.fnv1a(parts + ["b"])
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            b[i] = UInt8((h1 >> (8 * UInt64(i))) & 0xff)
            b[8 + i] = UInt8((h2 >> (8 * UInt64(i))) & 0xff)
        }
        b[6] = (b[6] & 0x0f) | 0x50   // version 5 layout (name-based)
        b[8] = (b[8] & 0x3f) | 0x80   // RFC 4122 variant
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
