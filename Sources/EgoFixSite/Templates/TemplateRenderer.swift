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

/// A compiled template flattened for the walk that renders it: its operations, the bytes of its
/// text and the names it reads, in buffers of plain values. Nothing in them is reference counted,
/// so the walk retains nothing of the template.
final class TemplateProgram: @unchecked Sendable {
    enum Kind: UInt8 { case text, variable, raw, section, partial }

    struct Op {
        let kind: Kind
        let inverted: Bool
        /// Variable, raw, section, partial: its name in `names` and `nameText`.
        let name: Int
        /// Text: where its bytes start in `bytes`. Partial: the template's place in the renderer's
        /// programs, -1 when there is none.
        let a: Int
        /// Text: its byte count. Section: the operation after its body. Partial: where its
        /// indentation starts in `bytes`, -1 when it does not stand alone on its line.
        let b: Int
        /// Partial: the indentation's byte count.
        let c: Int
        let line: Int
    }

    /// One segment of a name, compared with field names as `FieldName` compares them.
    struct Segment {
        let words: (UInt64, UInt64)
        /// The segment as a String, in `segmentText`.
        let key: Int
    }

    /// A name: `count` segments from `first` (none for ".").
    struct Name {
        let first: Int
        let count: Int
    }

    let origin: String
    let ops: UnsafeMutableBufferPointer<Op>
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let segments: UnsafeMutableBufferPointer<Segment>
    let names: UnsafeMutableBufferPointer<Name>
    /// Each name as written (for errors), and each segment as a String (which also keeps alive
    /// the storage a long segment's words point to).
    let nameText: [String]
    let segmentText: [String]

    /// `place` gives a partial's place among the renderer's programs.
    init(_ template: CompiledTemplate, place: (String) -> Int?) {
        var ops: [Op] = [], bytes: [UInt8] = [], segments: [Segment] = [], names: [Name] = []
        var nameText: [String] = [], segmentText: [String] = []
        func name(_ tag: CompiledTemplate.Tag) -> Int {
            names.append(Name(first: segments.count, count: tag.path.count))
            for segment in tag.path {
                segments.append(Segment(words: FieldName.words(segment), key: segmentText.count))
                segmentText.append(segment)
            }
            nameText.append(tag.name)
            return names.count - 1
        }
        func flatten(_ tokens: [CompiledTemplate.Token]) {
            for token in tokens {
                switch token {
                case .text(let text):
                    ops.append(Op(kind: .text, inverted: false, name: -1, a: bytes.count, b: text.count, c: 0, line: 0))
                    bytes += text
                case .variable(let tag):
                    ops.append(Op(kind: .variable, inverted: false, name: name(tag), a: 0, b: 0, c: 0, line: tag.line))
                case .raw(let tag):
                    ops.append(Op(kind: .raw, inverted: false, name: name(tag), a: 0, b: 0, c: 0, line: tag.line))
                case .section(let tag):
                    let at = ops.count, n = name(tag)
                    ops.append(Op(kind: .section, inverted: tag.inverted, name: n, a: 0, b: 0, c: 0, line: tag.line))
                    flatten(tag.body)
                    ops[at] = Op(kind: .section, inverted: tag.inverted, name: n, a: 0, b: ops.count, c: 0, line: tag.line)
                case .partial(let tag):
                    var (start, count) = (-1, 0)
                    if let indentation = tag.indentation {
                        (start, count) = (bytes.count, indentation.count)
                        bytes += indentation
                    }
                    // A partial's name is only read by its errors: it has no segments.
                    names.append(Name(first: 0, count: 0))
                    nameText.append(tag.name)
                    ops.append(Op(kind: .partial, inverted: false, name: names.count - 1, a: place(tag.name) ?? -1,
                                  b: start, c: count, line: tag.line))
                }
            }
        }
        flatten(template.tokens)
        func buffer<T>(_ items: [T]) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, items.count))
            _ = b.initialize(from: items)
            return UnsafeMutableBufferPointer(rebasing: b[..<items.count])
        }
        origin = template.origin
        self.ops = buffer(ops)
        self.bytes = buffer(bytes)
        self.segments = buffer(segments)
        self.names = buffer(names)
        self.nameText = nameText
        self.segmentText = segmentText
    }

    deinit {
        // Plain values: nothing to deinitialize.
        ops.baseAddress?.deallocate()
        bytes.baseAddress?.deallocate()
        segments.baseAddress?.deallocate()
        names.baseAddress?.deallocate()
    }
}

/// Renders compiled templates with `TemplateValue` contexts into UTF-8 bytes.
///
/// The walk borrows the page's values rather than copying them: the context stack holds pointers
/// to values inside the page's tree, each taken within the `withUnsafeBufferPointer` of the list
/// or object holding it and used only while that call is running (a section's body is rendered
/// inside it), and the tree is not changed while it renders.
struct TemplateRenderer: Sendable {
    private let programs: [TemplateProgram]
    private let place: [String: Int]

    init(templates: [String: CompiledTemplate]) {
        let names = templates.keys.sorted()
        var place: [String: Int] = [:]
        for (i, name) in names.enumerated() { place[name] = i }
        self.place = place
        programs = names.compactMap { name in templates[name].map { TemplateProgram($0, place: { place[$0] }) } }
    }

    func render(_ name: String, _ context: TemplateValue) throws -> Data {
        guard let i = place[name] else { throw TemplateError.missingTemplate(name: name) }
        var out = ByteText(capacity: 16 * 1024)
        var stack = ContextStack()
        defer { stack.free() }
        try withUnsafePointer(to: context) { root in
            stack.push(root)
            try run(programs[i], 0, programs[i].ops.count, &stack, depth: 0, indentation: nil, into: &out)
        }
        return out.data()
    }

    /// The values sections have entered, innermost last (see `TemplateRenderer` for why the
    /// pointers stay valid).
    private struct ContextStack {
        private(set) var base: UnsafeMutablePointer<UnsafePointer<TemplateValue>>
        private(set) var count = 0
        private var capacity = 32

        init() { base = .allocate(capacity: capacity) }

        mutating func push(_ value: UnsafePointer<TemplateValue>) {
            if count == capacity {
                let larger = UnsafeMutablePointer<UnsafePointer<TemplateValue>>.allocate(capacity: capacity * 2)
                larger.initialize(from: base, count: count)
                base.deallocate()
                base = larger
                capacity *= 2
            }
            (base + count).initialize(to: value)
            count += 1
        }

        mutating func pop() { count -= 1 }

        func free() { base.deallocate() }
    }

    /// Operations `start..<end` of a program.
    private func run(_ p: TemplateProgram, _ start: Int, _ end: Int, _ stack: inout ContextStack, depth: Int,
                     indentation: [UInt8]?, into out: inout ByteText) throws {
        guard let indentation, !indentation.isEmpty else {
            var i = start
            while i < end { i = try step(p, i, &stack, depth: depth, indentation: nil, into: &out) }
            return
        }
        // Inside an indented standalone partial: every operation's output that starts a line is indented.
        let begin = out.length
        var i = start
        while i < end {
            let before = out.length
            let n = before - begin
            let atLineStart = n > 0 && out[before - 1] == 0x0a && !(n > 1 && out[before - 2] == 0x0d)
            i = try step(p, i, &stack, depth: depth, indentation: indentation, into: &out)
            if atLineStart && out.length > before { out.insert(indentation, at: before) }
        }
    }

    /// Renders operation `i` (a section with its body) and returns the operation after it.
    private func step(_ p: TemplateProgram, _ i: Int, _ stack: inout ContextStack, depth: Int, indentation: [UInt8]?,
                      into out: inout ByteText) throws -> Int {
        let op = p.ops[i]
        switch op.kind {
        case .text:
            out.append(UnsafeBufferPointer(rebasing: p.bytes[op.a..<op.a + op.b]))
            return i + 1
        case .variable:
            try withValue(p, op, stack.base, stack.count) { value in
                switch value.pointee {
                case .text(let s): out.appendHTMLEscaped(s)
                case .null: break
                case .html: throw wrongKind(p, op, value) { "print it raw with {{{\($0)}}}." }
                default: throw wrongKind(p, op, value) { "only text can be printed; use a section {{#\($0)}}...{{/\($0)}}." }
                }
            }
            return i + 1
        case .raw:
            try withValue(p, op, stack.base, stack.count) { value in
                switch value.pointee {
                case .html(let h): out.append(string: h.html)
                case .null: break
                case .text: throw wrongKind(p, op, value) { "raw output is only for rendered Markdown and SVG; use {{\($0)}}." }
                default: throw wrongKind(p, op, value) { _ in "only Markdown or SVG can be printed raw." }
                }
            }
            return i + 1
        case .section:
            let (bodyStart, bodyEnd) = (i + 1, op.b)
            try withValue(p, op, stack.base, stack.count) { value in
                func body(pushing pushed: UnsafePointer<TemplateValue>?) throws {
                    if let pushed { stack.push(pushed) }
                    defer { if pushed != nil { stack.pop() } }
                    try run(p, bodyStart, bodyEnd, &stack, depth: depth, indentation: indentation, into: &out)
                }
                if op.inverted {
                    switch value.pointee {
                    case .list(let items) where items.isEmpty: try body(pushing: value)
                    case .bool(false), .null: try body(pushing: nil)
                    case .text(let s) where s.isEmpty: try body(pushing: nil)
                    case .html(let h) where h.html.isEmpty: try body(pushing: nil)
                    default: break
                    }
                } else {
                    switch value.pointee {
                    case .list(let items):
                        try items.withUnsafeBufferPointer { buf in
                            guard let first = buf.baseAddress else { return }
                            for k in 0..<buf.count { try body(pushing: first + k) }
                        }
                    case .bool(let b):
                        if b { try body(pushing: nil) }
                    case .null:
                        break
                    case .text(let s):
                        if !s.isEmpty { try body(pushing: value) }
                    case .html(let h):
                        if !h.html.isEmpty { try body(pushing: value) }
                    case .object:
                        try body(pushing: value)
                    }
                }
            }
            return bodyEnd
        case .partial:
            guard op.a >= 0 else {
                throw TemplateError.missingPartial(template: p.origin, line: op.line, partial: p.nameText[op.name])
            }
            let partial = programs[op.a]
            guard depth < TemplateSet.maxPartialDepth else {
                throw TemplateError.partialTooDeep(template: p.origin, line: op.line, partial: p.nameText[op.name])
            }
            let inner = op.b < 0 ? indentation : (indentation ?? []) + Array(p.bytes[op.b..<op.b + op.c])
            try run(partial, 0, partial.ops.count, &stack, depth: depth + 1, indentation: inner, into: &out)
            return i + 1
        }
    }

    /// Mustache name resolution, handing `body` the value found: "." is the current item; the
    /// first segment is looked up from the innermost context outwards, later segments only in the
    /// value found.
    private func withValue(_ p: TemplateProgram, _ op: TemplateProgram.Op, _ stack: UnsafeMutablePointer<UnsafePointer<TemplateValue>>,
                           _ count: Int, _ body: (UnsafePointer<TemplateValue>) throws -> Void) throws {
        let name = p.names[op.name]
        guard name.count > 0 else {
            guard count > 0 else { throw missingKey(p, op) }
            return try body(stack[count - 1])
        }
        let first = name.first
        var i = count - 1
        while i >= 0 {
            if try field(p.segments[first], of: stack[i], p, { try rest($0, p, op, first + 1, first + name.count, body) }) { return }
            i -= 1
        }
        throw missingKey(p, op)
    }

    /// Segments `k..<end` of a name, read in `value`.
    private func rest(_ value: UnsafePointer<TemplateValue>, _ p: TemplateProgram, _ op: TemplateProgram.Op, _ k: Int, _ end: Int,
                      _ body: (UnsafePointer<TemplateValue>) throws -> Void) throws {
        guard k < end else { return try body(value) }
        guard try field(p.segments[k], of: value, p, { try rest($0, p, op, k + 1, end, body) }) else { throw missingKey(p, op) }
    }

    /// Hands `body` the first field of the object `value` points to named `segment`; false when
    /// it is not an object or has no such field.
    @inline(__always)
    private func field(_ segment: TemplateProgram.Segment, of value: UnsafePointer<TemplateValue>, _ p: TemplateProgram,
                       _ body: (UnsafePointer<TemplateValue>) throws -> Void) throws -> Bool {
        guard case .object(let o) = value.pointee else { return false }
        return try o.fields.withUnsafeBufferPointer { buf -> Bool in
            guard let base = buf.baseAddress else { return false }
            let raw = UnsafeRawPointer(base)
            for k in 0..<buf.count {
                let e = raw + k * TemplateRenderer.fieldStride
                let words = (e.load(as: UInt64.self), e.load(fromByteOffset: 8, as: UInt64.self))
                if FieldName.same(words, segment.words) ?? (e.assumingMemoryBound(to: String.self).pointee == p.segmentText[segment.key]) {
                    try body((e + TemplateRenderer.valueOffset).assumingMemoryBound(to: TemplateValue.self))
                    return true
                }
            }
            return false
        }
    }

    /// The distance between fields, and where a field's value is in it: a pair is laid out as a
    /// struct is, the value after the name at the value's alignment (a test holds this to
    /// `MemoryLayout.offset(of:)`, which is not a constant the compiler can fold).
    @inline(__always) static var fieldStride: Int { MemoryLayout<TemplateObject.Field>.stride }
    @inline(__always) static var valueOffset: Int {
        let align = MemoryLayout<TemplateValue>.alignment
        return (MemoryLayout<String>.size + align - 1) / align * align
    }

    private func missingKey(_ p: TemplateProgram, _ op: TemplateProgram.Op) -> TemplateError {
        .missingKey(template: p.origin, line: op.line, key: p.nameText[op.name])
    }

    /// A value of the wrong kind for its tag; `hint` is given the tag's name.
    private func wrongKind(_ p: TemplateProgram, _ op: TemplateProgram.Op, _ value: UnsafePointer<TemplateValue>,
                           hint: (String) -> String) -> TemplateError {
        let name = p.nameText[op.name]
        return .wrongKind(template: p.origin, line: op.line, key: name, found: value.pointee.kindDescription, hint: hint(name))
    }
}
