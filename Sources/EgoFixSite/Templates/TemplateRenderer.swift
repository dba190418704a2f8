import Foundation

/// A template compiled once at load and rendered straight into bytes.
///
/// The layout rules are swift-mustache's, ported token for token from its parser (version 2.1.1,
/// `Template+Parser.swift`) for the subset `TemplateSyntax` accepts: text, `{{name}}`,
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
        var out: [(String, Int)] = []
        func walk(_ tokens: [Token]) {
            for token in tokens {
                switch token {
                case .partial(let tag): out.append((tag.name, tag.line))
                case .section(let tag): walk(tag.body)
                case .text, .variable, .raw: break
                }
            }
        }
        walk(tokens)
        return out
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
            var parser = LayoutParser(chars: text.unicodeScalars.map { ScalarUnit($0) }, label: label)
            return try parser.parse(section: nil, newLine: true)
        }
        var parser = LayoutParser(chars: Array(text), label: label)
        return try parser.parse(section: nil, newLine: true)
    }
}

/// A set of ASCII characters, tested without hashing. A Character is in it when it is one of
/// them exactly (a letter with a combining mark is not); "\r\n" counts as "\n", as
/// `Character.asciiValue` has it.
struct ASCIISet: Sendable {
    private var low: UInt64 = 0, high: UInt64 = 0

    init(_ members: String) {
        for b in members.utf8 where b < 128 {
            if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
        }
    }

    /// Whether `u` is one of the set's characters exactly.
    @inline(__always)
    func contains<U: LayoutUnit>(_ u: U) -> Bool {
        guard let b = u.asciiValue else { return false }
        return b < 64 ? low & (1 << UInt64(b)) != 0 : (b < 128 && high & (1 << UInt64(b - 64)) != 0)
    }
}

/// What `LayoutParser` reads: the template's Characters, or its Unicode scalars when each
/// Character is one scalar. Both answer the same questions the same way there.
protocol LayoutUnit: Equatable {
    /// The ASCII value, as `Character.asciiValue` gives it ("\r\n" counts as "\n").
    var asciiValue: UInt8? { get }
    var isNewline: Bool { get }
    var isWhitespace: Bool { get }
    /// The unit for an ASCII character.
    init(ascii: UInt8)
    /// The UTF-8 bytes of a run of units.
    static func bytes(_ units: [Self]) -> [UInt8]
    static func string(_ units: [Self]) -> String
}

extension Character: LayoutUnit {
    init(ascii: UInt8) { self.init(Unicode.Scalar(ascii)) }
    static func bytes(_ units: [Character]) -> [UInt8] { Array(String(units).utf8) }
    static func string(_ units: [Character]) -> String { String(units) }
}

/// A Unicode scalar standing for the Character it is (in text where every Character is one
/// scalar), answering as `Character` answers for it.
struct ScalarUnit: LayoutUnit {
    let scalar: Unicode.Scalar

    init(_ scalar: Unicode.Scalar) { self.scalar = scalar }
    init(ascii: UInt8) { scalar = Unicode.Scalar(ascii) }

    var asciiValue: UInt8? { scalar.isASCII ? UInt8(scalar.value) : nil }
    /// `Character.isNewline`: "\n", vertical tab, form feed, "\r", U+0085, U+2028, U+2029.
    var isNewline: Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
    /// `Character.isWhitespace`: the scalar's White_Space property.
    var isWhitespace: Bool {
        scalar.isASCII ? (scalar.value >= 0x09 && scalar.value <= 0x0D) || scalar.value == 0x20 : scalar.properties.isWhitespace
    }

    static func bytes(_ units: [ScalarUnit]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        for u in units {
            if u.scalar.isASCII { out.append(UInt8(u.scalar.value)) } else { out.append(contentsOf: String(u.scalar).utf8) }
        }
        return out
    }

    static func string(_ units: [ScalarUnit]) -> String { String(decoding: bytes(units), as: UTF8.self) }
}

/// The character sets `LayoutParser` reads by.
private enum LayoutSets {
    static let untilSet = ASCIISet("\n{")  // "\r\n" too: it is one Character whose ASCII value is "\n"
    static let blank = ASCIISet(" \t")
    static let nameChars = ASCIISet("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    static let partialNameChars = ASCIISet("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*/")
}

/// swift-mustache's parser, for the tags EgoFix templates use (see `CompiledTemplate`).
private struct LayoutParser<Unit: LayoutUnit> {
    let chars: [Unit]
    let label: String
    var pos = 0
    /// Line of each position: 1 + the newlines before it (as `TemplateSyntax` counts them).
    let lineAt: [Int]

    init(chars: [Unit], label: String) {
        self.chars = chars
        self.label = label
        var lines = [Int](repeating: 1, count: chars.count + 1)
        var line = 1
        for (i, c) in chars.enumerated() {
            lines[i] = line
            if c.isNewline { line += 1 }
        }
        lines[chars.count] = line
        lineAt = lines
    }

    var reachedEnd: Bool { pos >= chars.count }
    /// The current character's ASCII value, 0 at the end (as swift-mustache's `current()` gives
    /// "\0"); nil for a character outside ASCII.
    var current: UInt8? { pos < chars.count ? chars[pos].asciiValue : 0 }
    var currentIsNewline: Bool { pos < chars.count && chars[pos].isNewline }

    func error(_ message: String) -> TemplateError {
        .syntax(template: label, line: lineAt[min(pos, chars.count)], message: "cannot lay it out (\(message))")
    }

    mutating func read(whileIn set: ASCIISet) -> [Unit] {
        let start = pos
        while pos < chars.count, set.contains(chars[pos]) { pos += 1 }
        return Array(chars[start..<pos])
    }

    mutating func skipWhitespace() {
        while pos < chars.count, chars[pos].isWhitespace { pos += 1 }
    }

    /// `read(string:)`: consumes `s` (ASCII) when it comes next; throws when fewer characters remain.
    mutating func read(_ s: StaticString) throws -> Bool {
        let n = s.utf8CodeUnitCount
        guard chars.count - pos >= n else { throw error("unexpected end") }
        let p = s.utf8Start
        for k in 0..<n where chars[pos + k] != Unit(ascii: p[k]) { return false }
        pos += n
        return true
    }


    /// Text up to the next "{{" (consumed) or line end (not consumed).
    mutating func readUntilDelimiterOrNewline() throws -> [Unit] {
        let until = LayoutSets.untilSet
        var total: [Unit] = []
        while !reachedEnd {
            let start = pos
            while pos < chars.count, !until.contains(chars[pos]) { pos += 1 }
            total.append(contentsOf: chars[start..<pos])
            if currentIsNewline {
                break
            } else if current == UInt8(ascii: "{") {
                if try read("{{") { break }
                total.append(Unit(ascii: UInt8(ascii: "{")))
                pos += 1
            }
        }
        return total
    }

    mutating func parseName(_ set: ASCIISet = LayoutSets.nameChars) throws -> String {
        skipWhitespace()
        let text = Unit.string(read(whileIn: set))
        skipWhitespace()
        guard try read("}}") else { throw error("unfinished name") }
        return text
    }

    mutating func skipComment() throws {
        let close = Unit(ascii: UInt8(ascii: "}"))
        while pos + 1 < chars.count {
            if chars[pos] == close && chars[pos + 1] == close {
                pos += 2
                return
            }
            pos += 1
        }
        throw error("unclosed comment")
    }

    /// `hasLineFinished`: only blanks up to a line end (consumed) or the end of the text.
    mutating func hasLineFinished() -> Bool {
        if reachedEnd { return true }
        var p = pos
        let blank = LayoutSets.blank
        while p < chars.count, blank.contains(chars[p]) { p += 1 }
        if p < chars.count, chars[p].isNewline {
            pos = p + 1
            return true
        }
        return false
    }

    mutating func isStandalone(_ newLine: Bool) -> Bool { newLine && hasLineFinished() }

    static func path(_ name: String) -> [String] {
        name == "." ? [] : name.split(separator: ".").map(String.init)
    }

    mutating func parse(section: String?, newLine startNewLine: Bool) throws -> [CompiledTemplate.Token] {
        var tokens: [CompiledTemplate.Token] = []
        var newLine = startNewLine
        var whiteSpaceBefore: [Unit] = []
        func text(_ c: [Unit]) { tokens.append(.text(Unit.bytes(c))) }
        while !reachedEnd {
            if newLine { whiteSpaceBefore = read(whileIn: LayoutSets.blank) }
            let body = try readUntilDelimiterOrNewline()
            if currentIsNewline {
                text(whiteSpaceBefore + body + [chars[pos]])
                newLine = true
                pos += 1
                continue
            }
            if !body.isEmpty {
                text(whiteSpaceBefore + body)
                whiteSpaceBefore = []
                newLine = false
            }
            if reachedEnd { break }
            let line = lineAt[max(0, pos - 2)]
            var setNewLine = false
            switch current {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let inverted = current == UInt8(ascii: "^")
                pos += 1
                let name = try parseName()
                if isStandalone(newLine) {
                    setNewLine = true
                } else if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                let inner = try parse(section: name, newLine: setNewLine ? newLine : false)
                tokens.append(.section(.init(name: name, path: Self.path(name), line: line, inverted: inverted, body: inner)))
            case UInt8(ascii: "/"):
                pos += 1
                let name = try parseName()
                guard name == section else { throw error("section close name incorrect") }
                if isStandalone(newLine) {
                    // the line goes with the tag
                } else if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                return tokens
            case UInt8(ascii: "!"):
                pos += 1
                try skipComment()
                setNewLine = isStandalone(newLine)
            case UInt8(ascii: "{"):
                if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                pos += 1
                let name = try parseName()
                guard try read("}") else { throw error("unfinished name") }
                tokens.append(.raw(.init(name: name, path: Self.path(name), line: line)))
            case UInt8(ascii: "&"):
                if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                pos += 1
                let name = try parseName()
                tokens.append(.raw(.init(name: name, path: Self.path(name), line: line)))
            case UInt8(ascii: ">"):
                pos += 1
                skipWhitespace()
                let name = try parseName(LayoutSets.partialNameChars)
                if !whiteSpaceBefore.isEmpty { text(whiteSpaceBefore) }
                if isStandalone(newLine) {
                    setNewLine = true
                    tokens.append(.partial(.init(name: name, line: line, indentation: Unit.bytes(whiteSpaceBefore))))
                } else {
                    tokens.append(.partial(.init(name: name, line: line)))
                }
                whiteSpaceBefore = []
            case UInt8(ascii: "="), UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: "$"):
                throw error("unsupported tag")
            default:
                if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                let name = try parseName()
                tokens.append(.variable(.init(name: name, path: Self.path(name), line: line)))
            }
            newLine = setNewLine
        }
        guard section == nil else { throw error("expected section end") }
        return tokens
    }
}

// MARK: - Rendering

/// Renders compiled templates with `PageValue` contexts into UTF-8 bytes.
struct TemplateRenderer: Sendable {
    let templates: [String: CompiledTemplate]

    func render(_ name: String, _ context: PageValue) throws -> Data {
        guard let template = templates[name] else { throw TemplateError.missingTemplate(name: name) }
        var out = ByteText(capacity: 16 * 1024)
        var stack: [PageValue] = [context]
        try render(template.tokens, template, &stack, depth: 0, indentation: nil, into: &out)
        return out.data()
    }

    private func render(_ tokens: [CompiledTemplate.Token], _ template: CompiledTemplate, _ stack: inout [PageValue],
                        depth: Int, indentation: [UInt8]?, into out: inout ByteText) throws {
        guard let indentation, !indentation.isEmpty else {
            for token in tokens { try render(token, template, &stack, depth: depth, indentation: indentation, into: &out) }
            return
        }
        // Inside an indented standalone partial: every token's output that starts a line is indented.
        let start = out.length
        for token in tokens {
            let before = out.length
            let n = before - start
            let atLineStart = n > 0 && out[before - 1] == 0x0a && !(n > 1 && out[before - 2] == 0x0d)
            try render(token, template, &stack, depth: depth, indentation: indentation, into: &out)
            if atLineStart && out.length > before { out.insert(indentation, at: before) }
        }
    }

    private func render(_ token: CompiledTemplate.Token, _ template: CompiledTemplate, _ stack: inout [PageValue],
                        depth: Int, indentation: [UInt8]?, into out: inout ByteText) throws {
        switch token {
        case .text(let bytes):
            bytes.withUnsafeBufferPointer { out.append($0) }
        case .variable(let tag):
            let (name, line) = (tag.name, tag.line)
            let value = try lookup(tag, stack, template)
            switch value {
            case .text(let s): out.appendHTMLEscaped(s)
            case .null: break
            case .html:
                throw TemplateError.wrongKind(template: template.origin, line: line, key: name, found: value.kindDescription,
                                              hint: "print it raw with {{{\(name)}}}.")
            default:
                throw TemplateError.wrongKind(template: template.origin, line: line, key: name, found: value.kindDescription,
                                              hint: "only text can be printed; use a section {{#\(name)}}...{{/\(name)}}.")
            }
        case .raw(let tag):
            let (name, line) = (tag.name, tag.line)
            let value = try lookup(tag, stack, template)
            switch value {
            case .html(let h): out.append(string: h.html)
            case .null: break
            case .text:
                throw TemplateError.wrongKind(template: template.origin, line: line, key: name, found: value.kindDescription,
                                              hint: "raw output is only for rendered Markdown and SVG; use {{\(name)}}.")
            default:
                throw TemplateError.wrongKind(template: template.origin, line: line, key: name, found: value.kindDescription,
                                              hint: "only Markdown or SVG can be printed raw.")
            }
        case .section(let tag):
            let value = try lookup(tag, stack, template)
            func run(pushing pushed: PageValue?) throws {
                if let pushed { stack.append(pushed) }
                defer { if pushed != nil { stack.removeLast() } }
                try render(tag.body, template, &stack, depth: depth, indentation: indentation, into: &out)
            }
            if tag.inverted {
                switch value {
                case .list(let items) where items.isEmpty: try run(pushing: value)
                case .bool(false), .null: try run(pushing: nil)
                case .text(let s) where s.isEmpty: try run(pushing: nil)
                case .html(let h) where h.html.isEmpty: try run(pushing: nil)
                default: break
                }
            } else {
                switch value {
                case .list(let items):
                    for item in items { try run(pushing: item) }
                case .bool(let b):
                    if b { try run(pushing: nil) }
                case .null:
                    break
                case .text(let s):
                    if !s.isEmpty { try run(pushing: value) }
                case .html(let h):
                    if !h.html.isEmpty { try run(pushing: value) }
                case .object:
                    try run(pushing: value)
                }
            }
        case .partial(let tag):
            guard let partial = templates[tag.name] else {
                throw TemplateError.missingPartial(template: template.origin, line: tag.line, partial: tag.name)
            }
            guard depth < TemplateSet.maxPartialDepth else {
                throw TemplateError.partialTooDeep(template: template.origin, line: tag.line, partial: tag.name)
            }
            let inner = tag.indentation.map { (indentation ?? []) + $0 } ?? indentation
            try render(partial.tokens, partial, &stack, depth: depth + 1, indentation: inner, into: &out)
        }
    }

    /// Mustache name resolution: "." is the current item; the first segment is looked up from the
    /// innermost context outwards, later segments only in the value found.
    private func lookup(_ tag: CompiledTemplate.Tag, _ stack: [PageValue], _ template: CompiledTemplate) throws -> PageValue {
        let (name, path, line) = (tag.name, tag.path, tag.line)
        guard let first = path.first else {
            guard let top = stack.last else {
                throw TemplateError.missingKey(template: template.origin, line: line, key: name)
            }
            return top
        }
        let found = stack.withUnsafeBufferPointer { buf -> PageValue? in
            var i = buf.count - 1
            while i >= 0 {
                if let child = buf[i].field(first) { return child }
                i -= 1
            }
            return nil
        }
        guard var current = found else {
            throw TemplateError.missingKey(template: template.origin, line: line, key: name)
        }
        for segment in path.dropFirst() {
            guard let child = current.field(segment) else {
                throw TemplateError.missingKey(template: template.origin, line: line, key: name)
            }
            current = child
        }
        return current
    }
}
