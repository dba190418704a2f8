import EgoFixCore
import Foundation

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

    /// Word-wraps a paragraph to `width` columns, keeping existing line breaks. A command in
    /// backticks is not broken ("`egofix` / `diagnostic`" on two lines at 40 columns).
    static func wrap(_ text: String, width: Int = Text.width, indent: String = "") -> [String] {
        var out: [String] = []
        for para in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in unbroken(para.split(separator: " ", omittingEmptySubsequences: true)) {
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

    /// `words` with the words of each backticked span joined into one (a span left open runs to
    /// the end).
    private static func unbroken(_ words: [Substring]) -> [Substring] {
        var out: [Substring] = [], open = false
        for word in words {
            if open, let last = out.popLast() { out.append(Substring(last + " " + word)) } else { out.append(word) }
            if word.reduce(0, { $0 + ($1 == "`" ? 1 : 0) }) % 2 == 1 { open.toggle() }
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

    /// `parts` on one line, joined by `separator`, when it fits the terminal's line; else each
    /// on a line of its own, all but the first after `restIndent` (a narrow terminal).
    static func oneLineOrEach(_ parts: [String], separator: String, restIndent: String = "") -> [String] {
        let line = parts.joined(separator: separator)
        guard line.count > lineWidth, let first = parts.first else { return [line] }
        return [first] + parts.dropFirst().map { restIndent + $0 }
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
}

/// `s` padded with spaces to `n` characters (longer text as it is): the terminal's columns.
func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
