import Foundation

/// A `<meta>` element as it stands in a page's or template's text: its attributes, each name
/// lowercased, each value where it stands in the text. The one reading of meta elements that the
/// override check (`PageMeta`) and `serve`'s live reload share, so that a Content-Security-Policy
/// the build accepts is one `serve` finds: attributes in any order, names in any case, values in
/// double, single or no quotes.
public struct MetaTag {
    public struct Attribute {
        /// The name, lowercased.
        public let name: String
        /// The value as written, without its quotes (see `text` for the value a browser reads).
        public let value: Substring
        /// The value with its quotes, if it has them: what replacing the value replaces.
        public let written: Range<String.Index>

        /// The value as a browser reads it: character references (`&#39;`, `&#x27;`, `&quot;`,
        /// `&amp;`, `&lt;`, `&gt;`, `&apos;`) replaced by their characters.
        public var text: String {
            guard value.contains("&") else { return String(value) }
            var out = "", rest = value
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                let ref = rest[rest.index(after: amp)...].prefix { $0 != ";" && $0 != "&" && $0 != " " }
                let end = ref.endIndex
                if end < rest.endIndex, rest[end] == ";", let c = Attribute.character(ref) {
                    out.unicodeScalars.append(c)
                    rest = rest[rest.index(after: end)...]
                } else {
                    out += "&"
                    rest = rest[rest.index(after: amp)...]
                }
            }
            return out + rest
        }

        private static func character(_ ref: Substring) -> Unicode.Scalar? {
            switch ref {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                guard ref.first == "#" else { return nil }
                let digits = ref.dropFirst()
                let code = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                return code.flatMap(Unicode.Scalar.init)
            }
        }
    }

    public let attributes: [Attribute]

    /// The first value of the attribute `name` (lowercase), trimmed.
    public func value(_ name: String) -> String? {
        attributes.first { $0.name == name }.map { $0.text.trimmingCharacters(in: .whitespaces) }
    }

    /// The first value of the attribute `name` (lowercase) as it stands: a browser matches
    /// `http-equiv` and `name` without trimming them (" Content-Security-Policy" is no policy).
    public func exactValue(_ name: String) -> String? {
        attributes.first { $0.name == name }.map { String($0.text) }
    }

    /// Whether it is a `Content-Security-Policy` meta (`http-equiv` in any case).
    public var isContentSecurityPolicy: Bool {
        exactValue("http-equiv")?.lowercased() == "content-security-policy"
    }

    /// Every `<meta` element of `text` (any case), in order, but those inside an HTML comment
    /// (`<!-- -->`, which a browser does not read); a tag runs to the next `>`. Found on the
    /// bytes: `serve` reads every page it sends.
    public static func all(in text: String) -> [MetaTag] {
        var copy = text
        let spans = copy.withUTF8 { b -> [(Int, Int)] in
            func has(_ word: StaticString, at: Int) -> Bool { ASCIISearch.has(word, in: b, at: at) }
            var spans: [(Int, Int)] = []
            var i = 0
            while i < b.count {
                guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
                if has("<!--", at: i) {
                    var j = i + 4
                    while j < b.count, !has("-->", at: j) { j += 1 }
                    i = j + 3
                } else if let close = MetaTag.rawTextEnd(b, at: i) {
                    // Inside <title>, <textarea>, <script>, <style> and the like, "<meta" is text
                    // (or inert, or not read with scripts on), not a tag a browser applies.
                    var j = i + 1
                    while j < b.count, !ASCIISearch.has(close, in: b, at: j) { j += 1 }
                    i = j
                } else if has("<meta", at: i) {
                    var end = i + 5
                    while end < b.count, b[end] != UInt8(ascii: ">") { end += 1 }
                    spans.append((i + 5, end))
                    i = end
                } else {
                    i += 1
                }
            }
            return spans
        }
        let bytes = text.utf8
        return spans.map { start, end in
            MetaTag(attributes: attributes(text[bytes.index(bytes.startIndex, offsetBy: start)..<bytes.index(bytes.startIndex, offsetBy: end)]))
        }
    }

    /// The end tag of an element whose content is text or inert, not tags applied (`</title`,
    /// `</noscript`: read only with scripts off, `</template`), when one begins at
    /// `i` of `b`; nil otherwise.
    private static func rawTextEnd(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> StaticString? {
        for (open, close) in [("<title" as StaticString, "</title" as StaticString), ("<textarea", "</textarea"), ("<script", "</script"), ("<style", "</style"),
                              ("<noscript", "</noscript"), ("<template", "</template"), ("<xmp", "</xmp"), ("<iframe", "</iframe"), ("<noframes", "</noframes")]
        where ASCIISearch.has(open, in: b, at: i) {
            let next = i + open.utf8CodeUnitCount
            guard next < b.count else { return nil }
            let c = b[next]
            if c == UInt8(ascii: ">") || c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "/") { return close }
        }
        return nil
    }

    /// `name="value"`, `name='value'` or `name=value` pairs of a tag's text.
    private static func attributes(_ tag: Substring) -> [Attribute] {
        var out: [Attribute] = []
        var rest = tag
        while let eq = rest.firstIndex(of: "=") {
            let name = rest[..<eq].split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "/" }).last.map { $0.lowercased() } ?? ""
            let start = rest[rest.index(after: eq)...].drop { $0 == " " }
            let value: Substring, written: Range<String.Index>
            if let q = start.first, q == "\"" || q == "'" {
                let inside = start.dropFirst()
                value = inside.prefix { $0 != q }
                rest = inside[value.endIndex...].dropFirst()
                written = start.startIndex..<rest.startIndex
            } else {
                value = start.prefix { $0 != " " && $0 != "\n" && $0 != "\t" }
                rest = start[value.endIndex...]
                written = value.startIndex..<value.endIndex
            }
            if !name.isEmpty { out.append(Attribute(name: name, value: value, written: written)) }
        }
        return out
    }
}
