import Foundation
import GRDB
import Synchronization
import EgoFixCore

/// The local-first store: one SQLite file, one connection, versioned migrations.
///
/// - `synchronous=FULL`: a commit is on disk before `save` returns, so a crash or power cut
///   never loses a recorded outcome.
/// - Journal mode DELETE (SQLite's default rollback journal), not WAL: the store is one file
///   and nothing else, so copying it, syncing it or attaching it to a bug report takes the
///   whole practice (WAL keeps recent commits in `-wal`/`-shm` side files until a checkpoint,
///   and does not work on network folders). A CLI writes a handful of rows per run, so WAL's
///   reader/writer concurrency buys nothing here.
/// - A busy timeout: a second `egofix` process writing the same file waits for the lock
///   instead of failing (writes take the lock up front with BEGIN IMMEDIATE).
/// - Foreign keys on: fixes → bugs, completions → fixes, crashes → bugs.
public final class SQLiteStore: Sendable {
    public let path: String
    let access: Access
    /// The ten repositories, backed by this file. Same semantics as `Repositories.inMemory`.
    public let repositories: Repositories

    let queue: DatabaseQueue
    let clock: @Sendable () -> Date
    /// This process's share of the file (see `StoreHolder`); nil in memory.
    private let holder: StoreHolder?
    /// The file this store opened (nil in memory).
    var fileIdentity: StoreHolder.Identity? { holder?.identity }
    /// The folders this open made for the file, deepest first: a refused command removes them
    /// with the file (a refused sync left ~/.local/share/egofix behind).
    private let madeFolders: [String]
    /// The copy of the file made before this open moved an earlier egofix's store to the current
    /// schema (`<store>.backup-schema-v4`), or nil.
    public let upgradeBackup: String?

    /// Opens the store at `path`, creating the file and its parent folders when missing, and
    /// migrates it to the current schema. `clock` stamps updatedAt and deletedAt.
    public init(path: String, clock: @escaping @Sendable () -> Date) throws {
        self.path = path
        self.clock = clock
        let (queue, made, madeFile) = try SQLiteStore.open(path: path)
        madeFolders = made
        let holder = path == ":memory:" ? nil : try StoreHolder(path: path)
        self.holder = holder
        do {
            let applied = try SQLiteStore.identify(queue, path: path)
            if !applied.isEmpty, applied.count < Schema.knownMigrations.count {
                upgradeBackup = try SQLiteStore.upgrade(queue, path: path)
            } else {
                upgradeBackup = nil
                try SQLiteStore.migrate(queue, path: path)
            }
        } catch {
            // A file this open made and could not set up (a full disk: 0 bytes, or tables without
            // a practice) goes again, with the folders made for it, unless another process has it
            // open; the next command would have called it "not a store egofix wrote".
            if madeFile, let holder, holder.tryExclusive() {
                try? queue.close()
                SQLiteStore.remove(path, folders: made)
            }
            throw error
        }
        self.queue = queue
        let access = Access(queue: queue, clock: clock, cache: TableCache(), command: CommandTransaction())
        self.access = access
        self.repositories = Repositories(
            fixes: SQLiteFixRepository(access: access),
            bugs: SQLiteBugRepository(access: access),
            completions: SQLiteFixCompletionRepository(access: access),
            crashes: SQLiteCrashRepository(access: access),
            users: SQLiteUserRepository(access: access),
            versions: SQLiteVersionEntryRepository(access: access),
            events: SQLiteAnalyticsEventRepository(access: access),
            patterns: SQLitePatternRepository(access: access),
            diagnostics: SQLiteWeeklyDiagnosticRepository(access: access),
            education: SQLiteMicroEducationRepository(access: access))
    }

    /// Removes the store file when no other process has it open and it holds no practice (a
    /// store this command made for an import or a join that was refused). Answers whether it did.
    @discardableResult
    /// With `keepingFile` (it was there, empty, before this command: a 0-byte file, or a link to
    /// one), it is made empty again instead, and a link stays a link.
    public func removeIfUnused(keepingFile: Bool = false) -> Bool {
        guard let holder, holder.tryExclusive() else { return false }
        guard (try? queue.read({ db in try ImportValidation.userData(db) })) == .some(nil) else { return false }
        if keepingFile {
            _ = truncate(path, 0)
            unlink(path + "-journal")
            return true
        }
        SQLiteStore.remove(path, folders: madeFolders)
        return true
    }

    /// Removes the store file at `path` and its journal, then `folders` (made for it, deepest
    /// first) only if still empty: nothing else is taken with them.
    private static func remove(_ path: String, folders: [String]) {
        for suffix in ["", "-journal"] { unlink(path + suffix) }
        for folder in folders { rmdir(folder) }
    }

    /// The connection settings every store uses.
    static func configuration() -> Configuration {
        var c = Configuration()
        c.foreignKeysEnabled = true
        c.busyMode = .timeout(10)
        c.journalMode = .default // DELETE; see the type's documentation
        c.label = "EgoFixStore"
        // A command's read-decide-write is one transaction opened with BEGIN IMMEDIATE and left open
        // across the repository calls it makes (`SQLiteStore.transaction`); GRDB is told that a
        // transaction outliving one database access is deliberate.
        c.allowsUnsafeTransactions = true
        c.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Room for the whole store in SQLite's own page cache (32 MiB; the default is 2), so a
            // command that reads a table twice does not read its pages from the file twice.
            try db.execute(sql: "PRAGMA cache_size = -32768")
            // Reads straight from the mapped file (up to 256 MiB of it) instead of a read call and a
            // copy per page: a cold `egofix today` on a ten-year store reads about 700 pages. Writes
            // still go through the journal and fsync exactly as before.
            try db.execute(sql: "PRAGMA mmap_size = 268435456")
        }
        return c
    }

    /// Whether something is at `path` (a store, or a file that will be refused as one), or may be:
    /// a path that cannot be looked up (a folder on the way without search permission) is not
    /// "no store", which would send its owner to `init`; opening it says why it cannot be read.
    public static func exists(at path: String) -> Bool {
        var st = stat()
        if stat(path, &st) == 0 { return true }
        return errno != ENOENT && errno != ENOTDIR
    }

    /// The queue, the folders made for the file (deepest first) and whether the file was made.
    private static func open(path: String) throws -> (DatabaseQueue, [String], Bool) {
        let fm = FileManager.default
        var made: [String] = []
        var madeFile = false
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw StoreError.cannotOpen(path: path, reason: StoreError.folderReason)
        }
        let parent = StoreLocation.folder(of: path)
        if path != ":memory:", !fm.fileExists(atPath: path) {
            // The store holds private reflections: the folders made for it and the file itself
            // are the user's alone (SQLite gives its journal the file's permissions).
            if !parent.isEmpty, !fm.fileExists(atPath: parent) {
                var missing = parent
                while !missing.isEmpty, missing != "/", !fm.fileExists(atPath: missing) {
                    made.append(missing)
                    missing = StoreLocation.folder(of: missing)
                }
                do {
                    try fm.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw StoreError.cannotOpen(path: path, reason: "cannot create folder \(parent)")
                }
            }
            let fd = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                close(fd)
                madeFile = true
            } else if errno != EEXIST {
                throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            } else if let target = try? fm.destinationOfSymbolicLink(atPath: path), !fm.fileExists(atPath: path) {
                // A link to nothing: SQLite would make its target with everyone's read permission.
                throw StoreError.danglingLink(path: path, target: target)
            }
        }
        do {
            return (try DatabaseQueue(path: path, configuration: configuration()), made, madeFile)
        } catch {
            if madeFile { unlink(path) }
            throw map(error, path: path, operation: "opening")
        }
    }

    /// Refuses SQLite files that are not EgoFix stores, and stores from a newer EgoFix.
    /// Answers the migrations already applied, oldest first.
    @discardableResult
    private static func identify(_ queue: DatabaseQueue, path: String) throws -> [String] {
        struct Facts: Sendable {
            var applicationID: Int32
            var tables: [String]
            var applied: [String]
        }
        let facts: Facts
        do {
            facts = try queue.read { db in
                let appID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                    """)
                var applied: [String] = []
                if tables.contains("grdb_migrations") {
                    applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                }
                return Facts(applicationID: appID, tables: tables, applied: applied)
            }
        } catch {
            throw map(error, path: path, operation: "opening")
        }
        if facts.applicationID != 0 && facts.applicationID != Schema.applicationID {
            throw StoreError.foreignDatabase(path: path, reason: "it belongs to another program (application id \(facts.applicationID))")
        }
        if facts.applicationID == 0 {
            // A fresh file, or one another egofix is creating right now (only grdb_migrations so far).
            let others = facts.tables.filter { $0 != "grdb_migrations" }
            if !others.isEmpty {
                let shown = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", ..." : "")
                throw StoreError.foreignDatabase(path: path, reason: "it holds tables another program made: \(shown)")
            }
        }
        let unknown = facts.applied.filter { !Schema.knownMigrations.contains($0) }
        if !unknown.isEmpty {
            throw StoreError.newerVersion(path: path, unknownMigrations: unknown)
        }
        return facts.applied.sorted { Schema.order($0) < Schema.order($1) }
    }

    /// An earlier egofix's store, moved to this schema in one transaction that holds the write
    /// lock from the look at its migrations to the last of them: the file as it was is first
    /// copied beside it (`STORE.backup-schema-v4`, or `-v4-2` when that name is taken: a store
    /// taken back to the earlier egofix and brought here again keeps both copies), since the
    /// earlier egofix cannot open it afterwards and trying this one (even `check`) closed the way
    /// back. Another process opening it meanwhile waits, then finds it current and copies
    /// nothing (two at once made no copy, or a copy of a half-moved store). A copy that cannot be
    /// made does not stop the command. Answers the copy's path, or nil.
    private static func upgrade(_ queue: DatabaseQueue, path: String) throws -> String? {
        do {
            return try queue.writeWithoutTransaction { db -> String? in
                try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
                do {
                    let done = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
                    let pending = Schema.steps.filter { !done.contains($0.id) }
                    var copy: String?
                    if !pending.isEmpty, let last = Schema.knownMigrations.last(where: done.contains) {
                        var name = path + ".backup-schema-" + last, n = 2
                        while FileManager.default.fileExists(atPath: name) {
                            name = path + ".backup-schema-" + last + "-\(n)"
                            n += 1
                        }
                        // Read through a connection of its own: what is committed, before any step.
                        if (try? SQLiteStore.backup(from: path, to: name)) != nil { copy = name }
                    }
                    for step in pending {
                        try step.run(db)
                        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [step.id])
                    }
                    // v3 added bugs.regressedAt and left it empty: noted, for the first command
                    // with a calendar to date (`dateEarlierRegressions`, which the catalogue's
                    // load runs: its mark goes, so the next command loads it).
                    if pending.contains(where: { $0.id == "v3" }) {
                        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", arguments: [SQLiteStore.undatedRegressionsKey])
                        try db.execute(sql: "DELETE FROM meta WHERE key = 'catalogue'")
                    }
                    try db.execute(sql: "COMMIT")
                    return copy
                } catch {
                    try? db.execute(sql: "ROLLBACK")
                    throw error
                }
            }
        } catch {
            throw map(error, path: path, operation: "migrating")
        }
    }

    private static func migrate(_ queue: DatabaseQueue, path: String) throws {
        let migrator = Schema.migrator
        do {
            try migrator.migrate(queue)
        } catch {
            // Two processes opening a brand-new file race to create the tables; the loser's
            // migration fails on "table exists" once the winner has committed. That is fine.
            if let done = try? queue.read({ try migrator.hasCompletedMigrations($0) }), done { return }
            throw map(error, path: path, operation: "migrating")
        }
    }

    /// One clear error for any failure touching the file.
    static func map(_ error: Error, path: String, operation: String) -> Error {
        if error is StoreError || error is RepositoryError { return error }
        guard let e = error as? DatabaseError else {
            return StoreError.database(operation: operation, reason: "\(error)")
        }
        let reason = e.message ?? "\(e.resultCode)"
        switch e.resultCode {
        case .SQLITE_NOTADB: return StoreError.notADatabase(path: path, reason: reason)
        case .SQLITE_CORRUPT: return StoreError.damaged(path: path, reason: reason)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return StoreError.cannotOpen(path: path, reason: reason)
        case .SQLITE_READONLY: return StoreError.readOnly(path: path, operation: operation, reason: reason)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError.database(operation: operation, reason: "store \(path) stayed locked by another process; try again")
        case .SQLITE_FULL: return StoreError.diskFull(path: path, operation: operation)
        default: return StoreError.database(operation: operation, reason: "\(reason), store \(path)")
        }
    }
}

/// Whether a command's transaction is open on the store's connection (`SQLiteStore.transaction`).
final class CommandTransaction: Sendable {
    private let state = Mutex(false)
    var isOpen: Bool { state.withLock { $0 } }
    func set(_ open: Bool) { state.withLock { $0 = open } }
}

/// The queue and clock every repository shares; maps SQLite errors to StoreError.
struct Access: Sendable {
    let queue: DatabaseQueue
    let clock: @Sendable () -> Date
    /// Whole tables read earlier in this process, while still true.
    let cache: TableCache
    /// While a command's transaction is open, every read and write joins it instead of opening its own.
    let command: CommandTransaction

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if command.isOpen { return try await queue.writeWithoutTransaction(body) }
            return try await queue.read(body)
        } catch {
            throw SQLiteStore.map(error, path: queue.path, operation: "reading")
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            if command.isOpen { return try await queue.writeWithoutTransaction(body) }
            return try await queue.write(body)
        } catch {
            throw SQLiteStore.map(error, path: queue.path, operation: "writing")
        }
    }

    /// The synchronous forms, for the store's own bookkeeping (meta values, the catalogue).
    func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        if command.isOpen { return try queue.writeWithoutTransaction(body) }
        return try queue.read(body)
    }

    func writeNow<T>(_ body: (Database) throws -> T) throws -> T {
        if command.isOpen { return try queue.writeWithoutTransaction(body) }
        return try queue.write(body)
    }
}

extension SQLiteStore {
    /// Runs a command's read-decide-write as one write transaction: BEGIN IMMEDIATE takes the
    /// store's write lock first (waiting, up to the busy timeout, for another process to finish), so
    /// what `body` reads cannot change before what it writes is committed. Either everything `body`
    /// wrote is committed, or, when it throws, nothing is. Whatever a command acknowledges after
    /// this returns is in the store.
    ///
    /// Not reentrant: inside one, `body` just runs. Everything `body` does through the
    /// repositories, and the store's own bookkeeping, joins the transaction.
    public func transaction<T>(_ body: () async throws -> T) async throws -> T {
        try await enclosed(begin: "BEGIN IMMEDIATE TRANSACTION", operation: "locking the store", body)
    }

    /// Runs `body`'s reads as one read transaction: SQLite's shared lock is taken at once and held
    /// to the end, so no other process commits in between and every table is read as of one moment
    /// (read one transaction each, a build beside `egofix applied` in another terminal could see
    /// the new version entry without the outcome that made it). Joins a command's transaction
    /// when one is open. For reads only: a write inside would not wait for the write lock.
    func snapshot<T>(_ body: () async throws -> T) async throws -> T {
        try await enclosed(begin: "BEGIN DEFERRED TRANSACTION; SELECT count(*) FROM sqlite_master", operation: "reading", body)
    }

    private func enclosed<T>(begin: String, operation: String, _ body: () async throws -> T) async throws -> T {
        guard !access.command.isOpen else { return try await body() }
        do {
            try await queue.writeWithoutTransaction { db in try db.execute(sql: begin) }
        } catch {
            try? await queue.writeWithoutTransaction { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
            throw SQLiteStore.map(error, path: path, operation: operation)
        }
        access.command.set(true)
        let result: T
        do {
            result = try await body()
        } catch {
            access.command.set(false)
            try? await queue.writeWithoutTransaction { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
            throw error
        }
        access.command.set(false)
        do {
            try await queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        } catch {
            try? await queue.writeWithoutTransaction { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
            throw SQLiteStore.map(error, path: path, operation: "committing")
        }
        return result
    }
}

/// `rolledBack`'s way out of its transaction.
private struct LookAheadDone: Error {}

extension SQLiteStore {
    /// Runs `body` in a write transaction that is then rolled back, whatever it wrote: what a
    /// command would do, seen before the user is asked for more (a reflection in an editor) or
    /// the command is refused. Nothing it writes stays.
    public func rolledBack<T>(_ body: () async throws -> T) async throws -> T {
        var value: T?
        do {
            _ = try await transaction { () -> Void in
                value = try await body()
                throw LookAheadDone()
            }
        } catch is LookAheadDone {}
        guard let value else { throw StoreError.database(operation: "looking ahead", reason: "no result") }
        return value
    }

    /// The meta key that says the store came from before schema v3, whose regressions are undated.
    static let undatedRegressionsKey = "regressions-undated"

    /// Dates the regressions an egofix from before schema v3 recorded without a date, once: each
    /// active bug gets the instant it last came back, replayed from the records
    /// (`RegressionDetector.undatedRegressions`), so its stability counts only the ratings after
    /// it, as for a bug that regressed since (an upgraded store's bug went stable again on the
    /// quiet ratings from before its regression). Answers how many bugs were dated.
    @discardableResult
    public func dateEarlierRegressions(now: Date, calendar: Calendar) async throws -> Int {
        guard try meta(SQLiteStore.undatedRegressionsKey) != nil else { return 0 }
        let practice = try await readPractice()
        let dates = RegressionDetector.undatedRegressions(practice, now: now, calendar: calendar)
        for var bug in practice.bugs {
            guard let at = dates[bug.id] else { continue }
            bug.regressedAt = at
            try await repositories.bugs.save(bug)
        }
        try setMeta(SQLiteStore.undatedRegressionsKey, nil)
        return dates.count
    }

    /// A bookkeeping value stored with the data (e.g. the fingerprint of the catalogue loaded last), or nil.
    /// Not part of the export; an import clears every value, since it replaces what they described.
    public func meta(_ key: String) throws -> String? {
        do {
            return try access.readNow { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "reading \(key)")
        }
    }

    /// Sets a bookkeeping value; nil removes it.
    public func setMeta(_ key: String, _ value: String?) throws {
        do {
            try access.writeNow { db in
                if let value {
                    try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                                   arguments: [key, value])
                } else {
                    try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
                }
            }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "writing \(key)")
        }
    }
}

/// A shared `flock` on the store file for as long as a process has it open, taken before SQLite
/// opens it: a command that made a store for nothing removes it only when it can take the lock
/// alone (`removeIfUnused`), so a store another process is writing is never removed under it. A
/// process that opened the file just as it was removed sees another file (or none) at the path
/// and stops before writing anything.
final class StoreHolder: Sendable {
    private let fd: Int32
    /// The file's device and inode, as opened.
    let identity: Identity

    /// Which file a path names.
    struct Identity: Equatable, Sendable {
        let device: UInt64, inode: UInt64

        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }

        /// The file at `path` now, or nil.
        init?(path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            self.init(st)
        }
    }

    init(path: String) throws {
        // Without waiting: a FIFO in the store's place must not stall the command (SQLite refuses it next).
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var mine = stat()
        guard flock(fd, LOCK_SH) == 0, fstat(fd, &mine) == 0, Identity(path: path) == Identity(mine) else {
            close(fd)
            throw StoreError.cannotOpen(path: path, reason: "another egofix removed or replaced it while this one opened it; run the command again")
        }
        self.fd = fd
        identity = Identity(mine)
    }

    /// Whether this process alone has the file open (the lock taken exclusively, without waiting).
    func tryExclusive() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    deinit { close(fd) }
}
