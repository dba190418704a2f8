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

    /// Parses a template. `label` names the file in errors.
    static func parse(_ text: String, label: String) throws -> [Node] {
        var reader = Reader(chars: Array(text), label: label)
        let nodes = try reader.parseBody(until: nil)
        return nodes
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
                    let body = try parseBody(until: (name, tagLine))
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
                if name.contains("(") {
                    throw error("'\(name)': transforms are not supported in EgoFix templates; "
                                + "give the page model the value it needs", tagLine)
                }
                throw error("'\(name)' is not a valid key: use letters, digits, '_' and '-', "
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
                throw error("'\(name)' is not a valid partial name: use letters, digits, '_', '-' "
                            + "and '/' for folders", tagLine)
            }
            return name
        }

        mutating func skipComment(tagLine: Int) throws {
            _ = try readContent(end: "}}", tagLine: tagLine)
        }
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
