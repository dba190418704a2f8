

/// Where each line of a share card goes. The SVG and the PNG are drawn from the same layout; only
/// the way text is measured differs (character cells for SVG, cairo's extents for PNG).
struct ShareCardLayout: Equatable {
    static let width = 1200
    static let height = 630
    static let margin = 80
    static let background = "#1e1f22"
    static let labelColor = "#d19a66"
    static let bugColor = "#8b919a"
    static let promptColor = "#dcdfe4"
    static let commentColor = "#8fa882"
    static let markColor = "#8b919a"
    static let ruleColor = "#3a3d43"
    /// DejaVu Sans Mono's advance is 1233/2048 of the em.
    static let monospaceAdvance = 0.602

    enum Anchor: Equatable { case start, end }

    struct Line: Equatable {
        var text: String
        var x: Int
        var y: Int
        var size: Int
        var color: String
        var anchor: Anchor
    }

    var lines: [Line]
    /// The horizontal rule under the header, as (y, x1, x2).
    var rule: (y: Int, x1: Int, x2: Int)

    static func == (a: ShareCardLayout, b: ShareCardLayout) -> Bool {
        a.lines == b.lines && a.rule == b.rule
    }

    /// Lays a card out. `measure(text, size)` is the advance width of `text` at font size `size`.
    static func make(_ card: ShareCard, measure: (String, Int) -> Double) -> ShareCardLayout {
        let textWidth = Double(width - 2 * margin)
        var lines: [Line] = []

        // Header: the catalogue label left, the bug title right, a rule under both.
        let headerY = margin + 24
        lines.append(Line(text: card.label, x: margin, y: headerY, size: 28, color: labelColor, anchor: .start))
        let labelWidth = measure(card.label, 28)
        let bugRoom = textWidth - labelWidth - measure("    ", 24)
        let bug = TextWrap.wrap(XMLEscape.clean(card.bugTitle), width: bugRoom, maxLines: 1) { measure($0, 24) }
        if let title = bug.first, !title.isEmpty {
            lines.append(Line(text: title, x: width - margin, y: headerY, size: 24, color: bugColor, anchor: .end))
        }
        let ruleY = headerY + 24

        // The prompt, as large as fits in five lines; then the comment, in at most four.
        let prompt = XMLEscape.clean(card.prompt)
        var promptSize = 30
        var promptLines: [String] = []
        for size in [46, 42, 38, 34, 30] {
            promptLines = TextWrap.wrap(prompt, width: textWidth, maxLines: 5) { measure($0, size) }
            promptSize = size
            if !TextWrap.wasTruncated(prompt, promptLines) { break }
        }
        let commentSize = 26
        var commentLines: [String] = []
        if let comment = card.inlineComment {
            let paragraphs = XMLEscape.clean(comment).split(separator: "\n", omittingEmptySubsequences: true).map { line -> String in
                let t = String(line).trimmingWhitespace()
                return t.hasPrefix("//") ? t : "// " + t
            }
            for paragraph in paragraphs where commentLines.count < 4 {
                let wrapped = TextWrap.wrap(paragraph, width: textWidth, maxLines: 4 - commentLines.count,
                                            continuation: "// ") { measure($0, commentSize) }
                commentLines += wrapped
            }
        }

        let promptLead = promptSize * 13 / 10
        let commentLead = commentSize * 14 / 10
        let gap = commentLines.isEmpty ? 0 : 40
        let blockHeight = promptLines.count * promptLead + gap + commentLines.count * commentLead
        // Centre the text block between the rule and the footer.
        let areaTop = ruleY + 40
        let areaBottom = height - margin - 40
        var y = areaTop + max(0, (areaBottom - areaTop - blockHeight) / 2) + promptSize
        for text in promptLines {
            lines.append(Line(text: text, x: margin, y: y, size: promptSize, color: promptColor, anchor: .start))
            y += promptLead
        }
        // First comment baseline: a gap below the last prompt line.
        y = y - promptLead + gap + commentLead
        for text in commentLines {
            lines.append(Line(text: text, x: margin, y: y, size: commentSize, color: commentColor, anchor: .start))
            y += commentLead
        }

        // The mark, bottom right.
        lines.append(Line(text: "EgoFix", x: width - margin, y: height - margin + 8, size: 24,
                          color: markColor, anchor: .end))
        return ShareCardLayout(lines: lines, rule: (ruleY, margin, width - margin))
    }

    /// Width of text in a monospace font, in character cells: combining marks and format characters
    /// take none, East Asian wide characters and most emoji two.
    static func columns(_ s: String) -> Int {
        // ASCII, byte by byte: every character one column but the controls, which take none.
        var s = s
        if let n = s.withUTF8({ bytes -> Int? in
            var n = 0
            for b in bytes {
                if b >= 0x80 { return nil }
                if b >= 0x20 && b != 0x7f { n += 1 }
            }
            return n
        }) { return n }
        return columnsByScalar(s)
    }

    /// `columns`, a Unicode scalar at a time.
    static func columnsByScalar(_ s: String) -> Int {
        var n = 0
        for u in s.unicodeScalars {
            switch u.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control: continue
            default: break
            }
            n += isWide(u.value) ? 2 : 1
        }
        return n
    }

    static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
    }

    /// The SVG measure: character cells times the monospace advance.
    static func monospaceMeasure(_ text: String, _ size: Int) -> Double {
        Double(columns(text)) * monospaceAdvance * Double(size)
    }
}
