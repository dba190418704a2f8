import Foundation

/// A template compiled once at load and rendered straight into bytes.
///
/// The layout rules are swift-mustache's, ported token for token from its parser (version 2.1.1,
/// `Template+Parser.swift`, by `TemplateParser`) for the subset `TemplateSyntax` describes: text, `{{name}}`,
/// `{{{name}}}` / `{{& name}}`, sections, inverted sections, partials and comments, with the
/// same standalone-line rules (a section, comment or partial tag alone on its line takes the line
/// with it) and the same partial indentation. Output is byte for byte what swift-mustache
/// printed with the pre-escaped content type; the strict checks of `TemplateSet` (missing key,
/// wrong kind, partial depth) run during the one walk that renders, in the order the separate
/// check used to, so the same error comes first.
struct CompiledTemplate: Sendable {
    /// A tag's parts, in one object the renderer reads in place.
    final class Tag: Sendable {
        let name: String
        /// The name split at ".", empty for "." (the current item).
        let path: [String]
        let line: Int
        let inverted: Bool
        let body: [Token]
        /// For a partial: set when the tag stands alone on its line (it may be empty).
        let indentation: [UInt8]?

        init(name: String, path: [String] = [], line: Int, inverted: Bool = false, body: [Token] = [], indentation: [UInt8]? = nil) {
            self.name = name
            self.path = path
            self.line = line
            self.inverted = inverted
            self.body = body
            self.indentation = indentation
        }
    }

    enum Token: Sendable {
        case text([UInt8])
        /// `{{name}}`
        case variable(Tag)
        case raw(Tag)
        case section(Tag)
        case partial(Tag)
    }

    let name: String
    let origin: String
    let tokens: [Token]

    /// The partials it names, with the line of each use, in order.
    var partials: [(name: String, line: Int)] {
        var out: [(name: String, line: Int)] = []
        CompiledTemplate.visit(tokens) { token in
            if case .partial(let tag) = token { out.append((tag.name, tag.line)) }
        }
        return out
    }

    /// Calls `body` with every token of `tokens` in order, a section's before those of its body:
    /// the one walk over a template's tokens that its checks share.
    static func visit(_ tokens: [Token], _ body: (Token) -> Void) {
        for token in tokens {
            body(token)
            if case .section(let tag) = token { visit(tag.body, body) }
        }
    }

    /// Whether any token of `tokens`, sections' bodies included, satisfies `test` (the walk of
    /// `visit`, stopping at the first).
    static func contains(_ tokens: [Token], where test: (Token) -> Bool) -> Bool {
        tokens.contains { token in
            if test(token) { return true }
            if case .section(let tag) = token { return contains(tag.body, where: test) }
            return false
        }
    }

    init(name: String, origin: String, text: String) throws {
        self.name = name
        self.origin = origin
        tokens = try CompiledTemplate.parse(text, label: origin)
    }

    /// The tokens of `text`. Text in which every Character is a single Unicode scalar (every
    /// built-in template) is read scalar by scalar, which gives the same tokens without making a
    /// Character of each one, which cost most of the load; other text is read as Characters.
    static func parse(_ text: String, label: String, asCharacters: Bool = false) throws -> [Token] {
        if !asCharacters, text.count == text.unicodeScalars.count {
            var parser = TemplateParser(chars: text.unicodeScalars.map { ScalarUnit($0) }, label: label)
            return try parser.parse(section: nil, newLine: true)
        }
        var parser = TemplateParser(chars: Array(text), label: label)
        return try parser.parse(section: nil, newLine: true)
    }
}
