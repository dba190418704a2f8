import EgoFixCore
import CCairo
import Foundation

/// A share card as a 1200×630 SVG: monospace, dark palette, the prompt wrapped, the comment under
/// it, a small "EgoFix" mark. Same card, same bytes.
public enum ShareCardSVG {
    public static func render(_ card: ShareCard) -> String {
        let layout = ShareCardLayout.make(card, measure: ShareCardLayout.monospaceMeasure)
        let w = ShareCardLayout.width, h = ShareCardLayout.height
        let summary = XMLEscape.escape(accessibleText(card))
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" "
            + "role=\"img\" aria-label=\"\(summary)\" "
            + "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n"
        svg += "<title>\(summary)</title>\n"
        svg += "<rect width=\"\(w)\" height=\"\(h)\" fill=\"\(ShareCardLayout.background)\"/>\n"
        let rule = layout.rule
        svg += "<path d=\"M\(rule.x1) \(rule.y)H\(rule.x2)\" stroke=\"\(ShareCardLayout.ruleColor)\" stroke-width=\"2\"/>\n"
        for line in layout.lines {
            let anchor = line.anchor == .end ? " text-anchor=\"end\"" : ""
            svg += "<text x=\"\(line.x)\" y=\"\(line.y)\" font-size=\"\(line.size)\" fill=\"\(line.color)\"\(anchor)>"
                + XMLEscape.escape(line.text) + "</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// The same, for a template (`{{{card}}}`).
    public static func html(_ card: ShareCard) -> RawHTML {
        RawHTML(trusted: render(card))
    }

    /// The card's words, for `aria-label`, `alt` and link-preview descriptions.
    public static func accessibleText(_ card: ShareCard) -> String {
        var parts = ["\(card.label) (\(card.bugTitle)): \(card.prompt)"]
        if let comment = card.inlineComment {
            parts.append(comment.split(separator: "\n").map { String($0).trimmingWhitespace() }.joined(separator: " "))
        }
        return parts.joined(separator: " ")
    }
}
