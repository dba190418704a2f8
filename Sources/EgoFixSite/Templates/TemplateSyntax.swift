/// A small reader of Mustache tags, used to check a template against its context before
/// swift-mustache renders it (the library itself prints nothing for a missing key or partial).
///
/// It accepts the subset EgoFix templates use: variables `{{a}}` and `{{a.b}}`, the current item
/// `{{.}}`, raw output `{{{a}}}` / `{{& a}}`, sections `{{#a}}` and `{{^a}}` closed by `{{/a}}`,
/// partials `{{> name}}` (also `{{> folder/name}}`), and comments `{{! ... }}`. Set delimiters,
/// pragmas, template inheritance, dynamic partials and transforms are refused with an error, so what
/// this reader understands and what the library renders cannot drift apart.
struct TemplateSyntax {
    indirect enum Node: Sendable, Equatable {
        case variable(name: String, line: Int)
        case raw(name: String, line: Int)
        case section(name: String, inverted: Bool, line: Int, body: [Node])
        case partial(name: String, line: Int)
    }

    /// The deepest nesting of sections a template may have. The readers and the renderer recurse
    /// once per level: 3,000 levels overflowed a thread's stack. EgoFix's own templates nest a few.
    static let maxSectionDepth = 100

    /// Parses a template. `label` names the file in errors.
    static func parse(_ text: String, label: String) throws -> [Node] {
        var reader = Reader(chars: Array(text), label: label)
        let nodes = try reader.parseBody(until: nil)
        return nodes
    }

    /// How deep a template nests: its deepest section, and each partial it includes with the
    /// number of sections around that include.
    struct Shape {
        var depth = 0
        var includes: [(partial: String, depth: Int, line: Int)] = []
    }

    static func shape(of nodes: [Node]) -> Shape {
        var shape = Shape()
        func walk(_ nodes: [Node], _ depth: Int) {
            shape.depth = max(shape.depth, depth)
            for node in nodes {
                switch node {
                case .partial(let name, let line): shape.includes.append((name, depth, line))
                case .section(_, _, _, let body): walk(body, depth + 1)
                case .variable, .raw: break
                }
            }
        }
        walk(nodes, 0)
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

    /// Every partial a template refers to, with the line of its first use, in order.
    static func partials(in nodes: [Node]) -> [(name: String, line: Int)] {
        var out: [(String, Int)] = []
        func walk(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .partial(let name, let line): out.append((name, line))
                case .section(_, _, _, let body): walk(body)
                case .variable, .raw: break
                }
            }
        }
        walk(nodes)
        return out
    }

    private struct Reader {
        let chars: [Character]
        let label: String
        var index = 0
        var line = 1
        var depth = 0

        init(chars: [Character], label: String) {
            self.chars = chars
            self.label = label
        }

        mutating func parseBody(until closing: (name: String, line: Int)?) throws -> [Node] {
            var nodes: [Node] = []
            while index < chars.count {
                guard atOpenDelimiter() else {
                    if chars[index].isNewline { line += 1 }
                    index += 1
                    continue
                }
                let tagLine = line
                index += 2
                guard index < chars.count else { throw error("unclosed tag '{{' at the end of the file", tagLine) }
                let sigil = chars[index]
                switch sigil {
                case "{":
                    index += 1
                    let name = try readName(end: "}}}", tagLine: tagLine)
                    nodes.append(.raw(name: name, line: tagLine))
                case "&":
                    index += 1
                    let name = try readName(end: "}}", tagLine: tagLine)
                    nodes.append(.raw(name: name, line: tagLine))
                case "#", "^":
                    index += 1
                    let name = try readName(end: "}}", tagLine: tagLine)
                    guard depth < TemplateSyntax.maxSectionDepth else {
                        throw error("sections are nested more than \(TemplateSyntax.maxSectionDepth) deep here; "
                                    + "flatten the template (move inner parts into the page model or a partial)", tagLine)
                    }
                    depth += 1
                    let body = try parseBody(until: (name, tagLine))
                    depth -= 1
                    nodes.append(.section(name: name, inverted: sigil == "^", line: tagLine, body: body))
                case "/":
                    index += 1
                    let name = try readName(end: "}}", tagLine: tagLine)
                    guard let closing else {
                        throw error("'{{/\(name)}}' closes a section that was never opened", tagLine)
                    }
                    guard closing.name == name else {
                        throw error("'{{/\(name)}}' closes '{{#\(closing.name)}}' opened on line \(closing.line); "
                                    + "close it with '{{/\(closing.name)}}'", tagLine)
                    }
                    return nodes
                case "!":
                    index += 1
                    try skipComment(tagLine: tagLine)
                case ">":
                    index += 1
                    let name = try readPartialName(tagLine: tagLine)
                    nodes.append(.partial(name: name, line: tagLine))
                case "=":
                    throw error("set-delimiter tags ('{{=') are not supported in EgoFix templates", tagLine)
                case "%":
                    throw error("pragmas ('{{%') are not supported in EgoFix templates", tagLine)
                case "<", "$":
                    throw error("template inheritance ('{{\(sigil)') is not supported in EgoFix templates; use partials", tagLine)
                default:
                    let name = try readName(end: "}}", tagLine: tagLine)
                    nodes.append(.variable(name: name, line: tagLine))
                }
            }
            if let closing {
                throw error("section '{{#\(closing.name)}}' opened on line \(closing.line) is never closed; "
                            + "add '{{/\(closing.name)}}'", closing.line)
            }
            return nodes
        }

        func atOpenDelimiter() -> Bool {
            index + 1 < chars.count && chars[index] == "{" && chars[index + 1] == "{"
        }

        func error(_ message: String, _ line: Int) -> TemplateError {
            .syntax(template: label, line: line, message: message)
        }

        mutating func skipWhitespace() {
            while index < chars.count, chars[index].isWhitespace {
                if chars[index].isNewline { line += 1 }
                index += 1
            }
        }

        /// Reads a tag's content up to `end`, trimmed.
        mutating func readContent(end: String, tagLine: Int) throws -> String {
            let endChars = Array(end)
            var content: [Character] = []
            while index < chars.count {
                if chars[index] == endChars[0], index + endChars.count <= chars.count,
                   Array(chars[index..<(index + endChars.count)]) == endChars {
                    index += endChars.count
                    return String(content).trimmingWhitespace()
                }
                if chars[index].isNewline { line += 1 }
                content.append(chars[index])
                index += 1
            }
            throw error("tag opened here is never closed with '\(end)'", tagLine)
        }

        mutating func readName(end: String, tagLine: Int) throws -> String {
            let name = try readContent(end: end, tagLine: tagLine)
            guard TemplateSyntax.isValidName(name) else {
                if name.isEmpty { throw error("empty tag '{{\(end)'", tagLine) }
                if name.contains("(") && !name.contains("\n") && name.count <= 60 {
                    throw error("'\(name)': transforms are not supported in EgoFix templates; "
                                + "give the page model the value it needs", tagLine)
                }
                throw error("'\(TemplateSyntax.quoted(name))' is not a valid key: use letters, digits, '_' and '-', "
                            + "separated by '.'", tagLine)
            }
            return name
        }

        mutating func readPartialName(tagLine: Int) throws -> String {
            let name = try readContent(end: "}}", tagLine: tagLine)
            if name.hasPrefix("*") {
                throw error("dynamic partials ('{{>*') are not supported in EgoFix templates", tagLine)
            }
            guard TemplateSyntax.isValidPartialName(name) else {
                throw error("'\(TemplateSyntax.quoted(name))' is not a valid partial name: use letters, digits, '_', '-' "
                            + "and '/' for folders", tagLine)
            }
            return name
        }

        mutating func skipComment(tagLine: Int) throws {
            _ = try readContent(end: "}}", tagLine: tagLine)
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
