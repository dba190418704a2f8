import Foundation

/// UUIDs read from text without Foundation's general parser (which goes through sscanf).
public enum UUIDText {
    /// A UUID in the form `uuidString` writes ("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", any case);
    /// nil for anything else, which callers then hand to `UUID(uuidString:)`.
    public static func parse(_ s: String) -> UUID? {
        s.utf8.withContiguousStorageIfAvailable(parse) ?? nil
    }

    /// Hex digit values by byte; 0xff for anything that is not one.
    static let hexValues: [UInt8] = (0..<256).map { c -> UInt8 in
        switch c {
        case 0x30...0x39: return UInt8(c - 0x30)
        case 0x41...0x46: return UInt8(c - 0x37)
        case 0x61...0x66: return UInt8(c - 0x57)
        default: return 0xff
        }
    }

    public static func parse(_ b: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard b.count == 36, b[8] == 0x2d, b[13] == 0x2d, b[18] == 0x2d, b[23] == 0x2d else { return nil }
        var hi: UInt64 = 0, lo: UInt64 = 0, bad: UInt8 = 0
        hexValues.withUnsafeBufferPointer { hex in
            // Digits at 0-7, 9-12, 14-17 (the first 16) and 19-22, 24-35 (the last 16).
            for i in 0..<8 { let v = hex[Int(b[i])]; bad |= v; hi = hi << 4 | UInt64(v) }
            for i in 9..<13 { let v = hex[Int(b[i])]; bad |= v; hi = hi << 4 | UInt64(v) }
            for i in 14..<18 { let v = hex[Int(b[i])]; bad |= v; hi = hi << 4 | UInt64(v) }
            for i in 19..<23 { let v = hex[Int(b[i])]; bad |= v; lo = lo << 4 | UInt64(v) }
            for i in 24..<36 { let v = hex[Int(b[i])]; bad |= v; lo = lo << 4 | UInt64(v) }
        }
        guard bad & 0xf0 == 0 else { return nil }
        let h = hi.bigEndian, l = lo.bigEndian
        return withUnsafeBytes(of: (h, l)) { raw in
            UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
        }
    }
}
