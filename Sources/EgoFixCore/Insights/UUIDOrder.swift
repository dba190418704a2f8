import Foundation

extension UUID {
    /// Whether this id's `uuidString` sorts before the other's, without making the strings.
    /// The text is the sixteen bytes in order as uppercase hex (digits sort before A-F) with the
    /// dashes in the same places, so its order is the bytes' order.
    @inline(__always)
    public func sortsBefore(_ other: UUID) -> Bool {
        let a = halves, b = other.halves
        return a.0 != b.0 ? a.0 < b.0 : a.1 < b.1
    }

    /// The bytes as two big-endian numbers.
    @inline(__always)
    var halves: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}
