import Foundation

/// A set of ASCII characters, tested without hashing. A Character is in it when it is one of
/// them exactly (a letter with a combining mark is not); "\r\n" counts as "\n", as
/// `Character.asciiValue` has it.
struct ASCIISet: Sendable {
    private var low: UInt64 = 0, high: UInt64 = 0

    init(_ members: String) {
        for b in members.utf8 where b < 128 {
            if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
        }
    }

    /// Whether `u` is one of the set's characters exactly.
    @inline(__always)
    func contains<U: LayoutUnit>(_ u: U) -> Bool {
        guard let b = u.asciiValue else { return false }
        return b < 64 ? low & (1 << UInt64(b)) != 0 : (b < 128 && high & (1 << UInt64(b - 64)) != 0)
    }
}
