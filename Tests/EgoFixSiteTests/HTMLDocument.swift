import Foundation

/// A small HTML tokenizer for tests: elements with attributes, and text. Enough to assert on
/// structure (which elements and attributes exist, what text they hold) instead of grepping.
struct HTMLDocument {
    struct Element {
        let name: String
        let attributes: [(String, String)]
        func attr(_ n: String) -> String? { attributes.first { $0.0 == n }?.1 }
        var classes: [String] { (attr("class") ?? "").split(separator: " ").map(String.init) }
    }

    private(set) var elements: [Element] = []
    /// Text nodes, entity-decoded, in order.
    private(set) var texts: [String] = []
    /// Text per nearest open element with a class, e.g. texts inside `.reflection`.
    private(set) var textByClass: [String: [String]] = [:]

    init(_ html: String) {
        let s = Array(html.unicodeScalars)
        var i = 0
        var stack: [Element] = []
        let voids: Set<String> = ["meta", "link", "br", "img", "hr", "input", "source", "rect", "path", "line", "circle", "use"]
        func decode(_ t: String) -> String {
            var out = t
            for (e, r) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
                out = out.replacingOccurrences(of: e, with: r)
            }
            return out
        }
        while i < s.count {
            if s[i] == "<" {
                if i + 3 < s.count, s[i + 1] == "!", s[i + 2] == "-", s[i + 3] == "-" {
                    while i + 2 < s.count && !(s[i] == "-" && s[i + 1] == "-" && s[i + 2] == ">") { i += 1 }
                    i += 3
                    continue
                }
                var j = i + 1
                var tag = ""
                while j < s.count && s[j] != ">" { tag.unicodeScalars.append(s[j]); j += 1 }
                i = j + 1
                if tag.hasPrefix("!") { continue }
                if tag.hasPrefix("/") {
                    let name = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces).lowercased()
                    if let k = stack.lastIndex(where: { $0.name == name }) { stack.removeSubrange(k...) }
                    continue
                }
                let selfClosing = tag.hasSuffix("/")
                if selfClosing { tag.removeLast() }
                let el = HTMLDocument.parseTag(tag)
                elements.append(el)
                if !selfClosing && !voids.contains(el.name) { stack.append(el) }
                if el.name == "script" || el.name == "style" {
                    // skip raw text
                    let close = "</" + el.name
                    var k = i
                    var buf = ""
                    while k < s.count {
                        buf.unicodeScalars.append(s[k])
                        if buf.lowercased().hasSuffix(close) { break }
                        k += 1
                    }
                    i = k
                }
            } else {
                var t = ""
                while i < s.count && s[i] != "<" { t.unicodeScalars.append(s[i]); i += 1 }
                let d = decode(t)
                if !d.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    texts.append(d)
                    for el in stack.reversed() {
                        for c in el.classes { textByClass[c, default: []].append(d) }
                    }
                }
            }
        }
    }

    static func parseTag(_ tag: String) -> Element {
        let scalars = Array(tag.unicodeScalars)
        var i = 0
        var name = ""
        while i < scalars.count && !CharacterSet.whitespacesAndNewlines.contains(scalars[i]) { name.unicodeScalars.append(scalars[i]); i += 1 }
        var attrs: [(String, String)] = []
        while i < scalars.count {
            while i < scalars.count && CharacterSet.whitespacesAndNewlines.contains(scalars[i]) { i += 1 }
            var key = ""
            while i < scalars.count && scalars[i] != "=" && !CharacterSet.whitespacesAndNewlines.contains(scalars[i]) { key.unicodeScalars.append(scalars[i]); i += 1 }
            var value = ""
            if i < scalars.count && scalars[i] == "=" {
                i += 1
                if i < scalars.count && (scalars[i] == "\"" || scalars[i] == "'") {
                    let q = scalars[i]
                    i += 1
                    while i < scalars.count && scalars[i] != q { value.unicodeScalars.append(scalars[i]); i += 1 }
                    i += 1
                } else {
                    while i < scalars.count && !CharacterSet.whitespacesAndNewlines.contains(scalars[i]) { value.unicodeScalars.append(scalars[i]); i += 1 }
                }
            }
            if !key.isEmpty { attrs.append((key.lowercased(), value)) }
        }
        return Element(name: name.lowercased(), attributes: attrs)
    }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}
