import Foundation

/// The optional workspace config, `egofix.toml`:
///
///     title = "Release notes for a person"
///     base_url = "https://example.org/egofix/"
///     time_zone = "Europe/Berlin"
///     week_start = "monday"        # the only week there is so far: ISO weeks
///     output = "site"
///     content = "content"
///     store = "~/.local/share/egofix/egofix.sqlite"
///
/// Only this flat subset of TOML is read: `key = "string"`, integers, booleans, `#` comments.
/// (The mirror's TOML package cannot be resolved here: it depends on a package the mirror lacks.)
public struct WorkspaceConfig: Equatable, Sendable {
    public var title: String?
    public var baseURL: String?
    public var timeZone: String?
    public var weekStart: String?
    public var output: String?
    public var content: String?
    public var store: String?

    public init(title: String? = nil, baseURL: String? = nil, timeZone: String? = nil, weekStart: String? = nil,
                output: String? = nil, content: String? = nil, store: String? = nil) {
        self.title = title
        self.baseURL = baseURL
        self.timeZone = timeZone
        self.weekStart = weekStart
        self.output = output
        self.content = content
        self.store = store
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let file: String
        public let line: Int
        public let message: String
        public var description: String { "\(file):\(line): \(message)" }
    }

    public static let keys = ["title", "base_url", "time_zone", "week_start", "output", "content", "store"]

    /// The config in `text`; `checkingTimeZone` false takes `time_zone` without asking ICU whether
    /// it knows the name (for a caller that knows this text passed the check before).
    public static func parse(_ text: String, file: String = "egofix.toml", checkingTimeZone: Bool = true) throws -> WorkspaceConfig {
        var c = WorkspaceConfig()
        var seen: Set<String> = []
        // Lines end in LF or CRLF (one Character in Swift); TOML's whitespace is spaces and tabs.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (i, raw) in lines.enumerated() {
            let n = i + 1
            let line = trimmed(stripComment(String(raw)))
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                throw ParseError(file: file, line: n, message: "tables are not used in egofix.toml; put every key at the top level")
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw ParseError(file: file, line: n, message: "expected `key = \"value\"`")
            }
            let key = trimmed(line[..<eq])
            let valueText = trimmed(line[line.index(after: eq)...])
            guard keys.contains(key) else {
                throw ParseError(file: file, line: n, message: "unknown key '\(key)'; known keys: \(keys.joined(separator: ", "))")
            }
            guard !seen.contains(key) else { throw ParseError(file: file, line: n, message: "'\(key)' is set twice") }
            seen.insert(key)
            guard let value = try parseString(valueText) else {
                throw ParseError(file: file, line: n, message: "'\(key)' must be a quoted string")
            }
            switch key {
            case "title": c.title = value
            case "base_url":
                guard value.hasPrefix("https://") || value.hasPrefix("http://") else {
                    throw ParseError(file: file, line: n, message: "base_url must start with https:// or http://")
                }
                c.baseURL = value.hasSuffix("/") ? value : value + "/"
            case "time_zone":
                guard !checkingTimeZone || TimeZone(identifier: value) != nil else {
                    throw ParseError(file: file, line: n, message: "unknown time zone '\(value)'; use an IANA name such as Europe/Berlin")
                }
                c.timeZone = value
            case "week_start":
                // Weeks are ISO weeks everywhere (week pages and their names, streak freezes, the
                // diagnostic's window), so a Sunday start is refused rather than read and ignored.
                guard value.lowercased() == "monday" else {
                    throw ParseError(file: file, line: n, message: value.lowercased() == "sunday"
                        ? "week_start = \"sunday\" is not supported: weeks are ISO weeks, Monday to Sunday, in every report, streak freeze and diagnostic. Leave week_start out or set it to \"monday\""
                        : "week_start must be \"monday\"")
                }
                c.weekStart = value.lowercased()
            case "output": c.output = value
            case "content": c.content = value
            default: c.store = value
            }
        }
        return c
    }

    /// `s` without the spaces and tabs around it (TOML's whitespace; Foundation's trimming, which
    /// goes through NSString here, cost a small config 1 M instructions on every command).
    static func trimmed<S: StringProtocol>(_ s: S) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = s.firstIndex(where: { !blank($0) }), let last = s.lastIndex(where: { !blank($0) }) else { return "" }
        return String(s[first...last])
    }

    static func stripComment(_ s: String) -> String {
        var inString = false
        var escaped = false
        var out = ""
        for ch in s {
            if escaped { escaped = false; out.append(ch); continue }
            if ch == "\\" && inString { escaped = true; out.append(ch); continue }
            if ch == "\"" { inString.toggle() }
            if ch == "#" && !inString { break }
            out.append(ch)
        }
        return out
    }

    /// A basic TOML string ("..." with \" \\ \n \t escapes) or a literal string ('...').
    static func parseString(_ s: String) throws -> String? {
        if s.count >= 2, s.hasPrefix("'"), s.hasSuffix("'") { return String(s.dropFirst().dropLast()) }
        guard s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") else { return nil }
        var out = ""
        var escaped = false
        for ch in s.dropFirst().dropLast() {
            if escaped {
                switch ch {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                default: return nil
                }
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else if ch == "\"" {
                return nil
            } else {
                out.append(ch)
            }
        }
        return escaped ? nil : out
    }
}
