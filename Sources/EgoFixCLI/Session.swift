import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixResources
import EgoFixStore
import Foundation

/// Options every command that touches the store takes.
package struct StoreOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("The store file.", discussion: "Default: $EGOFIX_STORE, then `store` in egofix.toml (this folder's, else the nearest folder's above it), then $XDG_DATA_HOME/egofix/egofix.sqlite.", valueName: "path"))
    package var store: String?

    @Option(name: .long, help: ArgumentHelp("Pin the clock (ISO 8601, e.g. 2026-11-22T09:00:00Z). Default: $EGOFIX_NOW, else now.", valueName: "instant"))
    package var now: String?
}

/// Everything a command needs: the store, the clock, the user's calendar, the terminal style.
package struct Session {
    let store: SQLiteStore
    let repos: Repositories
    let now: Date
    let calendar: Calendar
    let style: Style
    let config: WorkspaceConfig
    let storePath: String
    /// Whether this session made the store's file (`MissingStore.create` with nothing there).
    var createdStore = false
    /// Whether the store's path held an empty file before (taken as missing by the commands that
    /// make a store): a refused command empties it again rather than removing it.
    var storeWasEmptyFile = false
    /// Where `now` came from when it is not the machine's clock: "--now" or "EGOFIX_NOW".
    var pinnedBy: String?

    /// A store this command made for an init, import or join that was refused: removed (or made
    /// empty again, when it was an empty file before), so the refusal changes nothing.
    func discardMadeStore() {
        if createdStore { store.removeIfUnused(keepingFile: storeWasEmptyFile) }
    }

    package static func environment() -> [String: String] { ProcessInfo.processInfo.environment }

    /// The folder the command runs in. Refused when it is gone (removed, or moved away under the
    /// shell): Foundation then answers "" or "/", and egofix.toml, ./site and every relative path
    /// would be read or written somewhere else (a build wrote the private site into /site).
    package static func workingFolder() throws -> String {
        guard let p = getcwd(nil, 0) else {
            throw CLIError("the current folder no longer exists (removed or moved away). `cd` into a folder and run the command again.")
        }
        defer { free(p) }
        return String(cString: p)
    }

    /// The workspace: the folder of the nearest egofix.toml, from the current folder up, the way
    /// git finds its repository from any folder inside it; else the current folder. Its Seeds/,
    /// Templates/, Assets/ and content/ are read, and egofix.toml's relative paths are its. (Run
    /// from a subfolder, egofix read no egofix.toml and said "no store" at the default path, whose
    /// `init` started a second practice beside the workspace's.) A parent's egofix.toml counts only
    /// when it is this user's: one left in a shared folder such as /tmp could name the store.
    package static func workspaceFolder() throws -> String {
        workspace(from: try workingFolder())
    }

    package static func workspace(from folder: String) -> String {
        workspaceSearch(from: folder).workspace
    }

    /// The workspace (`workspace(from:)`), and the egofix.toml files of other accounts passed
    /// over on the way up to it, nearest first.
    static func workspaceSearch(from folder: String) -> (workspace: String, passedOver: [String]) {
        var dir = folder, passed: [String] = []
        while true {
            var st = stat()
            let file = (dir == "/" ? "" : dir) + "/egofix.toml"
            // Another user's is passed over, and the search goes on to one of this user's above it.
            if lstat(file, &st) == 0 {
                if dir == folder || st.st_uid == getuid() { return (dir, passed) }
                passed.append(file)
            }
            guard dir != "/", let slash = dir.lastIndex(of: "/") else { return (folder, passed) }
            dir = slash == dir.startIndex ? "/" : String(dir[..<slash])
        }
    }

    /// The workspace's egofix.toml (`workspaceFolder`, or `folder` when given), or the defaults;
    /// `checkingTimeZone` false leaves its `time_zone` unchecked. Its relative `store` and `output`
    /// are the workspace's, made absolute when the command runs in another folder.
    package static func loadConfig(folder: String? = nil, checkingTimeZone: Bool = true) throws -> WorkspaceConfig {
        let here = try workingFolder()
        let workspace = folder ?? workspace(from: here)
        let path = (workspace == "/" ? "" : workspace) + "/egofix.toml"
        // Looked at before it is read: a FIFO would stall every command, a huge file fill memory.
        var st = stat()
        guard stat(path, &st) == 0 else { return WorkspaceConfig() }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw WorkspaceConfig.ParseError(file: path, line: 1, message: "not a regular file; egofix.toml is a text file of a few settings")
        }
        guard Int(st.st_size) <= WorkspaceConfig.maxFileBytes else {
            throw WorkspaceConfig.ParseError(file: path, line: 1, message: "the file is \(st.st_size) bytes, over the limit of \(WorkspaceConfig.maxFileBytes); egofix.toml holds a few short settings")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return WorkspaceConfig() }
        // Bytes that are not UTF-8 are refused, as in every other file egofix reads (a Latin-1
        // "café" became "caf\u{FFFD}" on every page).
        guard let text = String(validating: data, as: UTF8.self) else {
            throw WorkspaceConfig.ParseError(file: path, line: 1, message: "not UTF-8 text; save egofix.toml as UTF-8")
        }
        var config = try WorkspaceConfig.parse(text, file: path, checkingTimeZone: checkingTimeZone)
        config.file = path
        // "~" and "~/" mean $HOME for every path setting (an `output` of "~/out" made a folder
        // named "~", a `content` of "~/notes" was read from one home and hashed from another).
        func inWorkspace(_ p: String) -> String {
            let p = expandTilde(p)
            return p.hasPrefix("/") || workspace == here ? p : (workspace == "/" ? "" : workspace) + "/" + p
        }
        config.output = config.output.map(inWorkspace)
        config.content = config.content.map(expandTilde)
        config.store = config.store.map(inWorkspace)
        return config
    }

    /// What an instant `ISO8601.parse` refused lacks, said in the refusal: a time without seconds
    /// or without a zone offset was told "a real date and time, nothing after it".
    static func missingFromInstant(_ raw: String) -> String {
        let b = Array(raw.utf8)
        func digits(_ r: Range<Int>) -> Bool { r.upperBound <= b.count && r.allSatisfy { (48...57).contains(b[$0]) } }
        func at(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue }
        guard digits(0..<4), at(4, "-"), digits(5..<7), at(7, "-"), digits(8..<10), at(10, "T"), digits(11..<13), at(13, ":"), digits(14..<16) else {
            return "(a real date and time, nothing after it)"
        }
        let zone = b.count > 16 && (at(16, "Z") || at(16, "+") || at(16, "-"))
        if b.count == 16 || zone { return "as egofix reads it: it needs seconds" + (zone ? "" : " and a zone offset (Z or +01:00)") }
        if at(16, ":"), digits(17..<19), b.count == 19 || at(19, ".") && b.count > 20 && digits(20..<b.count) {
            return "as egofix reads it: it needs a zone offset (Z or +01:00)"
        }
        return "(a real date and time, nothing after it)"
    }

    package static func clock(_ flag: String?, environment env: [String: String]) throws -> Date {
        // An empty --now is a mistake (a script's unset variable), not the real clock; an empty
        // EGOFIX_NOW is unset, as empty variables usually are.
        if flag?.isEmpty == true {
            throw CLIError("--now is empty. Give an instant like 2026-11-22T09:00:00+01:00, or leave --now out for the real clock.", code: 64)
        }
        let raw = flag ?? env["EGOFIX_NOW"]
        guard let raw, !raw.isEmpty else { return Date() }
        guard let d = ISO8601.parse(raw) else {
            throw CLIError("\(flag == nil ? "EGOFIX_NOW" : "--now") '\(Terminal.visible(raw))' is not an ISO 8601 instant \(missingFromInstant(raw)). Use a form like 2026-11-22T09:00:00Z or 2026-11-22T09:00:00+01:00.", code: 64)
        }
        if let problem = InstantText.clockProblem(d) {
            // In UTC, which the range is: "'2099-12-31T23:59:59-12:00' is after 2099-12-31" read as false.
            let utc = raw.hasSuffix("Z") || raw.hasSuffix("+00:00") ? "" : " (\(ISO8601.format(d).replacingOccurrences(of: ".000Z", with: "Z")) in UTC)"
            throw CLIError("\(flag == nil ? "EGOFIX_NOW" : "--now") '\(Terminal.visible(raw))'\(utc) \(problem): the clock must be between 2000 and 2099, in UTC. Give an instant in that range.", code: 64)
        }
        return d
    }

    /// The time zone: egofix.toml, else TZ, else the system's.
    package static func timeZone(config: WorkspaceConfig, environment env: [String: String]) throws -> TimeZone {
        if let id = config.timeZone, let tz = TimeZone(identifier: id) { return tz }
        if var tzName = env["TZ"], !tzName.isEmpty {
            if tzName.hasPrefix(":") { tzName.removeFirst() }
            // `UTC+3` as the C library reads it (three hours west), unless a zone file has that
            // name (`EST5EDT`, `GMT+0`), which the C library takes first too.
            if let posix = POSIXTimeZone.parse(tzName), !zoneFileExists(tzName, environment: env) {
                switch posix {
                case .fixed(let east):
                    if let tz = POSIXTimeZone.zone(secondsEast: east) { return tz }
                case .withDaylightSaving:
                    let name = POSIXTimeZone.zoneName(forRule: tzName)
                    throw CLIError("TZ '\(Terminal.visible(tzName))' is a POSIX rule with daylight saving, which egofix does not read. "
                                   + (name.map { "Set TZ to the zone's name, \($0), or time_zone in egofix.toml." }
                                      ?? "Set TZ to the zone's name, such as Europe/Berlin or America/New_York, or time_zone in egofix.toml."))
                }
            }
            let folder = env["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
            if let instead = ZoneAbbreviation.zoneInstead(of: tzName, zoneFolder: folder) {
                throw CLIError(ZoneAbbreviation.problem("TZ '\(tzName)'", instead: instead) + ", or time_zone in egofix.toml.")
            }
            if let tz = TimeZone(identifier: tzName) { return tz }
            // A zone file's path (glibc's form, as in TZ=:/etc/localtime): the zone it is, through links.
            if tzName.hasPrefix("/") {
                let real = RealPath.of(tzName) ?? tzName
                for path in [tzName, real] {
                    if let r = path.range(of: "zoneinfo/"), let tz = TimeZone(identifier: String(path[r.upperBound...])) { return tz }
                }
                if real == RealPath.of("/etc/localtime") || tzName == "/etc/localtime" { return TimeZone(identifier: TimeZone.current.identifier) ?? TimeZone.current }
            }
            throw CLIError("TZ '\(Terminal.visible(tzName))' is not a time zone this system knows. Use an IANA name such as Europe/Berlin.")
        }
        return TimeZone.current
    }

    /// Whether the C library would read `name` as a zone file: one under TZDIR, else under
    /// /usr/share/zoneinfo.
    static func zoneFileExists(_ name: String, environment env: [String: String]) -> Bool {
        guard !name.contains(".."), !name.hasPrefix("/") else { return false }
        let dir = env["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: dir + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// What a command does when no file is at the store's path.
    enum MissingStore {
        /// Make it: the commands that start or fill a store (`init`, `demo`, `import`).
        case create
        /// Refuse, naming the path: every command that reads or adds to a practice, so a mistyped
        /// `--store` is an error rather than a new, empty store that seems to work.
        case refuse
        /// Work on an empty store in memory and leave no file: `bugs`, which lists the catalogue
        /// to choose from before `init`.
        case inMemory
    }

    static func open(_ options: StoreOptions, ifMissing: MissingStore = .refuse) throws -> Session {
        try open(store: options.store, now: options.now, ifMissing: ifMissing)
    }

    /// The session of a `--store` and a `--now` (either may be absent).
    static func open(store storeFlag: String?, now nowFlag: String?, ifMissing: MissingStore = .refuse) throws -> Session {
        let env = environment()
        let config: WorkspaceConfig
        do { config = try loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        for problem in config.siteProblems {
            StandardStreams.error("egofix: warning: " + Terminal.visible(problem.description) + " Only a build reads it, and stops on it until it is mended.\n")
        }
        let now = try clock(nowFlag, environment: env)
        let tz = try timeZone(config: config, environment: env)
        let (path, source) = try storeLocation(flag: storeFlag, config: config, env: env)
        var openPath = path
        // SQLite takes an empty file for a new database: a store truncated to 0 bytes would
        // become an empty practice that seems to work (even `check` said "integrity: ok"). The
        // commands that make a store treat it as missing (and a refused one leaves none).
        var st = stat()
        let emptyFile = stat(path, &st) == 0 && st.st_size == 0 && (st.st_mode & S_IFMT) == S_IFREG
        if ifMissing != .create, emptyFile {
            // A first `init` killed before it wrote leaves one: that is said first (it was "not a
            // store egofix wrote" and "restore it from a backup", for a file init itself made).
            throw CLIError("the store file \(path) is empty (0 bytes): nothing is stored in it. A first `egofix init` cut short leaves one; "
                           + "`egofix init` starts a practice there. If it held your practice, restore it from a backup (`egofix import` reads an export). Nothing was changed.")
        }
        let missing = !SQLiteStore.exists(at: path) || emptyFile
        if ifMissing != .create, missing {
            guard ifMissing == .inMemory else { throw noStore(at: path, from: source) }
            // A store named and not there (a typo) is said: the catalogue with every bug
            // inactive read as one's own practice with everything off.
            let named: String?
            switch source {
            case .flag: named = "--store"
            case .environment: named = "EGOFIX_STORE"
            case .config(let file): named = "`store` in " + Terminal.visible(file)
            case .standard: named = nil
            }
            if let named {
                StandardStreams.error("egofix: warning: no store at \(Terminal.visible(path)), named by \(named); "
                                      + "this is the catalogue alone, every bug inactive.\n")
            }
            openPath = ":memory:"
        }
        // An empty file a new practice is written into (made beforehand, or left by an `init` cut
        // short) becomes the user's alone, as a store egofix makes is: it kept its 0644.
        if ifMissing == .create, emptyFile, st.st_uid == geteuid(), st.st_mode & 0o077 != 0 {
            _ = chmod(path, 0o600)
        }
        let store: SQLiteStore
        do { store = try SQLiteStore(path: openPath, clock: { now }) } catch let e as StoreError { throw CLIError(e.description) }
        if let copy = store.upgradeBackup {
            StandardStreams.error("egofix: \(Terminal.visible(path)) was an earlier egofix's store; it now has this egofix's schema, "
                                  + "which the earlier one cannot open. The file as it was is kept at \(Terminal.visible(copy)).\n")
        }
        return Session(store: store, repos: store.repositories, now: now, calendar: UserCalendar.make(timeZone: tz),
                       style: .detect(), config: config, storePath: path, createdStore: missing && ifMissing == .create,
                       storeWasEmptyFile: emptyFile,
                       pinnedBy: nowFlag != nil ? "--now" : (env["EGOFIX_NOW"].map { $0.isEmpty ? nil : "EGOFIX_NOW" } ?? nil))
    }

    /// Where the store's path came from: said when no store is there.
    package enum StoreSource: Equatable, Sendable {
        case flag, environment, config(file: String), standard
    }

    /// The store file a command reads, and where its path came from: --store, else $EGOFIX_STORE,
    /// else `store` in egofix.toml (its "~/" already the home, a relative path the workspace's),
    /// else the default. An empty --store is refused, as an empty --now is (a script's unset
    /// variable); an empty EGOFIX_STORE is unset, as empty variables usually are. "~" and "~/" are
    /// the home in all three (`--store=~/x` and EGOFIX_STORE='~/x' reach egofix unexpanded, and made
    /// a folder named "~" in whatever folder the command ran in).
    package static func storeLocation(flag: String?, config: WorkspaceConfig, env: [String: String]) throws -> (path: String, from: StoreSource) {
        let found = try storeLocationAsGiven(flag: flag, config: config, env: env)
        // A path that ends in "/" names a folder: `init` made the folder, then failed on it, and
        // left it behind.
        if found.path.hasSuffix("/") {
            throw CLIError("the store path \(Terminal.visible(found.path)) ends in /, which names a folder; a store is one file, "
                           + "such as \(Terminal.visible(found.path))egofix.sqlite. Nothing was changed.")
        }
        return found
    }

    private static func storeLocationAsGiven(flag: String?, config: WorkspaceConfig, env: [String: String]) throws -> (path: String, from: StoreSource) {
        if let flag {
            guard !flag.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CLIError("--store is empty. Give the store file's path, or leave --store out for $EGOFIX_STORE, egofix.toml's store or the default.")
            }
            return (expandTilde(flag), .flag)
        }
        if let e = env["EGOFIX_STORE"], !e.trimmingCharacters(in: .whitespaces).isEmpty { return (expandTilde(e), .environment) }
        if let c = config.store { return (c, .config(file: config.file ?? "egofix.toml")) }
        return (StoreLocation.resolve(flag: nil, environment: env), .standard)
    }

    /// `storeLocation`'s path.
    package static func storePath(flag: String?, config: WorkspaceConfig, env: [String: String]) throws -> String {
        try storeLocation(flag: flag, config: config, env: env).path
    }

    /// The refusal when no store is at `path`: where the path came from, and what to do. One
    /// sentence for every command (they said it three ways).
    package static func noStore(at path: String, from source: StoreSource, orDemo: Bool = false) -> CLIError {
        // A link to nothing: `init` refuses it, so "init starts one there" sent the reader to a refusal.
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            return CLIError(StoreError.danglingLink(path: path, target: target).description)
        }
        let start = "`egofix init --bug SLUG` starts one there (`egofix bugs` lists the slugs)"
            + (orDemo ? "; `egofix build --demo` builds the demo site." : ".")
        switch source {
        case .flag: return CLIError("no store at \(Terminal.visible(path)), named by --store. Check the path; " + start)
        case .environment: return CLIError("no store at \(Terminal.visible(path)), named by EGOFIX_STORE. Check the path; " + start)
        case .config(let file): return CLIError("no store at \(Terminal.visible(path)), named by `store` in \(Terminal.visible(file)). " + start)
        case .standard:
            // One of another account's, passed over, is named: "no egofix.toml ... names one" sent
            // the reader to a file that is there.
            let passed = ((try? workingFolder()).map { workspaceSearch(from: $0).passedOver } ?? []).first
            return CLIError("no store at \(Terminal.visible(path)), the default: no --store, no EGOFIX_STORE, and no egofix.toml in this folder "
                            + "or above it names one" + (passed.map { " (\(Terminal.visible($0)) is another account's, and egofix reads only yours)" } ?? "")
                            + ". A practice kept elsewhere is found from its workspace's folder, or named with --store "
                            + "or EGOFIX_STORE. To start a new one at this path: `egofix init --bug SLUG` (`egofix bugs` lists the slugs)"
                            + (orDemo ? "; `egofix build --demo` builds the demo site." : "."))
        }
    }

    /// "~" and "~/..." with the home folder (`StoreLocation.home`); any other path as it is.
    package static func expandTilde(_ p: String) -> String {
        guard p == "~" || p.hasPrefix("~/") else { return p }
        return StoreLocation.home(environment: environment()) + String(p.dropFirst(1))
    }

    /// The catalogue: built-in seeds, overridden file by file by the workspace's Seeds folder.
    static func seedFiles() -> SeedFiles {
        // A command whose folder is gone has stopped at egofix.toml already.
        guard let local = (try? workspaceFolder()).map({ $0 + "/Seeds" }) else { return SeedFiles.load(folder: nil) }
        var isDir: ObjCBool = false
        let hasLocal = FileManager.default.fileExists(atPath: local, isDirectory: &isDir) && isDir.boolValue
        return SeedFiles.load(folder: hasLocal ? local : nil)
    }

    /// The store's bugs in the catalogue's order (the seed file's, as the spec's crash log lists
    /// them); a bug the catalogue no longer names comes after, by title.
    func bugsInCatalogueOrder() async throws -> [Bug] {
        Session.inCatalogueOrder(try await repos.bugs.getAll())
    }

    /// `bugs` in the catalogue's order (the crash log's and init's menus number them alike).
    static func inCatalogueOrder(_ bugs: [Bug]) -> [Bug] {
        let seeds = (try? JSONDecoder().decode([SeedCatalogue.BugSeed].self, from: Session.seedFiles().bugs ?? Data())) ?? []
        let place = Dictionary(seeds.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { first, _ in first })
        return bugs.sorted {
            let (a, b) = (place[$0.slug] ?? Int.max, place[$1.slug] ?? Int.max)
            if a != b { return a < b }
            return $0.title != $1.title ? $0.title < $1.title : $0.id.uuidString < $1.id.uuidString
        }
    }

    /// Where the store notes the week whose diagnostic was skipped (bookkeeping: not exported,
    /// not synced, cleared by an import).
    static let skippedDiagnosticKey = "diagnostic-skipped"

    /// The Monday of the week whose diagnostic was last skipped with this store, if any.
    func skippedDiagnosticWeek() throws -> LocalDay? {
        try store.meta(Session.skippedDiagnosticKey).flatMap(Int.init).map { LocalDay(ordinal: $0) }
    }

    /// Loads the catalogue when the store has none or the seeds changed since the last load: only then
    /// are the seeds decoded (and a ./Seeds override linted; the built-in seeds are checked by the tests).
    /// A store this user cannot write keeps the catalogue it has: after an upgrade, `status` and
    /// the other commands that only read still work on it (they failed to write the new one).
    /// Refuses a command that records on a day before the practice began: a clock set behind (or
    /// a `--now` from before `init`) put a fix marked, a crash and a day's fix before day one,
    /// which the pages drew as before day one and the changelog listed under a release made after
    /// them. An instant before the practice's on its first day passes: a machine that joined a
    /// moment ago with a clock a minute behind, or one whose clock ran an hour ahead at `init`
    /// (a dual-boot machine's hardware clock in local time), were locked out until then.
    func refuseAClockBeforeThePractice() async throws {
        guard let began = try await repos.users.get()?.createdAt, now < began else { return }
        let first = LocalDay(began, calendar: calendar)
        guard today < first else { return }
        func said(_ d: Date) -> String { LocalDay(d, calendar: calendar).description + " " + InstantText.hourMinute(d, calendar: calendar) }
        let clock = pinnedBy.map { "the clock given by \($0)" } ?? "this machine's clock"
        throw CLIError("\(clock) says \(said(now)), a day before the practice began (\(said(began))). Nothing recorded. "
                       + "If the clock is behind, set it right. If it is right, the practice was begun on a clock that ran ahead, "
                       + "and commands record again from \(first).")
    }

    func ensureCatalogue() async throws {
        let files = Session.seedFiles()
        // The seeds' hash (of their bytes; an earlier egofix hashed their base64 text, so a store
        // it marked loads the catalogue once more), and the loader's revision: a store loaded by a
        // loader that did less is loaded again once (revision 2 retires the tidbits a catalogue left out).
        let seeds = [files.bugs, files.fixes, files.education].map { $0 ?? Data() }
        let fingerprint = String(StableHash.fnv1a(bytes: seeds), radix: 16) + "-r2"
        let stored = try store.meta("catalogue")
        if stored == fingerprint { return }
        if stored != nil, !FileManager.default.isWritableFile(atPath: storePath) { return }
        let catalogue = try files.builtInCatalogue()
        _ = try store.loadCatalogue(catalogue)
        try store.setMeta("catalogue", fingerprint)
        // A store from before schema v3 (whose catalogue mark is older, so it comes here once).
        try await store.dateEarlierRegressions(now: now, calendar: calendar)
    }

    func profile() async throws -> UserProfile {
        guard let u = try await repos.users.get() else { throw PracticeError.noProfile }
        return u
    }

    func bug(slug: String) async throws -> Bug {
        guard let b = try await repos.bugs.getBySlug(slug) else {
            throw PracticeError.unknownBug(slug, nearest: NameShape.nearestBug(slug, among: try await repos.bugs.getAll()))
        }
        return b
    }

    var today: LocalDay { LocalDay(now, calendar: calendar) }

    /// Prints lines to standard output; stored text in them cannot drive the terminal.
    func print(_ lines: [String]) {
        Swift.print(Terminal.neutralised(Text.fittedToTerminal(lines).joined(separator: "\n"), keepingStyle: style.color))
    }
}
