import Foundation

/// A question the user asked in their own words.
public struct AskedQuestion: Sendable, Equatable {
    public enum Source: String, Sendable, Codable {
        case reflection
        case crashNote
    }

    /// Verbatim: the sentence as typed, only surrounding whitespace removed.
    public let text: String
    public let at: Date
    public let day: LocalDay
    public let source: Source
    /// The completion or crash it came from.
    public let recordId: UUID
    public let bugId: UUID?
}

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
        var out: [String] = []
        var unit: (lower: String.Index, upper: String.Index)?
        func flush() {
            if let u = unit { scan(markdown[u.lower..<u.upper], into: &out) }
            unit = nil
        }
        var inFence = false
        var fenceMark = ""
        for line in lineRanges(markdown) {
            let text = markdown[line]
            let trimmed = text.trimmingCharacters(in: .whitespaces)
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

    /// Questions from every reflection and crash note, oldest first; `from` and `to` bound the instant (to exclusive).
    public static func collect(_ input: InsightInput, from: Date? = nil, to: Date? = nil) -> [AskedQuestion] {
        let cal = input.calendar
        let fixes = input.fixIndex()
        var out: [AskedQuestion] = []
        func inRange(_ t: Date) -> Bool { (from.map { t >= $0 } ?? true) && (to.map { t < $0 } ?? true) }
        for c in input.liveCompletions {
            guard let text = c.reflection, !text.isEmpty else { continue }
            let at = c.completedAt ?? c.assignedAt
            guard inRange(at) else { continue }
            for q in extract(from: text) {
                out.append(AskedQuestion(text: q, at: at, day: LocalDay(at, calendar: cal), source: .reflection,
                                         recordId: c.id, bugId: fixes[c.fixId]?.bugId))
            }
        }
        for c in input.liveCrashes {
            guard let text = c.note, !text.isEmpty, inRange(c.crashedAt) else { continue }
            for q in extract(from: text) {
                out.append(AskedQuestion(text: q, at: c.crashedAt, day: LocalDay(c.crashedAt, calendar: cal),
                                         source: .crashNote, recordId: c.id, bugId: c.bugId))
            }
        }
        // Stable order: by time, then record, then position within the record (kept by the stable sort).
        return out.enumerated().sorted { a, b in
            if a.element.at != b.element.at { return a.element.at < b.element.at }
            if a.element.recordId != b.element.recordId { return a.element.recordId.uuidString < b.element.recordId.uuidString }
            return a.offset < b.offset
        }.map(\.element)
    }

    static let terminators: Set<Character> = ["?", ".", "!", "…"]
    static let closers: Set<Character> = ["\"", "'", "\u{201D}", "\u{2019}", ")", "]", "*", "_", "`", "~"]

    static func scan(_ s: Substring, into out: inout [String]) {
        var sentenceStart = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            guard terminators.contains(s[i]) else {
                i = s.index(after: i)
                continue
            }
            var j = s.index(after: i)
            while j < s.endIndex, terminators.contains(s[j]) { j = s.index(after: j) }
            let last = s[s.index(before: j)]
            while j < s.endIndex, closers.contains(s[j]) { j = s.index(after: j) }
            if j == s.endIndex || s[j].isWhitespace {
                let sentence = s[sentenceStart..<j].trimmingCharacters(in: .whitespacesAndNewlines)
                if last == "?", sentence.contains(where: { $0.isLetter }) { out.append(sentence) }
                sentenceStart = j
            }
            i = j
        }
    }

    /// Lines that begin a block of their own: headings, list items, quotes, table rows.
    static func startsBlock(_ trimmed: String) -> Bool {
        if trimmed.hasPrefix("#") || trimmed.hasPrefix(">") || trimmed.hasPrefix("|") { return true }
        for m in ["- ", "* ", "+ "] where trimmed.hasPrefix(m) { return true }
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9 {
            let rest = trimmed.dropFirst(digits.count)
            if rest.hasPrefix(". ") || rest.hasPrefix(") ") { return true }
        }
        return false
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
