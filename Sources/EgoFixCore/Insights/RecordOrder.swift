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

/// Records sorted by (instant, id), the total order every history list uses, through small keys:
/// the instants and ids are read once into an array of plain numbers, that is sorted, and the
/// records are gathered in its order, instead of sorting the records themselves (each comparison
/// reaching into two of them, each move copying one).
public enum RecordOrder {
    /// The records `keep` accepts, ordered by `at` then `id` (`UUID.sortsBefore`); records equal in
    /// both keep their order. Records that are all kept and already in order come back as they are.
    @inline(__always)
    public static func sorted<T>(_ records: [T], keep: (T) -> Bool, at: (T) -> Date, id: (T) -> UUID) -> [T] {
        var keys: [(Double, UInt64, UInt64, Int)] = []
        keys.reserveCapacity(records.count)
        var inOrder = true
        records.withUnsafeBufferPointer { buf in
            for i in buf.indices where keep(buf[i]) {
                let h = id(buf[i]).halves
                let key = (at(buf[i]).timeIntervalSinceReferenceDate, h.0, h.1, i)
                if inOrder, let last = keys.last, !((last.0, last.1, last.2) < (key.0, key.1, key.2)) { inOrder = false }
                keys.append(key)
            }
        }
        if inOrder && keys.count == records.count { return records }
        if !inOrder { keys.sort { $0 < $1 } }
        return records.withUnsafeBufferPointer { buf in keys.map { buf[$0.3] } }
    }
}
