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
        var text = text
        return text.withUTF8 { buf -> Bool in
            guard buf.contains(where: { $0 >= 0x80 }) else { return find(in: buf) }
            return folded(buf).withUnsafeBufferPointer { find(in: $0) }
        }
    }

    /// UTF-8 text as the byte scan reads it beyond ASCII, the same answers as lowercasing it
    /// with Unicode's rules and leaving out the combining marks (U+0300 to U+036F, so "lifé"
    /// written with an accent is "life") before searching, which a test holds: the phrases are
    /// ASCII, and the only scalars beyond ASCII whose lowercase holds an ASCII letter are the
    /// Kelvin sign (k) and the dotted capital I (i and a combining dot); the typographic
    /// apostrophe is read as "'". Every other byte beyond ASCII becomes 0x80, which no phrase holds. (Lowercasing the
    /// String and making a new one cost about 4 times the scan; Foundation's `contains` on it,
    /// which folded every character cluster for each phrase, 2 ms a KB.)
    static func folded(_ buf: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(buf.count)
        var i = 0
        let n = buf.count
        while i < n {
            let b = buf[i]
            if b < 0x80 {
                out.append(b)
                i += 1
            } else if b == 0xE2, i + 2 < n, buf[i + 1] == 0x80, buf[i + 2] == 0x99 {
                out.append(0x27)  // U+2019
                i += 3
            } else if b == 0xE2, i + 2 < n, buf[i + 1] == 0x84, buf[i + 2] == 0xAA {
                out.append(0x6B)  // U+212A KELVIN SIGN
                i += 3
            } else if b == 0xC4, i + 1 < n, buf[i + 1] == 0xB0 {
                out.append(0x69)  // U+0130, lowercased "i" and U+0307 (a combining mark)
                i += 2
            } else if (b == 0xCC && i + 1 < n && (0x80...0xBF).contains(buf[i + 1]))
                        || (b == 0xCD && i + 1 < n && (0x80...0xAF).contains(buf[i + 1])) {
                i += 2  // U+0300 to U+036F, combining marks: a phrase with an accent on it is still the phrase
            } else {
                out.append(0x80)
                i += 1
            }
        }
        return out
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
