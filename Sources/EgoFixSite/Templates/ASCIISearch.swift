/// ASCII words found in a page's UTF-8 bytes, in any case: what `MetaTag` and `serve`'s live
/// reload look for in every page they read (Foundation's search measured a whole page in UTF-16
/// first, a page at a time).
public enum ASCIISearch {
    /// Whether `word` (lowercase ASCII) is at `at` in `bytes`, in any case.
    public static func has(_ word: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        guard at >= 0, at + word.utf8CodeUnitCount <= bytes.count else { return false }
        for k in 0..<word.utf8CodeUnitCount where lowercased(bytes[at + k]) != word.utf8Start[k] { return false }
        return true
    }

    /// Where `word` (lowercase ASCII) is in `text`, in any case: the first, or the `last`.
    public static func range(of word: StaticString, in text: String, last: Bool = false) -> Range<String.Index>? {
        var copy = text
        let at = copy.withUTF8 { b -> Int? in
            let n = word.utf8CodeUnitCount
            guard n <= b.count else { return nil }
            var i = last ? b.count - n : 0
            while i >= 0, i <= b.count - n {
                if has(word, in: b, at: i) { return i }
                i += last ? -1 : 1
            }
            return nil
        }
        guard let at else { return nil }
        let u = text.utf8
        return u.index(u.startIndex, offsetBy: at)..<u.index(u.startIndex, offsetBy: at + word.utf8CodeUnitCount)
    }

    private static func lowercased(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }
}
