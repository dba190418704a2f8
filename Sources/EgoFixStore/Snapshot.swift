import Foundation
import GRDB
import EgoFixCore

/// The whole store as one JSON document. Keys are the repository names; every table is present,
/// soft-deleted records included, each in the in-memory order (orderDate, then id).
struct Snapshot: Codable, Sendable {
    /// Bumped whenever the file's shape changes incompatibly.
    /// 2: completions carry `day` (an egofix reading format 1 imported it without the day, silently).
    static let currentFormat = 2

    var formatVersion: Int
    var bugs: [Bug]
    var fixes: [Fix]
    var completions: [FixCompletion]
    var crashes: [Crash]
    var users: [UserProfile]
    var versions: [VersionEntry]
    var events: [AnalyticsEvent]
    var patterns: [DetectedPattern]
    var diagnostics: [WeeklyDiagnostic]
    var education: [MicroEducation]

    static func read(_ db: Database) throws -> Snapshot {
        Snapshot(formatVersion: currentFormat,
                 bugs: try TableOps.everything(db, Bug.self),
                 fixes: try TableOps.everything(db, Fix.self),
                 completions: try TableOps.everything(db, FixCompletion.self),
                 crashes: try TableOps.everything(db, Crash.self),
                 users: try TableOps.everything(db, UserProfile.self),
                 versions: try TableOps.everything(db, VersionEntry.self),
                 events: try TableOps.everything(db, AnalyticsEvent.self),
                 patterns: try TableOps.everything(db, DetectedPattern.self),
                 diagnostics: try TableOps.everything(db, WeeklyDiagnostic.self),
                 education: try TableOps.everything(db, MicroEducation.self))
    }

    /// Records per table, in file order.
    var counts: [ImportReport.TableCount] {
        [.init(table: Bug.table, count: bugs.count), .init(table: Fix.table, count: fixes.count),
         .init(table: FixCompletion.table, count: completions.count), .init(table: Crash.table, count: crashes.count),
         .init(table: UserProfile.table, count: users.count), .init(table: VersionEntry.table, count: versions.count),
         .init(table: AnalyticsEvent.table, count: events.count), .init(table: DetectedPattern.table, count: patterns.count),
         .init(table: WeeklyDiagnostic.table, count: diagnostics.count),
         .init(table: MicroEducation.table, count: education.count)]
    }

    /// Writes every record; the tables must be empty. Runs inside the caller's transaction.
    func insert(_ db: Database) throws {
        for r in bugs { try TableOps.insert(db, r) }
        for r in fixes { try TableOps.insert(db, r) }
        for r in completions { try TableOps.insert(db, r) }
        for r in crashes { try TableOps.insert(db, r) }
        for r in users { try TableOps.insert(db, r) }
        for r in versions { try TableOps.insert(db, r) }
        for r in events { try TableOps.insert(db, r) }
        for r in patterns { try TableOps.insert(db, r) }
        for r in diagnostics { try TableOps.insert(db, r) }
        for r in education { try TableOps.insert(db, r) }
    }

    /// Every table, children before parents.
    static let tables = [FixCompletion.table, Crash.table, Fix.table, Bug.table, UserProfile.table, VersionEntry.table,
                         AnalyticsEvent.table, DetectedPattern.table, WeeklyDiagnostic.table, MicroEducation.table]

    /// Tables holding what the user did (as opposed to the shipped catalogue).
    static let userTables = [UserProfile.table, FixCompletion.table, Crash.table, VersionEntry.table,
                             AnalyticsEvent.table, DetectedPattern.table, WeeklyDiagnostic.table]

    /// "1 profile", "3 crashes", "2 version entries": a count of a table's records in words.
    static func phrase(_ n: Int, _ table: String) -> String {
        let (one, many): (String, String)
        switch table {
        case UserProfile.table: (one, many) = ("profile", "profiles")
        case Bug.table: (one, many) = ("bug", "bugs")
        case Fix.table: (one, many) = ("fix", "fixes")
        // In the words the commands use ("completion" and "version entry" were the tables').
        case FixCompletion.table: (one, many) = ("fix given", "fixes given")
        case Crash.table: (one, many) = ("crash", "crashes")
        case VersionEntry.table: (one, many) = ("changelog entry", "changelog entries")
        case AnalyticsEvent.table: (one, many) = ("event", "events")
        case DetectedPattern.table: (one, many) = ("pattern", "patterns")
        case WeeklyDiagnostic.table: (one, many) = ("weekly diagnostic", "weekly diagnostics")
        case MicroEducation.table: (one, many) = ("tidbit", "tidbits")
        default: (one, many) = (table, table)
        }
        return "\(n) \(n == 1 ? one : many)"
    }

    // MARK: - Canonical JSON

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, encoder in
            guard let text = Instant.format(date) else {
                throw EncodingError.invalidValue(date, .init(codingPath: encoder.codingPath,
                                                             debugDescription: "instant \(date.timeIntervalSinceReferenceDate) is outside the years 0001-9999"))
            }
            var c = encoder.singleValueContainer()
            try c.encode(text)
        }
        e.dataEncodingStrategy = .base64
        return e
    }

    /// Foundation pretty-prints an empty array as "[\n\n  ]"; write "[]". A raw newline never occurs
    /// inside a JSON string (it is escaped there), so this touches formatting only.
    static func tidyEmptyArrays(_ data: Data) -> Data {
        let b = [UInt8](data)
        var out = [UInt8]()
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "["), i + 2 < b.count, b[i + 1] == 0x0A, b[i + 2] == 0x0A {
                var j = i + 3
                while j < b.count, b[j] == UInt8(ascii: " ") { j += 1 }
                if j < b.count, b[j] == UInt8(ascii: "]") {
                    out.append(UInt8(ascii: "["))
                    out.append(UInt8(ascii: "]"))
                    i = j + 1
                    continue
                }
            }
            out.append(b[i])
            i += 1
        }
        return Data(out)
    }

    static let instantExample = "2026-03-02T08:00:00.000Z"

    /// The decoder of export files. `checkingInstants`: every instant must lie between
    /// 1900-01-01 and 2099-12-31 (`InstantText.recordProblem`).
    static func decoder(checkingInstants: Bool = false) -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom { decoder in
            let c = try decoder.singleValueContainer()
            let s = try c.decode(String.self)
            guard let date = Instant.parse(s) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "\"\(s)\" is not a UTC ISO 8601 instant like \(instantExample)"))
            }
            if checkingInstants, let problem = InstantText.recordProblem(date) {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(s) \(problem)"))
            }
            return date
        }
        d.dataDecodingStrategy = .base64
        return d
    }
}

extension SQLiteStore {
    /// The whole store as canonical JSON: sorted keys, two-space indentation, UTC ISO 8601 instants with
    /// exact fractional seconds, Data as base64, every table including soft-deleted records, each table in
    /// (orderDate, id) order, a top-level `formatVersion`. The same store always gives the same bytes.
    ///
    /// `profile` may bring each profile's derived fields (the streak as it stands) up to the
    /// export's clock; the store itself is not written.
    public func exportJSON(profile: (UserProfile) -> UserProfile = { $0 }) throws -> Data {
        var snapshot: Snapshot
        do {
            snapshot = try queue.read { db in try Snapshot.read(db) }
            snapshot.users = snapshot.users.map(profile)
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "exporting")
        }
        do {
            var data = Snapshot.tidyEmptyArrays(try Snapshot.encoder().encode(snapshot))
            data.append(0x0A)
            return data
        } catch let EncodingError.invalidValue(_, ctx) {
            let path = ctx.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            throw StoreError.database(operation: "exporting", reason: "\(path.hasPrefix(".") ? String(path.dropFirst()) : path): \(ctx.debugDescription)")
        } catch {
            throw StoreError.database(operation: "exporting", reason: "a record does not encode as JSON: \(error)")
        }
    }

    /// Imports a file written by `exportJSON`.
    ///
    /// Everything is checked before anything is written: the file decodes completely, ids are unique per
    /// table, references hold (fixes → bugs, completions → fixes, crashes → bugs when set), reflections
    /// and crash notes are at most `Thresholds.maxMarkdownBytes`. A store that already holds user records
    /// (a profile, completions, crashes, ...) is refused unless `replace` is true. With `backupPath`, the
    /// current store is first copied there with SQLite's backup API. Then every table is emptied and
    /// written in one transaction: the store afterwards holds exactly what the file holds (and no `meta`
    /// values, so a catalogue fingerprint from before the import cannot hide newer seed wording).
    ///
    /// With `now` (an import the user asked for), every instant must also lie between 1900-01-01
    /// and 2099-12-31, the range any command records in: an absurd date would make every later
    /// build enormous, and anything a command stored can be imported again.
    @discardableResult
    public func importJSON(_ data: Data, replace: Bool, backupPath: String?, now: Date? = nil) throws -> ImportReport {
        let snapshot = try ImportValidation.decodeAndValidate(data, checkingInstants: now != nil)

        let existing: String?
        do {
            existing = try queue.read { db in try ImportValidation.userData(db) }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "importing")
        }
        if let existing, !replace {
            throw StoreError.importWouldOverwrite(path: path, what: existing)
        }

        var backedUp = false
        do {
            // The backup is taken inside the transaction that replaces the tables, holding the write
            // lock: a record another process commits meanwhile is either in the backup or refused
            // the lock until the import is done, never lost between the two.
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    if !replace, let what = try ImportValidation.userData(db) {
                        // Another process wrote a practice since the check above.
                        throw StoreError.importWouldOverwrite(path: self.path, what: what)
                    }
                    if let backupPath {
                        self.removeUnfinishedBackups()
                        try self.backup(to: backupPath)
                        backedUp = true
                    }
                    for table in Snapshot.tables { try db.execute(sql: "DELETE FROM \(table)") }
                    // The store syncs under a new device id from now on; the one it had is kept
                    // aside, so its file in the sync folder is merged once more and then removed.
                    let device = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [SQLiteStore.deviceKey])
                    try db.execute(sql: "DELETE FROM meta")
                    if let device {
                        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [SQLiteStore.replacedDeviceKey, device])
                    }
                    try snapshot.insert(db)
                    return .commit
                }
            }
        } catch {
            // The store is as it was: the copy of it made for this import is one more file of
            // private records, unnamed by the error (and, on a nearly full disk, the space the next
            // try needs).
            if backedUp, let backupPath { unlink(backupPath) }
            if let error = error as? StoreError { throw error }
            throw SQLiteStore.map(error, path: path, operation: "importing")
        }
        return ImportReport(tables: snapshot.counts, replaced: existing != nil, backupPath: backupPath)
    }

    /// A database error in words: its message, else (a backup's error carries the other
    /// connection's message, "not an error") its code's ("database or disk is full").
    static func reason(_ error: Error) -> String {
        guard let e = error as? DatabaseError else { return "\(error)" }
        if let m = e.message, !m.isEmpty, m != "not an error" { return m }
        let code = e.resultCode.description  // "13 (database or disk is full)"
        guard let open = code.firstIndex(of: "("), code.hasSuffix(")") else { return code }
        return String(code[code.index(after: open)..<code.index(before: code.endIndex)])
    }

    /// Copies the store, as it is now, to a new file at `destination` (SQLite's online backup),
    /// with the store's own mode (0600 for a store egofix made): a backup holds the same reflections.
    ///
    /// The copy is read through a connection of its own, so it may be taken while this store's
    /// connection holds the write lock (as an import does): it is then exactly the committed
    /// store that the holder of the lock is about to change.
    public func backup(to destination: String) throws {
        try SQLiteStore.backup(from: path, to: destination)
    }

    /// `backup(to:)` of the store file at `path`.
    static func backup(from path: String, to destination: String) throws {
        let fm = FileManager.default
        if fm.fileExists(atPath: destination) {
            throw StoreError.backupFailed(path: destination, reason: "a file is already there and would be overwritten")
        }
        let parent = StoreLocation.folder(of: destination)
        // Written under a name of its own and renamed when whole: a backup cut short (the process
        // killed, the disk full) is never a file under a backup's name (it left a 0-byte "backup"
        // and its journal, which `removeUnfinishedBackups` now clears).
        let partial = destination + SQLiteStore.unfinishedBackupSuffix
        do {
            if !parent.isEmpty, !fm.fileExists(atPath: parent) {
                try fm.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            var st = stat()
            let mode: mode_t = stat(path, &st) == 0 ? st.st_mode & 0o777 : 0o600
            // Made empty with that mode first; SQLite fills it (and gives its journal the same mode).
            unlink(partial)
            let fd = Foundation.open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard fd >= 0 else {
                throw StoreError.backupFailed(path: destination, reason: String(cString: strerror(errno)))
            }
            _ = fchmod(fd, mode)
            close(fd)
            var readOnly = SQLiteStore.configuration()
            readOnly.readonly = true
            let source = try DatabaseQueue(path: path, configuration: readOnly)
            let target = try DatabaseQueue(path: partial, configuration: SQLiteStore.configuration())
            try source.backup(to: target)
            try target.close()
            try source.close()
            guard rename(partial, destination) == 0 else {
                throw StoreError.backupFailed(path: destination, reason: String(cString: strerror(errno)))
            }
        } catch {
            for suffix in ["", "-journal"] { unlink(partial + suffix) }
            if let error = error as? StoreError { throw error }
            throw StoreError.backupFailed(path: destination, reason: SQLiteStore.reason(error))
        }
    }

    /// Backups of this store that an import began and never finished (killed, or the disk full),
    /// with their journals: removed. Called holding the store's write lock, so no import of this
    /// store is writing one now.
    func removeUnfinishedBackups() {
        let folder = StoreLocation.folder(of: path)
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for entry in entries where entry.hasPrefix(name + ".backup-")
            && (entry.hasSuffix(SQLiteStore.unfinishedBackupSuffix) || entry.hasSuffix(SQLiteStore.unfinishedBackupSuffix + "-journal")) {
            unlink(folder.isEmpty ? entry : (folder == "/" ? "" : folder) + "/" + entry)
        }
    }

    /// What an unfinished backup's name ends with.
    static let unfinishedBackupSuffix = ".unfinished"
}
