import Synchronization
import XCTest
import GRDB
import EgoFixCore
@testable import EgoFixStore

final class SQLiteStoreTests: XCTestCase {
    private let clock = TestClock(Fixture.start)

    private func open(_ path: String) throws -> SQLiteStore {
        let c = clock
        return try SQLiteStore(path: path, clock: { c.now })
    }

    /// A profile, its bug, the bug's first fix and one completion of it (id "c"), saved in `store`.
    private func saveOneFix(_ store: SQLiteStore, profile: UserProfile, bug: Bug, reflection: String?, at: Date) async throws {
        try await store.repositories.users.save(profile)
        try await store.repositories.bugs.save(bug)
        let fix = Fixture.fixes(for: bug)[0]
        try await store.repositories.fixes.save(fix)
        try await store.repositories.completions.save(
            FixCompletion(id: uuid("c"), fixId: fix.id, userId: profile.id, reflection: reflection, assignedAt: at))
    }

    private func pragma<T: DatabaseValueConvertible & Sendable>(_ store: SQLiteStore, _ name: String, as: T.Type) throws -> T? {
        try store.queue.read { db in try T.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    func test_open_setsSynchronousFull_foreignKeys_busyTimeout_andDeleteJournal() throws {
        let dir = try TempDir()
        let store = try open(dir.file("s.sqlite"))
        XCTAssertEqual(try pragma(store, "synchronous", as: Int.self), 2, "FULL: a recorded outcome is on disk when save returns")
        XCTAssertEqual(try pragma(store, "foreign_keys", as: Int.self), 1)
        XCTAssertEqual(try pragma(store, "journal_mode", as: String.self), "delete", "one file holds the whole practice")
        XCTAssertGreaterThanOrEqual(try pragma(store, "busy_timeout", as: Int.self) ?? 0, 1000)
        // Same settings after reopening an existing file.
        let again = try open(dir.file("s.sqlite"))
        XCTAssertEqual(try pragma(again, "synchronous", as: Int.self), 2)
        XCTAssertEqual(try pragma(again, "foreign_keys", as: Int.self), 1)
    }

    /// Whole tables are remembered within a process, and never returned stale: after a save
    /// through the repositories, after another process commits, after a change made outside the
    /// repositories (an import, the catalogue) and after a failed write.
    func test_rememberedTables_seeEveryChange() async throws {
        let dir = try TempDir()
        let path = dir.file("s.sqlite")
        let store = try open(path)
        let bug = Fixture.bug("need-to-be-right")
        try await store.repositories.bugs.save(bug)
        let first = try await store.repositories.bugs.getAll()
        XCTAssertEqual(first.map(\.slug), ["need-to-be-right"])

        // Our own save.
        try await store.repositories.bugs.save(Fixture.bug("need-to-be-liked"))
        let afterSave = try await store.repositories.bugs.getAll()
        XCTAssertEqual(Set(afterSave.map(\.slug)), ["need-to-be-right", "need-to-be-liked"])

        // Another process (another connection to the same file).
        let other = try open(path)
        try await other.repositories.bugs.delete(bug.id)
        let afterOther = try await store.repositories.bugs.getAll()
        XCTAssertEqual(afterOther.map(\.slug), ["need-to-be-liked"], "a commit by another connection is seen")

        // A change outside the repositories, on the same connection.
        try await store.queue.write { db in try db.execute(sql: "UPDATE bugs SET title = 'Renamed' WHERE deletedAt IS NULL") }
        let afterRaw = try await store.repositories.bugs.getAll()
        XCTAssertEqual(afterRaw.map(\.title), ["Renamed"], "a change made outside the repositories is seen")

        // A rejected write leaves the remembered table as the file has it.
        let orphan = FixCompletion(fixId: uuid("no-such-fix"), userId: uuid("u"), assignedAt: Fixture.start)
        do { try await store.repositories.completions.save(orphan); XCTFail("a completion for an unknown fix is refused") } catch {}
        let none = try await store.repositories.completions.getAll()
        XCTAssertEqual(none, [])
        let stillRenamed = try await store.repositories.bugs.getAll()
        XCTAssertEqual(stillRenamed.map(\.title), ["Renamed"])
    }

    func test_settingsAndIntegrityCheck_reportWhatADoctorCommandShows() throws {
        let dir = try TempDir()
        let store = try open(dir.file("s.sqlite"))
        XCTAssertEqual(try store.integrityCheck(), "ok")
        let settings = try store.settings()
        XCTAssertEqual(settings.map(\.0), ["synchronous", "foreign_keys", "journal_mode"])
        XCTAssertEqual(settings.map(\.1), ["2", "1", "delete"])
    }

    func test_freshFile_isCreatedWithItsFolders_andMigrated() throws {
        let dir = try TempDir()
        let path = dir.file("deep/er/egofix.sqlite")
        let store = try open(path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let tables = try store.queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
        XCTAssertEqual(tables, ["bugs", "completions", "crashes", "diagnostics", "education", "events", "fixes",
                                "grdb_migrations", "meta", "patterns", "users", "versions"])
        let applied = try store.queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        XCTAssertEqual(applied, ["v1", "v2", "v3", "v4", "v5"])
        XCTAssertEqual(try pragma(store, "application_id", as: Int32.self), Schema.applicationID)
    }

    func test_reopen_keepsEverything_andDoesNotMigrateAgain() async throws {
        let dir = try TempDir()
        let path = dir.file("s.sqlite")
        let profile = UserProfile(currentVersion: "1.3", currentStreak: 4, createdAt: Fixture.start)
        let bug = Fixture.bug("need-to-be-right")
        let reflection = "Ça m'a coûté — 日本語 🙂"
        let precise = Date(timeIntervalSinceReferenceDate: 794_131_200.123_456_789)
        do {
            try await saveOneFix(try open(path), profile: profile, bug: bug, reflection: reflection, at: precise)
        }
        let store = try open(path)
        let got = try await store.repositories.users.get()
        XCTAssertEqual(got?.currentVersion, "1.3")
        XCTAssertEqual(got?.currentStreak, 4)
        let c = try await store.repositories.completions.getById(uuid("c"))
        XCTAssertEqual(c?.reflection, reflection)
        XCTAssertEqual(c?.assignedAt, precise, "instants keep every bit")
        let applied = try await store.queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        XCTAssertEqual(applied, ["v1", "v2", "v3", "v4", "v5"])
    }

    func test_storeFromAnOlderVersion_isMigratedInPlace_keepingItsData() async throws {
        let dir = try TempDir()
        let path = dir.file("s.sqlite")
        do {
            let store = try open(path)
            try await store.repositories.users.save(UserProfile(id: uuid("u"), createdAt: Fixture.start))
            // Make it a v1 store, as an earlier egofix left it.
            try await store.queue.write { db in
                try db.execute(sql: "DROP TABLE meta; DELETE FROM grdb_migrations WHERE identifier = 'v2'")
            }
        }
        let store = try open(path)
        try store.setMeta("catalogue", "abc")
        XCTAssertEqual(try store.meta("catalogue"), "abc")
        let user = try await store.repositories.users.get()
        XCTAssertEqual(user?.id, uuid("u"))
    }

    /// A store of the first egofix's, which kept a reflection and a crash note as given: moved to
    /// this schema, each control character is the `\u{1B}` the terminal showed (such text blocked
    /// every backup, restore and sync: import refuses it), nothing else changes, and the file as
    /// it was is copied beside it first, once (the earlier egofix cannot open it afterwards).
    func test_upgrade_controlCharactersAreShownAndTheStoreIsCopiedFirst() async throws {
        let dir = try TempDir()
        let path = dir.file("s.sqlite")
        let profile = UserProfile(id: uuid("u"), createdAt: Fixture.start)
        let bug = Fixture.bug("need-to-be-right")
        let raw = "Pasted: \u{1B}[31mred\u{1B}[0m, a bell \u{7}\tand a tab.\nDone."
        do {
            let store = try open(path)
            try await saveOneFix(store, profile: profile, bug: bug, reflection: raw, at: Fixture.start)
            try await store.repositories.crashes.save(Crash(id: uuid("x"), userId: profile.id, bugId: bug.id, note: "a \u{1}\u{7F} note", crashedAt: Fixture.start))
            try await store.queue.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v5'") }
        }
        let store = try open(path)
        XCTAssertEqual(store.upgradeBackup, path + ".backup-schema-v4")
        let c = try await store.repositories.completions.getById(uuid("c"))
        XCTAssertEqual(c?.reflection, "Pasted: \\u{1B}[31mred\\u{1B}[0m, a bell \\u{7}\tand a tab.\nDone.")
        let x = try await store.repositories.crashes.getById(uuid("x"))
        XCTAssertEqual(x?.note, "a \\u{1}\\u{7F} note")
        // The export imports again.
        let exported = try store.exportJSON()
        let restored = try open(dir.file("restored.sqlite"))
        _ = try restored.importJSON(exported, replace: false, backupPath: nil)
        // The copy is the store as it was: schema v4, the text as given.
        let copy = try DatabaseQueue(path: path + ".backup-schema-v4")
        let kept = try await copy.read { db in try String.fetchOne(db, sql: "SELECT reflection FROM completions") }
        XCTAssertEqual(kept, raw)
        let schema = try await copy.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        XCTAssertEqual(schema, ["v1", "v2", "v3", "v4"])
        // Opened again, nothing is copied.
        XCTAssertNil(try open(path).upgradeBackup)
    }

    /// An earlier egofix's store opened by several processes at once is copied once, as it was
    /// before any step (two at once made no copy, or copied a half-moved store); a copy's name
    /// already taken (the store went back to the earlier egofix and came here again) gets a new
    /// one, where the store was moved with no copy at all.
    func test_upgrade_isCopiedOnceWhateverOpensItAndNeverOverACopy() throws {
        let dir = try TempDir()
        func earlier(_ name: String) throws -> String {
            let path = dir.file(name)
            let store = try open(path)
            try store.queue.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v5'") }
            return path
        }
        let path = try earlier("s.sqlite")
        let copies = Mutex<[String]>([])
        let c = clock
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let copy = (try? SQLiteStore(path: path, clock: { c.now }))?.upgradeBackup { copies.withLock { $0.append(copy) } }
        }
        XCTAssertEqual(copies.withLock { $0 }, [path + ".backup-schema-v4"])
        let beside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("s.sqlite.backup") }
        XCTAssertEqual(beside, ["s.sqlite.backup-schema-v4"])
        let kept = try DatabaseQueue(path: path + ".backup-schema-v4")
        XCTAssertEqual(try kept.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") },
                       ["v1", "v2", "v3", "v4"])

        let again = try earlier("t.sqlite")
        try Data("an older copy".utf8).write(to: URL(fileURLWithPath: again + ".backup-schema-v4"))
        XCTAssertEqual(try open(again).upgradeBackup, again + ".backup-schema-v4-2")
        XCTAssertEqual(try String(contentsOfFile: again + ".backup-schema-v4", encoding: .utf8), "an older copy")
    }

    /// The first egofix's export (format 1), made as the backup before an upgrade, imports with
    /// its control characters shown as v5 shows them in a store; in a later format they are refused.
    func test_upgrade_aFirstFormatExportWithControlCharactersImports() async throws {
        let dir = try TempDir()
        let source = try open(dir.file("s.sqlite"))
        try await saveOneFix(source, profile: UserProfile(id: uuid("u"), createdAt: Fixture.start), bug: Fixture.bug("need-to-be-right"),
                             reflection: "ok", at: Fixture.start)
        var top = try XCTUnwrap(try JSONSerialization.jsonObject(with: try source.exportJSON()) as? [String: Any])
        var rows = try XCTUnwrap(top["completions"] as? [[String: Any]])
        rows[0]["reflection"] = "red: \u{1B}[31m"
        top["completions"] = rows
        for format in [1, 2] {
            top["formatVersion"] = format
            let data = try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys])
            let target = try open(dir.file("f\(format).sqlite"))
            if format == 1 {
                _ = try target.importJSON(data, replace: false, backupPath: nil)
                let got = try await target.queue.read { db in try String.fetchOne(db, sql: "SELECT reflection FROM completions") }
                XCTAssertEqual(got, "red: \\u{1B}[31m")
            } else {
                XCTAssertThrowsError(try target.importJSON(data, replace: false, backupPath: nil)) { error in
                    XCTAssertTrue("\(error)".contains("holds the control character U+001B"), "\(error)")
                }
            }
        }
    }

    func test_meta_isKeptAcrossReopen_andRemovable() throws {
        let dir = try TempDir()
        let path = dir.file("s.sqlite")
        do {
            let store = try open(path)
            XCTAssertNil(try store.meta("catalogue"))
            try store.setMeta("catalogue", "one")
            try store.setMeta("catalogue", "two")
        }
        let store = try open(path)
        XCTAssertEqual(try store.meta("catalogue"), "two")
        try store.setMeta("catalogue", nil)
        XCTAssertNil(try store.meta("catalogue"))
    }

    func test_fileThatIsNotADatabase_isRefusedInOneLine_andLeftAlone() throws {
        let dir = try TempDir()
        let path = dir.file("notes.txt")
        let bytes = Data(String(repeating: "These are my notes, not a database.\n", count: 20).utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try open(path)) { error in
            guard case StoreError.notADatabase = error else { return XCTFail("\(error)") }
            XCTAssertEqual("\(error)", "store \(path) is not an EgoFix database (file is not a database). Point --store at another file.")
            XCTAssertFalse("\(error)".contains("\n"))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes, "the file is not touched")
    }

    func test_anotherProgramsSQLiteFile_isRefused_andNotMigrated() throws {
        let dir = try TempDir()
        let path = dir.file("photos.sqlite")
        do {
            let q = try DatabaseQueue(path: path)
            try q.write { db in try db.execute(sql: "CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)") }
        }
        XCTAssertThrowsError(try open(path)) { error in
            guard case StoreError.foreignDatabase = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".hasPrefix("store \(path) is not an EgoFix database"), "\(error)")
            XCTAssertTrue("\(error)".contains("photos"), "\(error)")
        }
        let q = try DatabaseQueue(path: path)
        let tables = try q.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        XCTAssertEqual(tables, ["photos"], "no EgoFix table was added to someone else's file")
    }

    func test_storeFromANewerVersion_isRefusedAndSaysSo() throws {
        let dir = try TempDir()
        let path = dir.file("s.sqlite")
        do {
            let store = try open(path)
            try store.queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        }
        XCTAssertThrowsError(try open(path)) { error in
            guard case StoreError.newerVersion(_, let unknown) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(unknown, ["v99"])
            XCTAssertTrue("\(error)".contains("newer version of EgoFix"), "\(error)")
            XCTAssertTrue("\(error)".contains("Update egofix"), "\(error)")
        }
    }

    func test_folderAsStorePath_isAClearError() throws {
        let dir = try TempDir()
        XCTAssertThrowsError(try open(dir.path)) { error in
            guard case StoreError.cannotOpen = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("is a folder"), "\(error)")
        }
    }

    func test_savingARecordWithABrokenReference_isRefusedAndWritesNothing() async throws {
        let w = try await World.make(.sqlite)
        let orphan = FixCompletion(fixId: uuid("no-such-fix"), userId: w.user.id, assignedAt: w.clock.now)
        do {
            try await w.repos.completions.save(orphan)
            XCTFail("a completion of an unknown fix must not be stored")
        } catch let e as RepositoryError {
            XCTAssertTrue(e.description.contains("fixId \(uuid("no-such-fix").uuidString) is not in the store"), e.description)
        }
        let all = try await w.repos.completions.getAll()
        XCTAssertTrue(all.isEmpty)
    }

    func test_twoStoresOnOneFile_writingAtOnce_loseNothing() async throws {
        let dir = try TempDir()
        let path = dir.file("shared.sqlite")
        let a = try open(path)
        let b = try open(path)
        let user = uuid("user")
        let perWriter = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, store) in [("a", a), ("b", b)] {
                group.addTask {
                    for i in 0..<perWriter {
                        let e = AnalyticsEvent(id: uuid("\(name)-\(i)"), userId: user, eventType: .appOpened, dayOfWeek: 2,
                                               hourOfDay: 9, timestamp: Fixture.start.addingTimeInterval(Double(i)))
                        try await store.repositories.events.save(e)
                    }
                }
            }
            try await group.waitForAll()
        }
        let reader = try open(path)
        let events = try await reader.repositories.events.getAll()
        XCTAssertEqual(events.count, 2 * perWriter)
        XCTAssertEqual(Set(events.map(\.id)).count, 2 * perWriter)
    }

    /// A build reads the whole practice as one moment: what another process commits meanwhile (an
    /// outcome: its completion, version entry and events together) is all in or all out. Read a
    /// table at a time, a build could show a crash without its event, or the version without the
    /// outcome. A writer commits a crash and its event together, over and over, while the reader
    /// reads: every read holds as many crashes as crash events.
    func test_readPractice_isOneMoment_whileAWriterCommits() async throws {
        let dir = try TempDir()
        let path = dir.file("moment.sqlite")
        let reader = try open(path), writer = try open(path)
        let user = uuid("user"), bug = Fixture.bug("need-to-be-right")
        try await writer.repositories.bugs.save(bug)
        let stop = Date().addingTimeInterval(2)
        let writing = Task.detached { () -> Int in
            var i = 0
            while Date() < stop {
                let at = Fixture.start.addingTimeInterval(Double(i))
                try? await writer.transaction {
                    try await writer.repositories.crashes.save(Crash(id: uuid("crash-\(i)"), userId: user, bugId: bug.id, crashedAt: at))
                    try await writer.repositories.events.save(AnalyticsEvent(id: uuid("event-\(i)"), userId: user, eventType: .crashLogged,
                                                                             bugId: bug.id, dayOfWeek: 2, hourOfDay: 9, timestamp: at))
                }
                i += 1
            }
            return i
        }
        var reads = 0, torn: [String] = []
        while Date() < stop {
            let p = try await reader.readPractice()
            if p.crashes.count != p.events.count { torn.append("\(p.crashes.count) crashes, \(p.events.count) events") }
            reads += 1
        }
        let written = await writing.value
        XCTAssertGreaterThan(written, 10)
        XCTAssertGreaterThan(reads, 10)
        XCTAssertEqual(torn, [], "\(torn.count) of \(reads) reads were torn")
        let last = try await reader.readPractice()
        XCTAssertEqual(last.crashes.count, written)
        XCTAssertEqual(last.events.count, written)
    }

    /// A writer of this process waiting at its commit keeps new readers out: the events are then
    /// read on the first connection, and the read is still one moment (the write lands after it).
    func test_readPractice_withAWriterWaitingReadsTheEventsOnItsOwnConnection() async throws {
        let dir = try TempDir()
        let path = dir.file("waiting.sqlite")
        let reader = try open(path), writer = try open(path)
        let user = uuid("user")
        func event(_ name: String, _ i: Int) -> AnalyticsEvent {
            AnalyticsEvent(id: uuid(name), userId: user, eventType: .appOpened, dayOfWeek: 2, hourOfDay: 9,
                           timestamp: Fixture.start.addingTimeInterval(Double(i)))
        }
        for i in 0..<50 { try await writer.repositories.events.save(event("before-\(i)", i)) }
        let (seen, landed) = try await reader.snapshot { () -> (Practice, Task<Bool, Never>) in
            // Started once the snapshot holds its lock: the writer waits at its commit until the read is over.
            let landed = Task.detached { (try? await writer.repositories.events.save(event("during", 99))) != nil }
            try await Task.sleep(nanoseconds: 300_000_000)
            return (try await reader.readPractice(), landed)
        }
        XCTAssertEqual(seen.events.count, 50)
        let wrote = await landed.value
        XCTAssertTrue(wrote, "the writer lands once the read is over")
        let after = try await reader.readPractice()
        XCTAssertEqual(after.events.count, 51)
    }

    /// The store file replaced at its path while a build reads it (`mv backup.sqlite store.sqlite`,
    /// a sync tool): the whole read comes from the file the store opened (the events came from the
    /// new one, the rest from the old).
    func test_readPractice_aFileReplacedMidReadIsNotMixedIn() async throws {
        let dir = try TempDir()
        let path = dir.file("store.sqlite"), other = dir.file("other.sqlite")
        let user = uuid("user")
        let a = try open(path), b = try open(other)
        for i in 0..<5 {
            try await a.repositories.events.save(AnalyticsEvent(id: uuid("a-\(i)"), userId: user, eventType: .appOpened, dayOfWeek: 2,
                                                                hourOfDay: 9, timestamp: Fixture.start.addingTimeInterval(Double(i))))
        }
        try await b.repositories.events.save(AnalyticsEvent(id: uuid("b"), userId: user, eventType: .appOpened, dayOfWeek: 2,
                                                            hourOfDay: 9, timestamp: Fixture.start))
        let seen = try await a.snapshot { () -> Practice in
            XCTAssertEqual(rename(other, path), 0)
            return try await a.readPractice()
        }
        XCTAssertEqual(seen.events.count, 5)
    }
}
