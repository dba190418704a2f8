import EgoFixCore
import EgoFixResources
import Foundation

/// The help block a command prints first when the text it was just given reads like a crisis
/// (`CrisisLanguage`), as a private page shows it first: its words are the built-in theme's
/// (`Templates/partials/help.mustache`), read from there, so the two say the same.
enum CrisisHelp {
    /// The block's lines (a heading, the text wrapped, a blank line) when `text` reads like a
    /// crisis; else none.
    static func lines(for text: String?, style: Style) -> [String] {
        guard let text, CrisisLanguage.detect(text), let block = words() else { return [] }
        return [style.bold(block.heading.uppercased()), ""] + Text.wrap(block.body) + [""]
    }

    /// The heading and the paragraph of the built-in help partial, as text.
    static func words() -> (heading: String, body: String)? {
        guard let data = BuiltIn.file("Templates/partials/help.mustache") else { return nil }
        let html = String(decoding: data, as: UTF8.self)
        func inside(_ tag: String) -> String? {
            guard let open = html.range(of: "<" + tag), let start = html[open.upperBound...].firstIndex(of: ">"),
                  let close = html.range(of: "</" + tag + ">", range: html.index(after: start)..<html.endIndex) else { return nil }
            return plain(html[html.index(after: start)..<close.lowerBound])
        }
        guard let heading = inside("h2"), let body = inside("p"), !body.isEmpty else { return nil }
        return (heading, body)
    }

    /// Markup as text: tags left out, the entities the theme writes read, white space as one space.
    private static func plain(_ html: Substring) -> String {
        var out = "", inTag = false
        for c in html {
            if c == "<" { inTag = true } else if c == ">" { inTag = false } else if !inTag { out.append(c) }
        }
        for (entity, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: c)
        }
        return out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
