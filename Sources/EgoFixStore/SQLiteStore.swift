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
    /// The folders made for a new store file, deepest first (`init --store` into a folder not there yet).
    public var foldersMade: [String] { madeFolders }
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
