

/// Greedy word wrapping with a measure function.
enum TextWrap {
    static let ellipsis = "\u{2026}"

    /// Wraps `text` (newlines become spaces) into lines no wider than `width`. Words wider than a
    /// line are split. With more than `maxLines` lines, the last kept line ends in an ellipsis.
    /// Continuation lines start with `continuation`.
    static func wrap(_ text: String, width: Double, maxLines: Int, continuation: String = "",
                     measure: (String) -> Double) -> [String] {
        guard maxLines > 0 else { return [] }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r\n" }).map(String.init)
        var lines: [String] = []
        var current = ""
        func prefix() -> String { lines.isEmpty ? "" : continuation }
        for word in words {
            let candidate = current.isEmpty ? prefix() + word : current + " " + word
            if measure(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty {
                lines.append(current)
                current = ""
            }
            // The word alone, split where it does not fit.
            var piece = prefix()
            for ch in word {
                if measure(piece + String(ch)) > width, !piece.isEmpty, piece != prefix() {
                    lines.append(piece)
                    piece = prefix()
                }
                piece.append(ch)
            }
            current = piece
        }
        if !current.isEmpty { lines.append(current) }
        guard lines.count > maxLines else { return lines }
        var kept = Array(lines.prefix(maxLines))
        var last = kept[maxLines - 1]
        while !last.isEmpty, measure(last + ellipsis) > width { last.removeLast() }
        kept[maxLines - 1] = last.trimmingWhitespace() + ellipsis
        return kept
    }

    static func wasTruncated(_ text: String, _ lines: [String]) -> Bool {
        lines.last?.hasSuffix(ellipsis) == true && !text.hasSuffix(ellipsis)
    }
}
