import Foundation
import EgoFixCore
import TOMLKit

/// The optional workspace config, `egofix.toml`:
///
///     title = "Release notes for a person"
///     base_url = "https://example.org/egofix/"
///     time_zone = "Europe/Berlin"
///     week_start = "monday"        # the only week there is so far: ISO weeks
///     output = "site"
///     content = "content"
///     store = "~/notes/egofix.sqlite"
///     remind_at = "09:00"          # the day's reminder (`egofix remind`, reminders.ics)
///
/// The file is read by a real TOML parser (TOMLKit, toml++ underneath), so every string form TOML
/// has works (basic and literal strings, multi-line strings, every escape, combining marks after
/// an escaped quote); egofix then takes only its own keys, all strings, at the top level.
public struct WorkspaceConfig: Equatable, Sendable {
    public var title: String?
    public var baseURL: String?
    public var timeZone: String?
    public var weekStart: String?
    public var output: String?
    public var content: String?
    public var store: String?
    /// `remind_at`: when the day's reminder comes (nil: `ReminderTime.standard`, 09:00).
    public var remindAt: ReminderTime?
    /// The egofix.toml these settings were read from (nil: none, the defaults).
    public var file: String?
    /// Problems with the settings only a build reads (title, base_url, output, content), in the
    /// file's order: a build stops on the first; every other command says it and goes on, so the
    /// day's fix can be marked while the site's settings are mended (an empty title stopped
    /// `today` and `applied`, where an earlier egofix had taken it).
    public var siteProblems: [ParseError] = []

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
        /// "file:line: message.", with the full stop every error line ends in.
        public var description: String { "\(file):\(line): \(message)" + (message.hasSuffix(".") ? "" : ".") }
        public init(file: String, line: Int, message: String) {
            (self.file, self.line, self.message) = (file, line, message)
        }
    }

    public static let keys = ["title", "base_url", "time_zone", "week_start", "output", "content", "store", "remind_at"]
    /// The settings only a build reads: a problem with one of them stops `build` and `serve`
    /// (`siteProblems`); every other command says it and goes on.
    public static let buildOnlyKeys = ["title", "base_url", "output", "content"]
    public static let maxValueLength = ConfigLimits.maxValueLength

    /// The longest egofix.toml read (a few short settings), and the longest value of each key:
    /// a 10 MB title would be copied into every page of every build.
    public static let maxFileBytes = 64 * 1024

    /// The config in `text`; `checkingTimeZone` false takes `time_zone` without asking ICU whether
    /// it knows the name (for a caller that knows this text passed the check before).
    public static func parse(_ text: String, file: String = "egofix.toml", checkingTimeZone: Bool = true) throws -> WorkspaceConfig {
        guard text.utf8.count <= maxFileBytes else {
            throw ParseError(file: file, line: 1, message: "the file is \(text.utf8.count) bytes, over the limit of \(maxFileBytes); egofix.toml holds a few short settings")
        }
        // Lines end in LF or CRLF (one Character in Swift); only used to name a key's line.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        // A NUL byte ended the whole file there: every setting after it was dropped.
        for (i, line) in lines.enumerated() where line.unicodeScalars.contains("\u{0}") {
            throw ParseError(file: file, line: i + 1, message: "a NUL byte, which would end the file there; remove it")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            let n = max(1, e.source.begin.line)
            let line = n <= lines.count ? trimmed(lines[n - 1]) : ""
            if line.hasPrefix("[") {
                throw ParseError(file: file, line: n, message: "tables are not used in egofix.toml; put every key at the top level")
            }
            if let key = key(ofLine: line) {
                if let first = lineNumber(of: key, in: lines), first < n {
                    throw ParseError(file: file, line: n, message: "'\(key)' is set twice")
                }
                if keys.contains(key) {
                    // A string with no closing quote on its line: the TOML reader spoke of control
                    // characters the person never typed (it read on into the line break).
                    let value = line.drop { $0 != "=" }.dropFirst().drop { $0 == " " || $0 == "\t" }
                    if let quote = value.first, quote == "\"" || quote == "'", !value.dropFirst().contains(quote) {
                        throw ParseError(file: file, line: n, message: "'\(key)' is a string that is not closed: add the closing \(quote) at the end of the line")
                    }
                    // The TOML reader's words, without its "Error while parsing string:" in front.
                    var detail = e.description
                    if let colon = detail.range(of: "Error while parsing string: ") { detail = String(detail[colon.upperBound...]) }
                    throw ParseError(file: file, line: n, message: "'\(key)' must be a quoted string on one line (\(detail))")
                }
            }
            throw ParseError(file: file, line: n, message: "not valid TOML: \(e.description)")
        } catch {
            throw ParseError(file: file, line: 1, message: "not valid TOML: \(error)")
        }
        // A NUL written as an escape ("\u0000") reaches egofix as the end of the text: the TOML
        // reader hands values over as C strings, so `title = "Ab\u0000x"` was the title "Ab",
        // without a word. The file is read once more with each such escape made U+0001, which
        // comes through: a value that holds one held a NUL. A comment or a literal string that
        // spells the escape out is text, as TOML reads it.
        var nulKeys: Set<String> = []
        let escapes = [("\\u0000", "\\u0001"), ("\\U00000000", "\\U00000001")]
        if escapes.contains(where: { text.contains($0.0) }) {
            var marked = text
            for (escape, mark) in escapes { marked = marked.replacingOccurrences(of: escape, with: mark) }
            if let again = try? TOMLTable(string: marked) {
                for key in again.keys where again[key]?.string?.unicodeScalars.contains("\u{1}") == true { nulKeys.insert(key) }
            }
        }
        var c = WorkspaceConfig()
        // In the file's order, so the first problem in it is the one named.
        let found = table.keys.map { (key: $0, line: lineNumber(of: $0, in: lines) ?? 1) }.sorted { ($0.line, $0.key) < ($1.line, $1.key) }
        for (key, n) in found {
            guard let node = table[key] else { continue }
            if node.type == .table {
                throw ParseError(file: file, line: n, message: "tables are not used in egofix.toml; put every key at the top level")
            }
            guard keys.contains(key) else {
                throw ParseError(file: file, line: n, message: "unknown key '\(Self.visible(key))'; known keys: \(keys.joined(separator: ", "))")
            }
            guard node.type == .string, let value = node.string else {
                let problem = ParseError(file: file, line: n, message: "'\(key)' must be a quoted string")
                // `title = 5` stops the build alone, as an empty title does.
                guard Self.buildOnlyKeys.contains(key) else { throw problem }
                c.siteProblems.append(problem)
                continue
            }
            var problem: ParseError?
            if nulKeys.contains(key) {
                problem = ParseError(file: file, line: n, message: "'\(key)' holds \\u0000, a NUL, which would end it there; remove it")
            } else if let bad = value.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                problem = ParseError(file: file, line: n, message: "'\(key)' holds the control character U+\(String(bad.value, radix: 16, uppercase: true)); remove it")
            } else if let cap = maxValueLength[key], value.unicodeScalars.count > cap {
                // Counted in code points, not characters: one letter with 30,000 combining marks
                // was one character, and 60 KB in every page's title.
                problem = ParseError(file: file, line: n, message: "'\(key)' is \(value.unicodeScalars.count) characters long, over the limit of \(cap); shorten it")
            }
            if let problem {
                // A setting only the build reads stops the build alone: the day's fix can still be marked.
                guard Self.buildOnlyKeys.contains(key) else { throw problem }
                c.siteProblems.append(problem)
                continue
            }
            switch key {
            case "title":
                // Every page's title and the header's name: an empty one left "Dashboard | ".
                guard !VisibleText.showsNothing(value) else {
                    c.siteProblems.append(ParseError(file: file, line: n, message: "'title' has nothing to show; give the site a name, or leave title out for \"EgoFix\""))
                    continue
                }
                c.title = value
            case "base_url":
                if let problem = ConfigLimits.baseURLProblem(value) {
                    c.siteProblems.append(ParseError(file: file, line: n, message: "base_url " + problem))
                    continue
                }
                c.baseURL = value.hasSuffix("/") ? value : value + "/"
            case "time_zone":
                // "UTC+3" is three hours ahead to Foundation and three behind to TZ and the C
                // library: the same text in egofix.toml and in TZ gave days six hours apart, and a
                // systemd timer that never ran ("GMT+0300" is no zone systemd reads).
                let upper = value.uppercased()
                if upper.count > 3, upper.hasPrefix("UTC") || upper.hasPrefix("GMT"),
                   let sign = upper.dropFirst(3).first, sign == "+" || sign == "-" {
                    throw ParseError(file: file, line: n, message: "time_zone '\(value)' is an offset, and offsets read two ways (TZ takes UTC+3 as three hours behind UTC); "
                                     + "use a zone's name: a place such as Europe/Berlin, or Etc/GMT-3 for three hours ahead of UTC all year")
                }
                if checkingTimeZone, let instead = ZoneAbbreviation.zoneInstead(of: value) {
                    throw ParseError(file: file, line: n, message: ZoneAbbreviation.problem("time_zone '\(value)'", instead: instead))
                }
                guard !checkingTimeZone || TimeZone(identifier: value) != nil else {
                    throw ParseError(file: file, line: n, message: "unknown time zone '\(value)'; use an IANA name such as Europe/Berlin")
                }
                c.timeZone = value
            case "week_start":
                // Weeks are ISO weeks everywhere (week pages and their names, streak freezes, the
                // diagnostic's window), so a Sunday start is refused rather than read and ignored.
                guard value.lowercased() == "monday" else {
                    throw ParseError(file: file, line: n, message: value.lowercased() == "sunday"
                        ? "week_start = \"sunday\" is not supported: report weeks are ISO weeks, Monday to Sunday, as the diagnostic's are (only the streak freeze's week starts on Sunday). Leave week_start out or set it to \"monday\""
                        : "week_start must be \"monday\"")
                }
                c.weekStart = value.lowercased()
            case "output", "content", "store":
                // An empty path is a mistake, not the default (an empty store meant the default
                // store, the person's own, even for `egofix demo`).
                guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                    let fallback = key == "store" ? "the default store, $XDG_DATA_HOME/egofix/egofix.sqlite" : "\"\(key == "output" ? "site" : "content")\""
                    let problem = ParseError(file: file, line: n, message: "'\(key)' is empty; give a path, or leave \(key) out for \(fallback)")
                    // The store is every command's; output and content only a build's.
                    if key == "store" { throw problem }
                    c.siteProblems.append(problem)
                    continue
                }
                if key == "output" { c.output = value } else if key == "content" { c.content = value } else { c.store = value }
            case "remind_at":
                guard let t = ReminderTime(value) else {
                    throw ParseError(file: file, line: n, message: "remind_at must be a time of day as HH:MM, such as \"09:00\"")
                }
                c.remindAt = t
            default: break
            }
        }
        return c
    }

    /// A key as it may be shown in a message: control characters as `\u{..}`.
    static func visible(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if c.value < 0x20 || (0x7F...0x9F).contains(c.value) { out += "\\u{" + String(c.value, radix: 16) + "}" } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// The top-level key a line sets or opens (`key = ...`, `"key" = ...`, `key.sub = ...`,
    /// `[key]`, `[[key]]`), trimmed of its quotes; nil for anything else.
    static func key(ofLine line: String) -> String? {
        var rest = Substring(line)
        while rest.first == "[" { rest = rest.dropFirst() }
        rest = rest.drop(while: { $0 == " " || $0 == "\t" })
        guard let first = rest.first else { return nil }
        if first == "\"" || first == "'" {
            let body = rest.dropFirst()
            guard let close = body.firstIndex(of: first) else { return nil }
            return String(body[..<close])
        }
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        return name.isEmpty ? nil : String(name)
    }

    /// The number of the first line that sets or opens `key`.
    static func lineNumber(of key: String, in lines: [String]) -> Int? {
        for (i, line) in lines.enumerated() where self.key(ofLine: trimmed(line)) == key { return i + 1 }
        return nil
    }

    /// `s` without the spaces and tabs around it (TOML's whitespace; Foundation's trimming goes
    /// through NSString here, which every command would pay for: see docs/performance.md).
    static func trimmed<S: StringProtocol>(_ s: S) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = s.firstIndex(where: { !blank($0) }), let last = s.lastIndex(where: { !blank($0) }) else { return "" }
        return String(s[first...last])
    }
}
