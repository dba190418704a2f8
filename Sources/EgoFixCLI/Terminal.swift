import EgoFixCore
import Foundation

/// Terminal styling: muted 24-bit colours on a terminal, plain text when NO_COLOR is set or
/// output is not a terminal.
struct Style: Sendable {
    let color: Bool

    static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
        if let v = environment["NO_COLOR"], !v.isEmpty { return Style(color: false) }
        if environment["TERM"] == "dumb" { return Style(color: false) }
        return Style(color: isatty(STDOUT_FILENO) == 1)
    }

    // The palette: a dark IDE's muted syntax colours.
    static let comment = "#7f848e"
    static let applied = "#98c379"
    static let skipped = "#e5c07b"
    static let crash = "#e06c75"
    static let failed = "#d19a66"
    static let heading = "#abb2bf"

    func paint(_ text: String, _ hex: String) -> String {
        guard color, let (r, g, b) = Style.rgb(hex) else { return text }
        return "\u{1B}[38;2;\(r);\(g);\(b)m" + text + "\u{1B}[0m"
    }

    func bold(_ text: String) -> String { color ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
    func dim(_ text: String) -> String { paint(text, Style.comment) }

    static func rgb(_ hex: String) -> (Int, Int, Int)? {
        guard hex.count == 7, hex.hasPrefix("#"), let v = Int(hex.dropFirst(), radix: 16) else { return nil }
        return ((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff)
    }

    func outcomeColor(_ o: FixOutcome) -> String {
        switch o {
        case .applied: return Style.applied
        case .skipped: return Style.skipped
        case .failed: return Style.failed
        case .pending: return Style.comment
        }
    }
}

enum Text {
    /// The width text is wrapped to: 64 columns, or a narrower terminal's own (a phone's SSH
    /// client at 40 columns wrapped every 64-column line once more, mid-word), 20 at least.
    static let width = min(64, columns ?? 64)

    /// A terminal's columns (20 at least); nil when standard output is not a terminal.
    static let columns: Int? = {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return max(20, Int(size.ws_col))
    }()

    /// Word-wraps a paragraph to `width` columns, keeping existing line breaks.
    static func wrap(_ text: String, width: Int = Text.width, indent: String = "") -> [String] {
        var out: [String] = []
        for para in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in para.split(separator: " ", omittingEmptySubsequences: true) {
                if line.isEmpty {
                    line = indent + word
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    out.append(line)
                    line = indent + word
                }
            }
            out.append(line)
        }
        return out
    }

    /// The widest line a command prints (cards keep to `width`): 80 columns, or a narrower
    /// terminal's own.
    static let lineWidth = min(80, columns ?? 80)

    /// `line` as printed within `lineWidth` columns: a longer one is wrapped at its spaces, each
    /// piece keeping the line's indentation and its "// " (and its style, when one style covers
    /// the whole line). A line in several styles, or one with no space to break at, is left as
    /// it is.
    static func fitted(_ line: String, width: Int = Text.lineWidth) -> [String] {
        guard line.count > width else { return [line] }
        var inner = Substring(line), open = "", close = ""
        if line.hasPrefix("\u{1B}["), let m = line.firstIndex(of: "m"), line.hasSuffix("\u{1B}[0m") {
            open = String(line[...m])
            close = "\u{1B}[0m"
            inner = line[line.index(after: m)..<line.index(line.endIndex, offsetBy: -close.count)]
        }
        guard !inner.contains("\u{1B}"), inner.count > width else { return [line] }
        let spaces = inner.prefix { $0 == " " }
        let prefix = String(spaces) + (inner.dropFirst(spaces.count).hasPrefix("// ") ? "// " : "")
        let body = inner.dropFirst(prefix.count)
        // A comment after the text ("ALERT crash timing // based on ...") goes on a line of its own.
        if !prefix.hasSuffix("// "), let comment = body.range(of: " // ") {
            let head = body[..<comment.lowerBound].reversed().drop { $0 == " " }.reversed()
            return (fitted(String(spaces) + String(head), width: width)
                    + fitted(String(spaces) + "// " + body[comment.upperBound...], width: width)).map { open + $0 + close }
        }
        guard body.contains(" ") else { return [line] }
        // "p = 0.001" and the like stay on one line.
        let joined = body.replacingOccurrences(of: " = ", with: "\u{0}=\u{0}")
        return wrap(joined, width: width - prefix.count).map { open + prefix + $0.replacingOccurrences(of: "\u{0}", with: " ") + close }
    }

    /// `lines` as printed on a terminal narrower than 80 columns: each line of prose longer
    /// than the terminal `fitted` to it. A table's row (two spaces running after its indent) is
    /// left as it is; so is everything printed elsewhere than a terminal.
    static func fittedToTerminal(_ lines: [String]) -> [String] {
        guard lineWidth < 80 else { return lines }
        return lines.flatMap { line -> [String] in
            guard line.count > lineWidth, !line.drop(while: { $0 == " " }).contains("  ") else { return [line] }
            return fitted(line)
        }
    }

    /// A heading (`width` columns as shown) with its comment after it ("ALERT  crash timing  //
    /// based on ..."), or the comment on lines of its own below when the two do not fit.
    static func headed(_ head: String, width: Int, comment: String, style: Style) -> [String] {
        if width + 2 + comment.count <= lineWidth { return [head + style.dim("  " + comment)] }
        return [head] + fitted(comment).map { style.dim($0) }
    }

    /// An inline comment, each of its lines `fitted` to a card's width with "// " on every line.
    static func wrapComment(_ comment: String, width: Int = Text.width) -> [String] {
        comment.split(separator: "\n").flatMap { line in fitted(line.hasPrefix("// ") ? String(line) : "// " + line, width: width) }
    }

    static func plural(_ n: Int, _ one: String, _ many: String? = nil) -> String {
        "\(n) " + (n == 1 ? one : (many ?? one + "s"))
    }
}

/// The fix card, as the spec draws it.
enum FixCard {
    static func lines(fix: Fix, bug: Bug?, style: Style, heading: String? = nil, showCommands: Bool = true) -> [String] {
        var out: [String] = []
        if let heading { out.append(style.dim(heading)); out.append("") }
        var title = style.bold(fix.label)
        if let bug { title += "  " + style.paint(bug.title.lowercased(), bug.color) }
        out.append(title)
        var meta = "Severity: " + fix.severity.rawValue.capitalized
        if fix.type == .quickFix { meta += "   quick fix" }
        if fix.type == .weekly { meta += "   system overhaul" }
        out.append(meta)
        out.append("")
        out += Text.wrap(fix.prompt)
        if let c = fix.inlineComment {
            out.append("")
            out += Text.wrapComment(c).map { style.dim($0) }
        }
        let details = interactionLines(fix: fix)
        if !details.isEmpty {
            out.append("")
            out += details
        }
        if let v = fix.validation {
            out.append("")
            out += Text.wrap(v).map { style.dim($0) }
        }
        if showCommands {
            out.append("")
            let buttons = ["[ egofix applied ]", "[ egofix skipped ]", "[ egofix failed ]"]
            let row = buttons.joined(separator: "   ")
            // One under another on a terminal too narrow for the row.
            out += row.count <= Text.lineWidth ? [row] : buttons
        }
        return out
    }

    /// A kind of fix as the messages name it: "a multi-step fix", "a timed fix".
    static func kind(_ t: InteractionType) -> String {
        switch t {
        case .standard: return "a standard"
        case .timed: return "a timed"
        case .multiStep: return "a multi-step"
        case .quiz: return "a quiz"
        case .scenario: return "a scenario"
        case .counter: return "a counter"
        }
    }

    static func interactionLines(fix: Fix) -> [String] {
        guard let config = try? fix.configuration() else { return [] }
        switch config {
        case .standard:
            return []
        case .timed(let t):
            var out = ["timer: " + duration(t.durationSeconds)]
            if let p = t.prompt { out += Text.wrap(p, indent: "  ") }
            out.append("  (`egofix timer` runs it; --timer-done if you timed it yourself)")
            return out
        case .multiStep(let m):
            var out: [String] = []
            for (i, s) in m.steps.enumerated() {
                let lines = Text.wrap(s.instruction, width: Text.width - 4)
                out.append("\(i + 1). " + (lines.first ?? ""))
                out += lines.dropFirst().map { "   " + $0 }
            }
            out.append("  (--steps N: how many you did)")
            return out
        case .quiz(let q):
            var out = Text.wrap(q.question)
            for o in q.options { out += Text.wrap("\(o.id)) " + o.text, indent: "  ").enumerated().map { $0.offset == 0 ? $0.element : "   " + $0.element } }
            out.append("  (--option ID: your honest answer)")
            return out
        case .scenario(let s):
            var out = Text.wrap(s.situation)
            for o in s.options { out += Text.wrap("\(o.id)) " + o.text, indent: "  ").enumerated().map { $0.offset == 0 ? $0.element : "   " + $0.element } }
            out.append("  (--option ID: what you would actually do)")
            return out
        case .counter(let c):
            // The unit in brackets only when the description does not name it ("times you say
            // \"yes, but\" (times)" said it twice).
            let unit = c.describesItsUnit ? "" : c.unit.map { " (\($0))" } ?? ""
            return ["count: " + c.targetDescription + unit, "  (--count N at the end of the day)"]
        }
    }

    static func duration(_ seconds: Int) -> String {
        if seconds >= 3600 && seconds % 3600 == 0 { return Text.plural(seconds / 3600, "hour") }
        if seconds >= 60 && seconds % 60 == 0 { return Text.plural(seconds / 60, "minute") }
        return Text.plural(seconds, "second")
    }
}

/// Canonical JSON for --json output: sorted keys, ISO 8601 instants.
enum JSONOut {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, enc in
            var c = enc.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        e.dataEncodingStrategy = .custom { data, enc in
            var c = enc.singleValueContainer()
            if let v = try? JSONDecoder().decode(JSONValue.self, from: data) { try c.encode(v) } else { try c.encode(data.base64EncodedString()) }
        }
        return String(decoding: try e.encode(value), as: UTF8.self)
    }
}

enum ISO8601 {
    static func format(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: d)
    }

    /// An instant with its offset or Z, fractional seconds optional, read strictly
    /// (`InstantText.parse`: no impossible day, nothing after the offset).
    static func parse(_ s: String) -> Date? {
        InstantText.parse(s)
    }
}

/// Text on its way to a terminal: a stored string (a version, a title, a note) may hold control
/// characters, and written raw they would drive the terminal (set its title, clear the screen).
package enum Terminal {
    /// `text` with every control character but newline and tab shown as `\u{..}` instead. With
    /// `keepingStyle`, the colour sequences egofix itself writes (ESC [ digits and ';' m) are kept.
    package static func neutralised(_ text: String, keepingStyle: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if keepingStyle, c == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
                var j = i + 2
                while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
                if j < scalars.count, scalars[j] == "m" {
                    out.append(contentsOf: scalars[i...j])
                    i = j + 1
                    continue
                }
            }
            if isControl(c) && c != "\n" && c != "\t" {
                out.append(contentsOf: visible(String(c)).unicodeScalars)
            } else {
                out.append(c)
            }
            i += 1
        }
        return String(out)
    }

    /// `text` on one line with every control character (newlines too) shown as `\u{..}`: for a
    /// value quoted in an error message.
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            if isControl(c) { out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// C0 and C1 control characters and DEL.
    static func isControl(_ c: Unicode.Scalar) -> Bool {
        c.value < 0x20 || (0x7F...0x9F).contains(c.value)
    }
}
