/// The rules of the Mustache subset EgoFix templates are written in, which `TemplateParser`
/// reads by: what a key and a partial's name may be, how deep sections may nest, and how deep a
/// render may go through chains of partials (checked across a theme with overrides).
///
/// The subset: variables `{{a}}` and `{{a.b}}`, the current item `{{.}}`, raw output `{{{a}}}` /
/// `{{& a}}`, sections `{{#a}}` and `{{^a}}` closed by `{{/a}}`, partials `{{> name}}` (also
/// `{{> folder/name}}`), and comments `{{! ... }}`. Set delimiters, pragmas, template inheritance,
/// dynamic partials and transforms are refused.
enum TemplateSyntax {
    /// The deepest nesting of sections a template may have. The readers and the renderer recurse
    /// once per level: 3,000 levels overflowed a thread's stack. EgoFix's own templates nest a few.
    static let maxSectionDepth = 100

    /// How deep a template nests: its deepest section, and each partial it includes with the
    /// number of sections around that include.
    struct Shape {
        var depth = 0
        var includes: [(partial: String, depth: Int, line: Int)] = []
    }

    static func shape(of tokens: [CompiledTemplate.Token]) -> Shape {
        var shape = Shape()
        func walk(_ tokens: [CompiledTemplate.Token], _ depth: Int) {
            shape.depth = max(shape.depth, depth)
            for token in tokens {
                switch token {
                case .partial(let tag): shape.includes.append((tag.name, depth, tag.line))
                case .section(let tag): walk(tag.body, depth + 1)
                case .text, .variable, .raw: break
                }
            }
        }
        walk(tokens, 0)
        return shape
    }

    /// The deepest a render may nest, sections and partials together, through every chain of
    /// partials: each level is a call on the rendering thread's stack (32 partials of 99 sections
    /// each overflowed it).
    static let maxRenderDepth = 200

    /// Throws for the first template (the user's before the built-in ones, then by name) from which a render could nest deeper than
    /// `maxRenderDepth`, naming the include that leads there.
    static func checkRenderDepth(_ shapes: [String: Shape], origins: [String: String], maxPartialDepth: Int) throws {
        // reach[t]: the deepest nesting from t with k levels of partials left, for k = 0, 1, ...
        var reach = shapes.mapValues(\.depth)
        for _ in 0..<maxPartialDepth {
            var next = reach
            for (name, shape) in shapes {
                for include in shape.includes {
                    if let inner = reach[include.partial] { next[name] = max(next[name] ?? 0, include.depth + 1 + inner) }
                }
            }
            if next == reach { break }
            reach = next
        }
        // The user's own files first: the error names a file they can change.
        let builtIn: (String) -> Bool = { (origins[$0] ?? "").hasSuffix("(built-in)") }
        for name in shapes.keys.sorted(by: { (builtIn($0) ? 1 : 0, $0) < (builtIn($1) ? 1 : 0, $1) }) {
            guard let deepest = reach[name], deepest > maxRenderDepth, let shape = shapes[name] else { continue }
            let culprit = shape.includes.max { a, b in
                a.depth + (reach[a.partial] ?? 0) < b.depth + (reach[b.partial] ?? 0)
            }
            throw TemplateError.syntax(template: origins[name] ?? name, line: culprit?.line ?? 1,
                                       message: "sections and partials nest \(deepest) levels deep from here"
                                        + (culprit.map { " through '{{> \($0.partial)}}'" } ?? "")
                                        + ", over the limit of \(maxRenderDepth); flatten the templates")
        }
    }

    /// A tag's content as an error quotes it: its first line, at most 40 characters.
    static func quoted(_ content: String) -> String {
        let first = content.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let short = first.count > 40 ? String(first.prefix(40)) + "…" : first
        return short.count < content.count ? (short.hasSuffix("…") ? short : short + "…") : short
    }

    static func isKeyChar(_ c: Character) -> Bool {
        guard c.isASCII else { return false }
        return c.isLetter || c.isNumber || c == "_" || c == "-"
    }

    /// `.` or dot-separated segments of `[A-Za-z0-9_-]`.
    static func isValidName(_ name: String) -> Bool {
        if name == "." { return true }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !segments.isEmpty else { return false }
        return segments.allSatisfy { !$0.isEmpty && $0.allSatisfy(isKeyChar) }
    }

    /// Slash-separated segments of `[A-Za-z0-9_-]` (plus inner dots), no `..`.
    static func isValidPartialName(_ name: String) -> Bool {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty else { return false }
        return segments.allSatisfy { segment in
            !segment.isEmpty && segment.first != "." && segment.allSatisfy { isKeyChar($0) || $0 == "." }
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
