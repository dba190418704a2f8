import Foundation

/// The character sets `TemplateParser` reads by.
private enum LayoutSets {
    static let untilSet = ASCIISet("\n{")  // "\r\n" too: it is one Character whose ASCII value is "\n"
    static let blank = ASCIISet(" \t")
}

/// The one reader of EgoFix templates: swift-mustache's parser (its layout rules, see
/// `CompiledTemplate`) for the tags EgoFix templates use, strict about everything else. A tag
/// outside that subset (set delimiters, pragmas, inheritance, dynamic partials, transforms), a
/// name that is not a key, a section closed wrongly or never, and nesting deeper than
/// `TemplateSyntax.maxSectionDepth` are errors naming the file and the tag's line.
struct TemplateParser<Unit: LayoutUnit> {
    let chars: [Unit]
    let label: String
    var pos = 0
    /// Sections open around the current position.
    var depth = 0
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

    /// `read(string:)`: consumes `s` (ASCII) when it comes next; throws when fewer characters remain.
    mutating func read(_ s: StaticString) throws -> Bool {
        let n = s.utf8CodeUnitCount
        guard chars.count - pos >= n else { throw error("unexpected end") }
        let p = s.utf8Start
        for k in 0..<n where chars[pos + k] != Unit(ascii: p[k]) { return false }
        pos += n
        return true
    }


    /// Text up to the next "{{" (consumed) or line end (not consumed), and whether a "{{" ended it.
    mutating func readUntilDelimiterOrNewline() throws -> (text: [Unit], delimiter: Bool) {
        let until = LayoutSets.untilSet
        var total: [Unit] = []
        while !reachedEnd {
            let start = pos
            while pos < chars.count, !until.contains(chars[pos]) { pos += 1 }
            total.append(contentsOf: chars[start..<pos])
            if currentIsNewline {
                break
            } else if current == UInt8(ascii: "{") {
                if pos + 1 < chars.count, try read("{{") { return (total, true) }
                total.append(Unit(ascii: UInt8(ascii: "{")))
                pos += 1
            }
        }
        return (total, false)
    }

    /// An error about the tag that opens on `line`.
    func error(_ message: String, line: Int) -> TemplateError {
        .syntax(template: label, line: line, message: message)
    }

    /// A tag's content up to `end` (consumed), trimmed.
    mutating func readContent(end: StaticString, tagLine: Int) throws -> String {
        let n = end.utf8CodeUnitCount
        let e = end.utf8Start
        var i = pos
        while i + n <= chars.count {
            var k = 0
            while k < n && chars[i + k].asciiValue == e[k] { k += 1 }
            if k == n {
                let content = Unit.string(Array(chars[pos..<i]))
                pos = i + n
                return content.trimmingWhitespace()
            }
            i += 1
        }
        throw error("tag opened here is never closed with '\(end)'", line: tagLine)
    }

    /// A variable's or a section's name, up to `end`: a key (`TemplateSyntax.isValidName`).
    mutating func readName(end: StaticString, tagLine: Int) throws -> String {
        let name = try readContent(end: end, tagLine: tagLine)
        guard TemplateSyntax.isValidName(name) else {
            if name.isEmpty { throw error("empty tag '{{\(end)'", line: tagLine) }
            if name.contains("(") && !name.contains(where: \.isNewline) && name.count <= 60 {
                throw error("'\(name)': transforms are not supported in EgoFix templates; "
                            + "give the page model the value it needs", line: tagLine)
            }
            throw error("'\(TemplateSyntax.quoted(name))' is not a valid key: use letters, digits, '_' and '-', "
                        + "separated by '.'", line: tagLine)
        }
        return name
    }

    /// A partial's name (`TemplateSyntax.isValidPartialName`).
    mutating func readPartialName(tagLine: Int) throws -> String {
        let name = try readContent(end: "}}", tagLine: tagLine)
        if name.hasPrefix("*") {
            throw error("dynamic partials ('{{>*') are not supported in EgoFix templates", line: tagLine)
        }
        guard TemplateSyntax.isValidPartialName(name) else {
            throw error("'\(TemplateSyntax.quoted(name))' is not a valid partial name: use letters, digits, '_', '-' "
                        + "and '/' for folders", line: tagLine)
        }
        return name
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

    /// The tokens up to the close of `section` (the name and line of the tag that opened it), or
    /// to the end of the text.
    mutating func parse(section: (name: String, line: Int)?, newLine startNewLine: Bool) throws -> [CompiledTemplate.Token] {
        var tokens: [CompiledTemplate.Token] = []
        var newLine = startNewLine
        var whiteSpaceBefore: [Unit] = []
        func text(_ c: [Unit]) { tokens.append(.text(Unit.bytes(c))) }
        while !reachedEnd {
            if newLine { whiteSpaceBefore = read(whileIn: LayoutSets.blank) }
            let (body, delimiter) = try readUntilDelimiterOrNewline()
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
            let line = lineAt[max(0, pos - 2)]
            if reachedEnd {
                if delimiter { throw error("unclosed tag '{{' at the end of the file", line: line) }
                break
            }
            var setNewLine = false
            switch current {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let inverted = current == UInt8(ascii: "^")
                pos += 1
                let name = try readName(end: "}}", tagLine: line)
                guard depth < TemplateSyntax.maxSectionDepth else {
                    throw error("sections are nested more than \(TemplateSyntax.maxSectionDepth) deep here; "
                                + "flatten the template (move inner parts into the page model or a partial)", line: line)
                }
                if isStandalone(newLine) {
                    setNewLine = true
                } else if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                depth += 1
                let inner = try parse(section: (name, line), newLine: setNewLine ? newLine : false)
                depth -= 1
                tokens.append(.section(.init(name: name, path: Self.path(name), line: line, inverted: inverted, body: inner)))
            case UInt8(ascii: "/"):
                pos += 1
                let name = try readName(end: "}}", tagLine: line)
                guard let section else { throw error("'{{/\(name)}}' closes a section that was never opened", line: line) }
                guard name == section.name else {
                    throw error("'{{/\(name)}}' closes '{{#\(section.name)}}' opened on line \(section.line); "
                                + "close it with '{{/\(section.name)}}'", line: line)
                }
                if isStandalone(newLine) {
                    // the line goes with the tag
                } else if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                return tokens
            case UInt8(ascii: "!"):
                pos += 1
                _ = try readContent(end: "}}", tagLine: line)
                setNewLine = isStandalone(newLine)
            case UInt8(ascii: "{"):
                if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                pos += 1
                let name = try readName(end: "}}}", tagLine: line)
                tokens.append(.raw(.init(name: name, path: Self.path(name), line: line)))
            case UInt8(ascii: "&"):
                if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                pos += 1
                let name = try readName(end: "}}", tagLine: line)
                tokens.append(.raw(.init(name: name, path: Self.path(name), line: line)))
            case UInt8(ascii: ">"):
                pos += 1
                let name = try readPartialName(tagLine: line)
                if !whiteSpaceBefore.isEmpty { text(whiteSpaceBefore) }
                if isStandalone(newLine) {
                    setNewLine = true
                    tokens.append(.partial(.init(name: name, line: line, indentation: Unit.bytes(whiteSpaceBefore))))
                } else {
                    tokens.append(.partial(.init(name: name, line: line)))
                }
                whiteSpaceBefore = []
            case UInt8(ascii: "="):
                throw error("set-delimiter tags ('{{=') are not supported in EgoFix templates", line: line)
            case UInt8(ascii: "%"):
                throw error("pragmas ('{{%') are not supported in EgoFix templates", line: line)
            case UInt8(ascii: "<"), UInt8(ascii: "$"):
                throw error("template inheritance ('{{\(current == UInt8(ascii: "<") ? "<" : "$")') is not supported in EgoFix templates; "
                            + "use partials", line: line)
            default:
                if !whiteSpaceBefore.isEmpty {
                    text(whiteSpaceBefore)
                    whiteSpaceBefore = []
                }
                let name = try readName(end: "}}", tagLine: line)
                tokens.append(.variable(.init(name: name, path: Self.path(name), line: line)))
            }
            newLine = setNewLine
        }
        if let section {
            throw error("section '{{#\(section.name)}}' opened on line \(section.line) is never closed; add '{{/\(section.name)}}'",
                        line: section.line)
        }
        return tokens
    }
}
