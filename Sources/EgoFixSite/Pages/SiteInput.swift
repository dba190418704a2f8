import EgoFixCore
import Foundation

/// The user's own Markdown from `content/`: week notes, version notes, free pages.
public struct SiteContent: Sendable {
    public struct Document: Sendable {
        public let name: String      // "2026-W47", "1.3", "about"
        public let source: String    // for errors: "content/weeks/2026-W47.md"
        public let markdown: String
        public init(name: String, source: String, markdown: String) {
            self.name = name
            self.source = source
            self.markdown = markdown
        }
    }

    public var weeks: [Document]
    public var versions: [Document]
    public var pages: [Document]
    /// What the content folders hold that is not read (not a NAME.md file: `2026-W46.markdown`,
    /// `1.1.MD`, a subfolder), one line each, said by every build: it was dropped without a word.
    public var ignored: [String] = []

    public init(weeks: [Document] = [], versions: [Document] = [], pages: [Document] = []) {
        self.weeks = weeks
        self.versions = versions
        self.pages = pages
    }

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String)
        case badName(String, String)
        /// A week name of the right shape that no calendar has: the file, the year, its weeks.
        case noSuchWeek(String, year: Int, weeks: Int)
        /// A symbolic link that leads out of the workspace (its contents would be published).
        case linkOutside(String, target: String)
        /// Not a regular file (a FIFO would stall the build, a device would be read).
        case notAFile(String)
        public var description: String {
            switch self {
            case .unreadable(let p): return "\(p): not readable as UTF-8 text."
            case .badName(let p, let want): return "\(p): the file name should look like \(want)."
            case .noSuchWeek(let p, let year, let weeks):
                return "\(p): \(year) has no such week; its weeks run from \(year)-W01 to \(year)-W\(weeks), so rename the file to one of those."
            case .linkOutside(let p, let target):
                return "\(p): a symbolic link to \(target), outside the workspace; its contents would be published. Copy the text in, or remove the link."
            case .notAFile(let p): return "\(p): not a regular file; content notes are Markdown files."
            }
        }
    }

    /// Reads `folder/weeks/*.md`, `folder/versions/*.md`, `folder/pages/*.md`. A missing folder is empty.
    /// A file (or a folder on its way) may be a symbolic link only to somewhere inside `workspace`
    /// or the content folder: a link to /etc/shadow is refused, not published.
    public static func load(folder: URL, label: String = "content", workspace: URL? = nil) throws -> SiteContent {
        // Files may come from the workspace, and from the content folder when it was named outside
        // the workspace on purpose (`content = "/elsewhere"`). A content folder inside the
        // workspace by its name that is a link out of it adds nothing: its files lead out and are refused.
        let named = folder.standardizedFileURL.path, inside = workspace.map { named.hasPrefix($0.standardizedFileURL.path + "/") } ?? false
        let published = PublishedFileCheck(folders: [workspace?.path] + (inside ? [] : [folder.path]))
        var ignored: [String] = []
        func docs(_ sub: String, check: (String) -> Bool, want: String,
                  exists: (_ name: String, _ source: String) throws -> Void = { _, _ in }) throws -> [Document] {
            let dir = folder.appendingPathComponent(sub)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
            for file in names.sorted() where !file.hasPrefix(".") && !file.hasSuffix(".md") {
                ignored.append("\(label)/\(sub)/\(file) is not read: \(label)/\(sub) reads the NAME.md files directly in it, such as \(want).")
            }
            return try names.filter { $0.hasSuffix(".md") && !$0.hasPrefix(".") }.sorted().map { file in
                let name = String(file.dropLast(3))
                let source = "\(label)/\(sub)/\(file)"
                guard check(name) else { throw LoadError.badName(source, want) }
                try exists(name, source)
                let path = dir.appendingPathComponent(file).path
                let target: String
                switch published.check(path) {
                case .success(let t): target = t
                case .failure(.unreadable): throw LoadError.unreadable(source)
                case .failure(.linkOutside(let t)): throw LoadError.linkOutside(source, target: t)
                case .failure(.notAFile): throw LoadError.notAFile(source)
                }
                guard let data = FileManager.default.contents(atPath: target),
                      let text = String(data: data, encoding: .utf8) else { throw LoadError.unreadable(source) }
                return Document(name: name, source: source, markdown: text)
            }
        }
        var content = SiteContent(
            weeks: try docs("weeks", check: NameShape.isISOWeekName, want: "2026-W47.md", exists: { name, source in
                // The shape is checked: four digits, "-W", two digits.
                guard let year = Int(name.prefix(4)), let week = Int(name.suffix(2)) else { throw LoadError.badName(source, "2026-W47.md") }
                let weeks = LocalDay.isoWeekCount(year: year)
                guard (1...weeks).contains(week) else { throw LoadError.noSuchWeek(source, year: year, weeks: weeks) }
            }),
            versions: try docs("versions", check: { Version(canonical: $0) != nil }, want: "1.3.md: a version from 1.0 on, as written, with no leading zeros"),
            pages: try docs("pages", check: NameShape.isPageName,
                            want: "about.md: lowercase letters, digits and '-'"))
        // A note with nothing in it says nothing: not published (an empty free page was a page of
        // its title alone, in every page's navigation).
        // Front matter is not read either: the title is the first "#" heading (a "---" block
        // showed as a rule and a heading of its lines).
        func blank(_ d: Document) -> Bool { d.markdown.allSatisfy(\.isWhitespace) }
        for d in content.weeks + content.versions + content.pages {
            if blank(d) {
                ignored.append("\(d.source) is empty: it adds nothing to the site until it has some text.")
            } else if d.markdown.hasPrefix("---\n") || d.markdown.hasPrefix("---\r\n") {
                ignored.append("\(d.source) starts with a '---' block: front matter is not read, and the block shows as text. "
                               + "A free page's title is its first '# ' heading.")
            }
        }
        content.weeks.removeAll(where: blank)
        content.versions.removeAll(where: blank)
        content.pages.removeAll(where: blank)
        content.ignored = ignored
        return content
    }
}

/// How the site is built: title, base URL, clock and calendar, where overrides live.
public struct SiteOptions: Sendable {
    public var title: String
    public var baseURL: String?
    public var now: Date
    public var calendar: Calendar
    public var workspace: URL?
    /// Stands for the renderer in share-card keys (see `ShareCardPNG.key`): a card drawn by another
    /// egofix build is drawn again.
    public var cardSalt: String
    /// The stored patterns are what the detectors find on this data at `now` (the demo's are: it
    /// stores what they find at its end), so `Practice.patterns` is not read.
    public var patternsAreDetection: Bool
    /// When the day's reminder comes (`remind_at`), for reminders.ics.
    public var remindAt: ReminderTime

    public init(title: String = "EgoFix", baseURL: String? = nil, now: Date, calendar: Calendar, workspace: URL? = nil,
                cardSalt: String = "", patternsAreDetection: Bool = false, remindAt: ReminderTime = .standard) {
        self.patternsAreDetection = patternsAreDetection
        self.remindAt = remindAt
        self.title = title
        self.baseURL = baseURL
        self.now = now
        self.calendar = calendar
        self.workspace = workspace
        self.cardSalt = cardSalt
    }
}
