import Foundation

/// The character sets `TemplateParser` reads by.
private enum LayoutSets {
    static let untilSet = ASCIISet("\n{")  // "\r\n" too: it is one Character whose ASCII value is "\n"
    static let blank = ASCIISet(" \t")
    static let nameChars = ASCIISet("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*")
    static let partialNameChars = ASCIISet("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?()*/")
}

/// swift-mustache's parser, for the tags EgoFix templates use (see `CompiledTemplate`).
struct TemplateParser<Unit: LayoutUnit> {
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
