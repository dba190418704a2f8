import Foundation

/// Notices language in the user's own text that reads like more than a bad ego day, so a private
/// page that contains it can show a plain help block first. It never rewrites or reports anything.
public enum CrisisLanguage {
    public static let phrases: [String] = [
        "kill myself", "killing myself", "suicide", "suicidal", "end my life", "ending my life",
        "want to die", "wanted to die", "hurt myself", "hurting myself", "self-harm", "self harm",
        "no reason to live", "better off dead", "can't go on", "cannot go on", "don't want to be here anymore",
        "don't want to be alive", "do not want to be alive", "dont want to be alive", "don't want to live",
        "do not want to live", "dont want to live", "wish i was dead", "wish i were dead", "take my own life",
        "taking my own life", "end it all", "want to disappear",
    ]

    public static func detect(_ text: String) -> Bool {
        if let ascii = detectASCII(text) { return ascii }
        // Lowercased as Unicode has it (the Kelvin sign is a k), the typographic apostrophe read as
        // "'", then found on bytes as in ASCII: the phrases are ASCII, and a byte of a scalar
        // beyond ASCII is never one of theirs. (Foundation's `contains` folded every character
        // cluster of the text for each phrase: about 2 ms a KB, paid by every page showing it.)
        var lower = String(String.UnicodeScalarView(text.lowercased().unicodeScalars.lazy.map { $0 == "\u{2019}" ? "'" : $0 }))
        return lower.withUTF8 { find(in: $0) }
    }

    /// The phrases' bytes one after another, ordered by first byte, and for each ASCII byte where
    /// the phrases starting with it are: `(start, count)` into `phraseStarts` (each phrase's
    /// offset and length in `phraseText`).
    static let phraseText: [UInt8] = sortedPhrases.flatMap { Array($0.utf8) }
    static let phraseStarts: [(offset: Int, length: Int)] = {
        var at = 0
        return sortedPhrases.map { p in
            defer { at += p.utf8.count }
            return (at, p.utf8.count)
        }
    }()
    static let byFirstByte: [(start: Int, count: Int)] = (0..<128).map { b in
        let start = sortedPhrases.firstIndex { $0.utf8.first == UInt8(b) } ?? 0
        return (start, sortedPhrases.filter { $0.utf8.first == UInt8(b) }.count)
    }
    private static let sortedPhrases: [String] = phrases.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }

    /// The same answer for plain ASCII text, found on bytes (nil for any other text): lowercasing
    /// ASCII is per byte, and there is nothing for Unicode matching to fold. A phrase (all
    /// lowercase) can only start at a byte that starts one, so the text is read once, each place
    /// against the phrases starting with its byte.
    static func detectASCII(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { buf -> Bool? in
            if buf.contains(where: { $0 >= 0x80 }) { return nil }
            return find(in: buf)
        }
    }

    /// Whether a phrase is in `buf`, ASCII letters read in either case; bytes beyond ASCII match
    /// no phrase's.
    private static func find(in buf: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always) func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5a ? b + 0x20 : b }
        return phraseText.withUnsafeBufferPointer { textBytes in
            phraseStarts.withUnsafeBufferPointer { starts in
                byFirstByte.withUnsafeBufferPointer { first in
                    let n = buf.count
                    for i in 0..<n {
                        guard buf[i] < 0x80 else { continue }
                        let entry = first[Int(lower(buf[i]))]
                        guard entry.count > 0 else { continue }
                        for k in entry.start..<entry.start + entry.count {
                            let (offset, length) = starts[k]
                            guard length <= n - i else { continue }
                            var j = 1
                            while j < length && lower(buf[i + j]) == textBytes[offset + j] { j += 1 }
                            if j == length { return true }
                        }
                    }
                    return false
                }
            }
        }
    }
}
