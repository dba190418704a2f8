import Foundation

/// "Questions you asked yourself": sentences ending in "?" pulled from the user's reflections and
/// crash notes. Never written for them, never rewritten.
///
/// Markdown is handled loosely: nothing is stripped but the whitespace around a sentence, so a
/// question in bold keeps its asterisks and one in a list keeps its marker. Blank lines, headings,
/// list items, quotes and table rows start a new run of text, so a question never swallows the
/// line above it; fenced code blocks are skipped. A sentence ends at ".", "!", "?" or "…"
/// (closing quotes, brackets and emphasis marks may follow) before a space or the end; a "?"
/// inside a word or a URL does not end one. A question is a sentence whose last mark is "?".
public enum AskedQuestions {
    public static func extract(from markdown: String) -> [String] {
        // A question ends in "?": text without one has none (and most reflections have none).
        guard markdown.utf8.contains(0x3f) else { return [] }
        if let ascii = extractASCII(markdown) { return ascii }
        return extractCharacters(markdown)
    }

    /// `s` without tabs and spaces (Unicode's Zs) at either end, as `trimmingCharacters(in:
    /// .whitespaces)` has it, read on scalars (Foundation's went through UTF-16 for every line:
    /// most of a heavy user's build).
    static func trimmedBlanks(_ s: Substring) -> Substring {
        let scalars = s.unicodeScalars
        func blank(_ u: Unicode.Scalar) -> Bool { u == "\t" || u.properties.generalCategory == .spaceSeparator }
        var lo = scalars.startIndex, hi = scalars.endIndex
        while lo < hi, blank(scalars[lo]) { lo = scalars.index(after: lo) }
        while hi > lo, blank(scalars[scalars.index(before: hi)]) { hi = scalars.index(before: hi) }
        return Substring(scalars[lo..<hi])
    }

    /// `extract`, read Character by Character (any text).
    static func extractCharacters(_ markdown: String) -> [String] {
        var out: [String] = []
        var unit: (lower: String.Index, upper: String.Index)?
        func flush() {
            // Only a run with a "?" in it holds a question.
            if let u = unit, markdown.utf8[u.lower..<u.upper].contains(0x3F) { scan(markdown[u.lower..<u.upper], into: &out) }
            unit = nil
        }
        var inFence = false
        var fenceMark = ""
        for line in lineRanges(markdown) {
            let trimmed = trimmedBlanks(markdown[line])
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let mark = String(trimmed.prefix(3))
                if !inFence {
                    flush()
                    inFence = true
                    fenceMark = mark
                } else if mark == fenceMark {
                    inFence = false
                }
                continue
            }
            if inFence { continue }
            if trimmed.isEmpty {
                flush()
                continue
            }
            if startsBlock(trimmed) { flush() }
            if let u = unit { unit = (u.lower, line.upperBound) } else { unit = (line.lowerBound, line.upperBound) }
        }
        flush()
        return out
    }

    static let terminators: Set<Character> = ["?", ".", "!", "…"]
    static let closers: Set<Character> = ["\"", "'", "\u{201D}", "\u{2019}", ")", "]", "*", "_", "`", "~"]

    /// `terminators.contains(c)`, read off the Character's one scalar instead of hashing it.
    @inline(__always) static func isTerminator(_ c: Character) -> Bool {
        guard let u = single(c) else { return false }
        switch u {
        case "?", ".", "!", "\u{2026}": return true
        default: return false
        }
    }

    /// `closers.contains(c)`, the same way.
    @inline(__always) static func isCloser(_ c: Character) -> Bool {
        guard let u = single(c) else { return false }
        switch u {
        case "\"", "'", "\u{201D}", "\u{2019}", ")", "]", "*", "_", "`", "~": return true
        default: return false
        }
    }

    /// The Character's scalar when it is one scalar (a mark after it makes it another Character).
    @inline(__always) static func single(_ c: Character) -> Unicode.Scalar? {
        let scalars = c.unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else { return nil }
        return first
    }

    static func scan(_ s: Substring, into out: inout [String]) {
        var sentenceStart = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            guard isTerminator(s[i]) else {
                i = s.index(after: i)
                continue
            }
            var j = s.index(after: i)
            while j < s.endIndex, isTerminator(s[j]) { j = s.index(after: j) }
            let last = s[s.index(before: j)]
            while j < s.endIndex, isCloser(s[j]) { j = s.index(after: j) }
            if j == s.endIndex || s[j].isWhitespace {
                if last == "?" {
                    let sentence = s[sentenceStart..<j].trimmingCharacters(in: .whitespacesAndNewlines)
                    if sentence.contains(where: { $0.isLetter }) { out.append(sentence) }
                }
                sentenceStart = j
            }
            i = j
        }
    }

    /// Lines that begin a block of their own: headings, list items, quotes, table rows.
    static func startsBlock(_ trimmed: Substring) -> Bool {
        if trimmed.hasPrefix("#") || trimmed.hasPrefix(">") || trimmed.hasPrefix("|") { return true }
        for m in ["- ", "* ", "+ "] where trimmed.hasPrefix(m) { return true }
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9 {
            let rest = trimmed.dropFirst(digits.count)
            if rest.hasPrefix(". ") || rest.hasPrefix(") ") { return true }
        }
        return false
    }

    /// `extract` for text that is all ASCII, read byte by byte, with the same rules: in ASCII a
    /// Character is a byte, except "\r\n", which is one newline (and one piece of whitespace).
    /// Nil for text that is not all ASCII.
    static func extractASCII(_ markdown: String) -> [String]? {
        var text = markdown
        return text.withUTF8 { b -> [String]? in
            if b.contains(where: { $0 >= 0x80 }) { return nil }
            var out: [String] = []
            let n = b.count
            func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }  // CharacterSet.whitespaces in ASCII
            func isNewline(_ c: UInt8) -> Bool { c >= 0x0A && c <= 0x0D }
            func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }  // isWhitespace; .whitespacesAndNewlines
            func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
            func isTerminator(_ c: UInt8) -> Bool { c == 0x3F || c == 0x2E || c == 0x21 }  // ? . !
            func isCloser(_ c: UInt8) -> Bool {
                c == 0x22 || c == 0x27 || c == 0x29 || c == 0x5D || c == 0x2A || c == 0x5F || c == 0x60 || c == 0x7E  // " ' ) ] * _ ` ~
            }
            func string(_ lo: Int, _ hi: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[lo..<hi]), as: UTF8.self) }
            func hasPrefix(_ lo: Int, _ hi: Int, _ p: StaticString) -> Bool {
                let m = p.utf8CodeUnitCount
                guard hi - lo >= m else { return false }
                for k in 0..<m where b[lo + k] != p.utf8Start[k] { return false }
                return true
            }
            // One run of text: its sentences, as `scan` reads them.
            func scan(_ lo: Int, _ hi: Int) {
                var sentenceStart = lo, i = lo
                while i < hi {
                    guard isTerminator(b[i]) else {
                        i += 1
                        continue
                    }
                    var j = i + 1
                    while j < hi, isTerminator(b[j]) { j += 1 }
                    let last = b[j - 1]
                    while j < hi, isCloser(b[j]) { j += 1 }
                    if j == hi || isSpace(b[j]) {
                        var s = sentenceStart, e = j
                        while s < e, isSpace(b[s]) { s += 1 }
                        while e > s, isSpace(b[e - 1]) { e -= 1 }
                        if last == 0x3F, b[s..<e].contains(where: isLetter) { out.append(string(s, e)) }
                        sentenceStart = j
                    }
                    i = j
                }
            }
            func startsBlock(_ lo: Int, _ hi: Int) -> Bool {
                let c = b[lo]
                if c == 0x23 || c == 0x3E || c == 0x7C { return true }  // # > |
                if (c == 0x2D || c == 0x2A || c == 0x2B) && hi - lo >= 2 && b[lo + 1] == 0x20 { return true }  // "- " "* " "+ "
                var d = lo
                while d < hi, b[d] >= 0x30, b[d] <= 0x39 { d += 1 }
                if d > lo, d - lo <= 9, hi - d >= 2, b[d] == 0x2E || b[d] == 0x29, b[d + 1] == 0x20 { return true }  // "1. " "1) "
                return false
            }
            var unit: (lower: Int, upper: Int)?
            func flush() {
                if let u = unit { scan(u.lower, u.upper) }
                unit = nil
            }
            var inFence = false
            var fenceMark: UInt8 = 0
            var start = 0
            while start <= n {
                // The line from `start` to the next newline (a "\r\n" is one).
                var end = start
                while end < n, !isNewline(b[end]) { end += 1 }
                let next = end < n ? (b[end] == 0x0D && end + 1 < n && b[end + 1] == 0x0A ? end + 2 : end + 1) : n + 1
                var lo = start, hi = end
                while lo < hi, isBlank(b[lo]) { lo += 1 }
                while hi > lo, isBlank(b[hi - 1]) { hi -= 1 }
                defer { start = next }
                if hasPrefix(lo, hi, "```") || hasPrefix(lo, hi, "~~~") {
                    if !inFence {
                        flush()
                        inFence = true
                        fenceMark = b[lo]
                    } else if b[lo] == fenceMark {
                        inFence = false
                    }
                    continue
                }
                if inFence { continue }
                if lo == hi {
                    flush()
                    continue
                }
                if startsBlock(lo, hi) { flush() }
                if let u = unit { unit = (u.lower, end) } else { unit = (start, end) }
            }
            flush()
            return out
        }
    }

    static func lineRanges(_ s: String) -> [Range<String.Index>] {
        var out: [Range<String.Index>] = []
        var start = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            if s[i].isNewline {
                out.append(start..<i)
                start = s.index(after: i)
            }
            i = s.index(after: i)
        }
        out.append(start..<s.endIndex)
        return out
    }
}
