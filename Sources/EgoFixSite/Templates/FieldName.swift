import Foundation

/// A field name, compared with others without calling into String's comparison when both are
/// short. A String of at most 15 UTF-8 bytes made by the standard library is stored inline in its
/// two words (the bytes, the count and flags, nothing else), so two such strings are equal exactly
/// when their words are; a longer one (or a short one stored out of line) is compared as a String.
struct FieldName {
    let key: String
    private let words: (UInt64, UInt64)

    @inline(__always) init(_ key: String) {
        self.key = key
        words = FieldName.words(key)
    }

    @inline(__always) static func words(_ s: String) -> (UInt64, UInt64) { unsafeBitCast(s, to: (UInt64, UInt64).self) }

    /// Whether a String's words hold it inline (the small-string flag, bit 61 of the second word).
    @inline(__always) static func isInline(_ w: (UInt64, UInt64)) -> Bool { w.1 & (1 << 61) != 0 }

    @inline(__always) func same(as other: String) -> Bool {
        FieldName.same(words, FieldName.words(other)) ?? (other == key)
    }

    /// What two Strings' words say: equal when the words are, different when both are inline
    /// and the words are not, nil when the Strings themselves must be compared.
    @inline(__always) static func same(_ a: (UInt64, UInt64), _ b: (UInt64, UInt64)) -> Bool? {
        if a == b { return true }
        return isInline(a) && isInline(b) ? false : nil
    }
}
