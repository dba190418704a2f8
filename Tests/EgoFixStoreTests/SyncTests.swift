import Foundation
import XCTest
import EgoFixCore
@testable import EgoFixStore

/// One machine of a practice: its own store and clock, the commands as the CLI runs them (each
/// one transaction), and `egofix sync` through a shared folder.
final class Machine {
    let name: String
    let clock: TestClock
    let store: SQLiteStore
    let calendar: Calendar
    /// The folder of its store, kept while the machine is.
    let dir: TempDir
    /// Every text this machine's commands acknowledged (reflections and crash notes).
    var written: [String] = []

    init(_ name: String, dir: TempDir, calendar: Calendar = Fixture.calendar) throws {
        self.name = name
        self.dir = dir
        clock = TestClock(Fixture.start)
        let c = clock
        store = try SQLiteStore(path: dir.file(name + ".sqlite"), clock: { c.now })
        self.calendar = calendar
        try store.loadCatalogue(try Fixture.builtInCatalogue())
    }

    func start(_ slug: String = "need-to-be-right", at now: Date) async throws {
        clock.now = now
        let cal = calendar
        _ = try await store.transaction { () -> TodayCard? in
            var vm = OnboardingViewModel(repos: store.repositories, calendar: cal)
            try await vm.load()
            try vm.select(slug: slug)
            return try await vm.complete(at: now)
        }
    }

    @discardableResult
    func sync(_ folder: String, at now: Date, requireEmpty: Bool = false) async throws -> SyncReport {
        clock.now = now
        return try await store.sync(folder: folder, calendar: calendar, now: now, requireEmpty: requireEmpty)
    }

    /// `egofix today`.
    func open(at now: Date) async throws {
        clock.now = now
        let cal = calendar
        _ = try await store.transaction { () -> TodayViewModel in
            var vm = TodayViewModel(repos: store.repositories, calendar: cal)
            try await vm.load(at: now)
            return vm
        }
    }

    /// `egofix applied|skipped|failed -m TEXT`; false when there was nothing to mark.
    @discardableResult
    func mark(_ outcome: FixOutcome, _ text: String?, at now: Date) async throws -> Bool {
        clock.now = now
        let cal = calendar
        do {
            _ = try await store.transaction { () -> OutcomeResult in
                let svc = OutcomeService(repos: store.repositories, calendar: cal)
                return try await svc.mark(outcome, reflection: text, at: now, target: try await svc.target(at: now))
            }
        } catch PracticeError.noPendingFix, PracticeError.yesterdaysFixClosed {
            return false
        } catch PracticeError.alreadyMarked {
            return false
        }
        if let text { written.append(text) }
        return true
    }

    /// An edit of the profile that adds no row: the last tidbit shown (as a rest day's `today` makes).
    func setLastTidbit(_ id: String, at now: Date) async throws {
        clock.now = now
        try await store.transaction {
            guard var u = try await store.repositories.users.get() else { return XCTFail("no profile on \(name)") }
            u.lastTidbitId = UUID(uuidString: id)
            try await store.repositories.users.save(u)
        }
    }

    func crash(_ note: String, at now: Date) async throws {
        clock.now = now
        let cal = calendar
        _ = try await store.transaction {
            try await CrashService(repos: store.repositories, calendar: cal).logCrash(bugId: nil, note: note, at: now)
        }
        written.append(note)
    }

    func reboot(at now: Date) async throws {
        clock.now = now
        let cal = calendar
        _ = try? await store.transaction { try await CrashService(repos: store.repositories, calendar: cal).reboot(at: now) }
    }

    /// `egofix bug activate|deactivate SLUG`, whichever the bug's state calls for.
    func toggleBug(_ slug: String, at now: Date) async throws {
        clock.now = now
        try await store.transaction {
            guard let b = try await store.repositories.bugs.getBySlug(slug) else { return }
            try await store.repositories.bugs.save(b.isActive ? BugLifecycle.deactivate(b, at: now) : BugLifecycle.activate(b, at: now))
        }
    }

    /// Soft-deletes this machine's earliest live crash (what a future `crash --remove` would do).
    func deleteFirstCrash(at now: Date) async throws -> UUID? {
        clock.now = now
        return try await store.transaction { () -> UUID? in
            guard let c = try await store.repositories.crashes.getAll().first else { return nil }
            try await store.repositories.crashes.delete(c.id)
            return c.id
        }
    }

    /// `egofix export` at a fixed clock.
    func export(at now: Date) throws -> Data {
        let streak = StreakService(repos: store.repositories, calendar: calendar)
        return try store.exportJSON(profile: { streak.settled($0, at: now) })
    }
}

final class SyncTests: XCTestCase {
    static func day(_ n: Int, _ hour: Int = 9, minute: Int = 0) -> Date {
        Fixture.start.addingTimeInterval(TimeInterval(n * 86_400 + (hour - 8) * 3600 + minute * 60))
    }

    func folder(_ dir: TempDir) throws -> String {
        let f = dir.file("shared")
        try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true)
        return f
    }

    /// Two machines and their shared folder (in a temporary folder the machines keep): a started
    /// on day 0 and synced at 10:00, b filled from the folder at 11:00.
    func twoMachinesInSync() async throws -> (shared: String, a: Machine, b: Machine) {
        let dir = try TempDir(), shared = try folder(dir)
        let a = try Machine("a", dir: dir), b = try Machine("b", dir: dir)
        try await a.start(at: Self.day(0))
        try await a.sync(shared, at: Self.day(0, 10))
        try await b.sync(shared, at: Self.day(0, 11))
        return (shared, a, b)
    }

    /// Every machine syncs in turn, twice over; then all exports must be byte-identical, and a
    /// third round must change nothing anywhere.
    func converge(_ machines: [Machine], _ shared: String, at now: Date, file: StaticString = #filePath, line: UInt = #line) async throws -> Data {
        for _ in 0..<2 {
            for m in machines { try await m.sync(shared, at: now) }
        }
        let exports = try machines.map { try $0.export(at: now) }
        for (m, e) in zip(machines, exports).dropFirst() where e != exports[0] {
            if let out = ProcessInfo.processInfo.environment["EGOFIX_SYNC_DEBUG"] {
                try? exports[0].write(to: URL(fileURLWithPath: out + "/" + machines[0].name + ".json"))
                try? e.write(to: URL(fileURLWithPath: out + "/" + m.name + ".json"))
            }
            XCTFail("\(m.name)'s export differs from \(machines[0].name)'s after two rounds", file: file, line: line)
        }
        for m in machines {
            let r = try await m.sync(shared, at: now)
            XCTAssertEqual(r.recordsChanged, 0, "\(m.name) still changed records on a third round", file: file, line: line)
            XCTAssertFalse(r.wroteOwnFile, "\(m.name) rewrote its file on a third round", file: file, line: line)
        }
        return exports[0]
    }

    func assertPresent(_ texts: [String], in export: Data, file: StaticString = #filePath, line: UInt = #line) throws {
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: export) as? [String: Any])
        var all: [String] = []
        for table in ["completions", "crashes"] {
            for r in doc[table] as? [[String: Any]] ?? [] {
                if let t = r["reflection"] as? String { all.append(t) }
                if let t = r["note"] as? String { all.append(t) }
            }
        }
        for t in texts where !all.contains(where: { $0.contains(t) }) {
            XCTFail("\"\(t)\" is not in the export", file: file, line: line)
        }
    }

    func test_Sync_joiningAdoptsTheProfileAndItsPrimaryBug() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let a = try Machine("a", dir: dir), b = try Machine("b", dir: dir)
        try await a.start("need-to-impress", at: Self.day(0))
        try await a.mark(.applied, "Said nothing about the promotion.", at: Self.day(0, 20))
        try await a.sync(shared, at: Self.day(0, 21))
        let r = try await b.sync(shared, at: Self.day(0, 22), requireEmpty: true)
        XCTAssertTrue(r.joined)
        let ua = try await a.store.repositories.users.get(), ub = try await b.store.repositories.users.get()
        XCTAssertEqual(ua?.id, ub?.id)
        XCTAssertEqual(ub?.primaryBugId, ua?.primaryBugId)
        let active = try await b.store.repositories.bugs.getActive().map(\.slug)
        XCTAssertEqual(active, ["need-to-impress"])
        let e = try await converge([a, b], shared, at: Self.day(1))
        try assertPresent(["Said nothing about the promotion."], in: e)
        // A store that has a practice is not an empty one.
        do {
            try await a.sync(shared, at: Self.day(1), requireEmpty: true)
            XCTFail("init --from on a store with a practice was accepted")
        } catch let e as SyncError {
            XCTAssertTrue(e.description.contains("already holds a practice"), e.description)
        }
    }

    func test_Sync_emptyStoreAndEmptyFolderIsNothingToJoin() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let b = try Machine("b", dir: dir)
        do {
            try await b.sync(shared, at: Self.day(0))
            XCTFail("joined nothing")
        } catch let e as SyncError {
            XCTAssertEqual(e, .nothingToJoin(shared))
        }
        let profile = try await b.store.repositories.users.get()
        XCTAssertNil(profile)
    }

    func test_Sync_twoMachinesRecordingOnDifferentDays() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        for n in 1...16 {
            let m = n % 2 == 0 ? a : b
            try await m.open(at: Self.day(n))
            try await m.mark(.applied, "day \(n) on \(m.name)", at: Self.day(n, 20))
            try await m.sync(shared, at: Self.day(n, 21))
        }
        let e = try await converge([a, b], shared, at: Self.day(17))
        try assertPresent(a.written + b.written, in: e)
        // 16 applied fixes plus the first one left pending: version 1.2, and a streak of 17 days.
        let u = try await b.store.repositories.users.get()
        XCTAssertEqual(u?.currentVersion, "1.2")
        XCTAssertEqual(u?.currentStreak, 17)
        let bumps = try await b.store.repositories.versions.getAll().filter { $0.changeType == .minorUpdate }
        XCTAssertEqual(bumps.map(\.version), ["1.1", "1.2"])
    }

    func test_Sync_sameDayDifferentOutcomesOneWinsBothTextsKept() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        // Day 1: both machines open and mark the day's fix without syncing in between.
        try await a.open(at: Self.day(1, 8))
        try await b.open(at: Self.day(1, 9))
        try await a.mark(.applied, "Let Tom finish.", at: Self.day(1, 12))
        try await b.mark(.skipped, "Too tired to listen.", at: Self.day(1, 18))
        let e = try await converge([a, b], shared, at: Self.day(2))
        try assertPresent(["Let Tom finish.", "Too tired to listen."], in: e)
        let cal = a.calendar
        let day1 = try await a.store.repositories.completions.getAll().filter {
            LocalDay($0.assignedAt, calendar: cal) == LocalDay(Self.day(1), calendar: cal)
        }
        XCTAssertEqual(day1.count, 1, "one live completion for the day")
        // The latest marking wins: skipped at 18:00; the applied text is kept as a note in it.
        XCTAssertEqual(day1.first?.outcome, .skipped)
        XCTAssertEqual(day1.first?.reflection?.hasPrefix("Too tired to listen.\n\n*Also written on another machine, marked applied"), true,
                       day1.first?.reflection ?? "")
    }

    func test_Sync_sameDayMarkedBeatsPending() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        try await a.open(at: Self.day(1, 8))
        try await a.mark(.failed, "Argued about the map.", at: Self.day(1, 9))
        try await b.open(at: Self.day(1, 19))
        _ = try await converge([a, b], shared, at: Self.day(2))
        let live = try await b.store.repositories.completions.getAll().filter { $0.assignedAt > Self.day(1, 0) }
        XCTAssertEqual(live.map(\.outcome), [.failed])
    }

    func test_Sync_threeMachinesSameDayInAnyOrderGiveTheSameBytes() async throws {
        var results: [Data] = []
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let dir = try TempDir(), shared = try folder(dir)
            let ms = try ["a", "b", "c"].map { try Machine($0, dir: dir) }
            try await ms[0].start(at: Self.day(0))
            try await ms[0].sync(shared, at: Self.day(0, 10))
            try await ms[1].sync(shared, at: Self.day(0, 10))
            try await ms[2].sync(shared, at: Self.day(0, 10))
            for (i, m) in ms.enumerated() {
                try await m.open(at: Self.day(1, 8 + i))
                try await m.mark(i == 1 ? .applied : .skipped, "text from \(m.name)", at: Self.day(1, 12 + i))
                try await m.crash("crash on \(m.name)", at: Self.day(1, 15 + i))
            }
            for i in order { try await ms[i].sync(shared, at: Self.day(1, 22)) }
            let e = try await converge(order.map { ms[$0] }, shared, at: Self.day(2))
            try assertPresent(ms.flatMap(\.written), in: e)
            results.append(try Self.withoutMachineIds(e))
            if let out = ProcessInfo.processInfo.environment["EGOFIX_SYNC_DEBUG"] {
                try? e.write(to: URL(fileURLWithPath: out + "/order\(results.count).json"))
                try? results.last?.write(to: URL(fileURLWithPath: out + "/norm\(results.count).json"))
            }
        }
        // Machine ids are random per run; everything else is the same whatever the order.
        XCTAssertEqual(results[0], results[1])
        XCTAssertEqual(results[0], results[2])
    }

    /// The export with each record's id, syncToken and the profile's last tidbit blanked (they
    /// are random per run), so runs made with different random ids compare.
    static func withoutMachineIds(_ data: Data) throws -> Data {
        guard var doc = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
        for table in ["completions", "crashes", "events", "users", "versions", "diagnostics", "patterns"] {
            var rows = doc[table] as? [[String: Any]] ?? []
            for i in rows.indices {
                rows[i]["id"] = nil
                rows[i]["syncToken"] = nil
                rows[i]["userId"] = nil
                rows[i]["fixId"] = nil
                rows[i]["lastTidbitId"] = nil // chosen by a hash of the (random) profile id
                if let r = rows[i]["reflection"] as? String, let range = r.range(of: "(note ") {
                    rows[i]["reflection"] = String(r[..<range.lowerBound])
                }
            }
            doc[table] = rows.map { row in row.keys.sorted().map { "\($0)=\(row[$0].map { "\($0)" } ?? "")" }.joined(separator: ";") }.sorted()
        }
        return try JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys])
    }

    /// Both machines edit the profile with the clock pinned at one instant. a merges b's version
    /// and keeps its own (the tie goes to the greater bytes), then edits again into bytes smaller
    /// than b's. b's file has not changed, so a does not read it again; the second edit must
    /// still win on both machines. (The CLI's kill test met this: two machines kept different
    /// lastTidbitId for good.)
    func test_Sync_anEditAtATieOnTheClockWinsOverVersionsAlreadySeen() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        let t = Self.day(1, 21)
        try await b.setLastTidbit("CCCCCCCC-CCCC-4CCC-8CCC-CCCCCCCCCCCC", at: t)
        try await b.sync(shared, at: t)
        try await a.setLastTidbit("FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF", at: t)
        try await a.sync(shared, at: t)
        let kept = try await a.store.repositories.users.get()
        XCTAssertEqual(kept?.lastTidbitId?.uuidString, "FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF", "a keeps its own version at the tie")
        try await a.setLastTidbit("00000000-0000-4000-8000-000000000000", at: t)
        let second = try await a.store.repositories.users.get()
        XCTAssertGreaterThan(try XCTUnwrap(second?.updatedAt), t, "an edit at a pinned clock is stamped after the stored stamp")
        _ = try await converge([a, b], shared, at: t)
        let ub = try await b.store.repositories.users.get()
        XCTAssertEqual(ub?.lastTidbitId?.uuidString, "00000000-0000-4000-8000-000000000000", "a's last edit wins on b")
    }

    /// A sync with nothing new in the folder stops early when the store's fingerprint (row counts
    /// and sums of stamps) is unchanged. An edit that adds no row, at a clock pinned to the
    /// instant of the previous edit, still moves a stamp, so the sync writes it out.
    func test_Sync_anEditAtThePinnedClockIsNotSkippedByTheNoChangeCheck() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let a = try Machine("a", dir: dir)
        try await a.start(at: Self.day(0))
        let t = Self.day(1, 21)
        try await a.setLastTidbit("11111111-1111-4111-8111-111111111111", at: t)
        try await a.sync(shared, at: t)
        try await a.setLastTidbit("22222222-2222-4222-8222-222222222222", at: t)
        let r = try await a.sync(shared, at: t)
        XCTAssertTrue(r.wroteOwnFile, "the second edit did not reach the folder")
        let file = try String(contentsOfFile: r.ownFile, encoding: .utf8)
        XCTAssertTrue(file.contains("22222222-2222-4222-8222-222222222222"), "the device file holds the first edit only")
    }

    func test_Sync_deletionsPropagate() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let a = try Machine("a", dir: dir), b = try Machine("b", dir: dir)
        try await a.start(at: Self.day(0))
        try await a.crash("Corrected a waiter about risotto.", at: Self.day(0, 13))
        try await a.sync(shared, at: Self.day(0, 14))
        try await b.sync(shared, at: Self.day(0, 15))
        let gone = try await b.deleteFirstCrash(at: Self.day(1, 9))
        XCTAssertNotNil(gone)
        let e = try await converge([a, b], shared, at: Self.day(2))
        let live = try await a.store.repositories.crashes.getAll()
        XCTAssertTrue(live.isEmpty, "the crash deleted on b is deleted on a")
        // Soft-deleted: the note is still in the store and the export.
        try assertPresent(["Corrected a waiter about risotto."], in: e)
    }

    func test_Sync_aDeviceFileIsOnlyRewrittenWhenSomethingChanged() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let a = try Machine("a", dir: dir)
        try await a.start(at: Self.day(0))
        let first = try await a.sync(shared, at: Self.day(0, 10))
        XCTAssertTrue(first.wroteOwnFile)
        let again = try await a.sync(shared, at: Self.day(0, 11))
        XCTAssertFalse(again.wroteOwnFile)
        XCTAssertEqual(again.recordsChanged, 0)
        try await a.open(at: Self.day(1))
        let third = try await a.sync(shared, at: Self.day(1, 10))
        XCTAssertTrue(third.wroteOwnFile)
    }

    func test_Sync_readingOnlyNewRecordsMatchesReadingTheWholeFile() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let a = try Machine("a", dir: dir)
        try await a.start(at: Self.day(0))
        try await a.crash("a note with \"quotes\", a tab\tand\nlines", at: Self.day(0, 12))
        try await a.open(at: Self.day(1))
        try await a.mark(.applied, "Let Tom finish.", at: Self.day(1, 20))
        let report = try await a.sync(shared, at: Self.day(1, 21))
        let data = try Data(contentsOf: URL(fileURLWithPath: report.ownFile))
        let profile = try await a.store.repositories.users.get()
        let whole = try DeviceFileReader.decode(data, profile: try XCTUnwrap(profile).id)
        let chunks = try XCTUnwrap(DeviceFileReader.chunks(data), "the encoder's own output is not in the shape the reader cuts")
        let count = whole.users.count + whole.completions.count + whole.crashes.count + whole.versions.count
            + whole.events.count + whole.patterns.count + whole.diagnostics.count + whole.bugStates.count
        XCTAssertEqual(chunks.records.count, count)
        let all = try DeviceFileReader.decodeNew(data, chunks, known: [], profile: whole.profileId)
        XCTAssertEqual(try all.encoded(), try whole.encoded())
        // Known records are not decoded again; only the others are.
        let known = Set(chunks.records.filter { $0.table != "completions" }.map(\.hash))
        let fresh = try DeviceFileReader.decodeNew(data, chunks, known: known, profile: whole.profileId)
        XCTAssertEqual(fresh.completions, whole.completions)
        XCTAssertTrue(fresh.events.isEmpty && fresh.crashes.isEmpty && fresh.users.isEmpty)
        XCTAssertEqual(DeviceFileReader.decodeHashes(DeviceFileReader.encodeHashes(chunks.records.map(\.hash))),
                       Set(chunks.records.map(\.hash)))
        // Anything not in the encoder's shape is read whole instead.
        XCTAssertNil(DeviceFileReader.chunks(Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n    {", with: "\n  {").utf8)))
        XCTAssertNil(DeviceFileReader.chunks(data.prefix(data.count - 3)))
    }

    // MARK: - Bad input in the folder

    func test_Sync_badFilesAreSkippedWithOneWarningEach() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let a = try Machine("a", dir: dir), other = try Machine("other", dir: dir)
        try await a.start(at: Self.day(0))
        try await a.sync(shared, at: Self.day(0, 10))
        let before = try a.export(at: Self.day(1))
        // Another practice's file, made in a folder of its own and copied in.
        let elsewhere = dir.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try await other.start(at: Self.day(0))
        let otherReport = try await other.sync(elsewhere, at: Self.day(0, 10))
        let otherName = (otherReport.ownFile as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: otherReport.ownFile, toPath: shared + "/" + otherName)
        var rng = SplitMix64(seed: 34)
        let random = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let ownBytes = try Data(contentsOf: URL(fileURLWithPath: (try await a.sync(shared, at: Self.day(0, 11))).ownFile))
        let truncated = ownBytes.prefix(ownBytes.count / 2)
        let newer = String(decoding: ownBytes, as: UTF8.self)
            .replacingOccurrences(of: "\"formatVersion\" : 2", with: "\"formatVersion\" : 99")
        let names = ["random": DeviceFile.name(device: uuid("random")), "truncated": DeviceFile.name(device: uuid("truncated")),
                     "newer": DeviceFile.name(device: uuid("newer"))]
        try random.write(to: URL(fileURLWithPath: shared + "/" + (names["random"] ?? "")))
        try truncated.write(to: URL(fileURLWithPath: shared + "/" + (names["truncated"] ?? "")))
        try Data(newer.utf8).write(to: URL(fileURLWithPath: shared + "/" + (names["newer"] ?? "")))
        let r = try await a.sync(shared, at: Self.day(0, 12))
        XCTAssertEqual(r.warnings.count, 4, r.warnings.joined(separator: "\n"))
        for (file, why) in [(names["random"] ?? "", "is not JSON"), (names["truncated"] ?? "", "is not JSON"),
                            (names["newer"] ?? "", "newer egofix"), (otherName, "another practice")] {
            let line = r.warnings.first { $0.contains(file) }
            XCTAssertNotNil(line, "no warning names \(file)")
            XCTAssertTrue(line?.contains(why) == true, line ?? "")
            XCTAssertFalse(line?.contains("\n") == true)
        }
        XCTAssertEqual(r.recordsChanged, 0)
        XCTAssertEqual(try a.export(at: Self.day(1)), before, "nothing in the store changed because of the bad files")
    }

    /// One person about to travel: machine "a" in the `home` zone, its practice started at `start`,
    /// and the calendar of the zone it will sync from.
    func traveller(_ dir: TempDir, home: String, away: String, start: String) async throws -> (Machine, Calendar) {
        let m = try Machine("a", dir: dir, calendar: UserCalendar.make(timeZone: try XCTUnwrap(TimeZone(identifier: home))))
        try await m.start(at: try at(start))
        return (m, UserCalendar.make(timeZone: try XCTUnwrap(TimeZone(identifier: away))))
    }

    func at(_ text: String) throws -> Date { try XCTUnwrap(ISO8601DateFormatter().date(from: text)) }

    /// Fixes given on two days at home that fall on one day in another time zone stay two days'
    /// fixes when the machine syncs there: each keeps the day it was given for (one was superseded,
    /// and an applied fix lost, taking the version down).
    func test_Sync_daysGivenAtHomeStayApartWhenSyncingAway() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let (home, tokyo) = try await traveller(dir, home: "America/New_York", away: "Asia/Tokyo", start: "2026-03-02T09:00:00-05:00")
        // Late on the 3rd and early on the 4th in New York: both the 4th in Tokyo.
        for (given, text) in [("2026-03-03T23:00:00-05:00", "late"), ("2026-03-04T08:00:00-05:00", "early")] {
            try await home.open(at: try at(given))
            let marked = try await home.mark(.applied, text, at: try at(given).addingTimeInterval(60))
            XCTAssertTrue(marked, text)
        }
        let away = try Machine("a", dir: dir, calendar: tokyo)
        try await away.sync(shared, at: try at("2026-03-04T10:00:00-05:00"))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try away.export(at: try at("2026-03-04T10:05:00-05:00"))) as? [String: Any])
        let live = (doc["completions"] as? [[String: Any]] ?? []).filter { $0["deletedAt"] == nil }
        for text in ["late", "early"] {
            XCTAssertTrue(live.contains { $0["reflection"] as? String == text && $0["outcome"] as? String == "applied" }, "\(text): \(live)")
        }
    }

    /// A machine still on an egofix that does not keep the day a fix was given for writes its file
    /// in format 1, without `day`: merged here, the days stay (its copies won ties by their
    /// shorter bytes and the day was lost on every machine); this machine's file is format 2,
    /// which such an egofix skips with a warning rather than stripping the days.
    func test_Sync_anOlderMachinesFileWithoutDaysLeavesTheDays() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        try await a.open(at: Self.day(1, 9))
        _ = try await a.mark(.applied, "Given on day 1.", at: Self.day(1, 10))
        try await a.sync(shared, at: Self.day(1, 11))
        let own = try await b.sync(shared, at: Self.day(1, 12)).ownFile
        let text = try String(contentsOfFile: own, encoding: .utf8)
        XCTAssertTrue(text.contains("\"formatVersion\" : 2"), "this egofix writes format 2")
        let older = text.replacingOccurrences(of: #"\n\s*"day" : \d+,"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "\"formatVersion\" : 2", with: "\"formatVersion\" : 1")
        XCTAssertFalse(older.contains("\"day\""))
        try older.write(toFile: own, atomically: true, encoding: .utf8)
        let report = try await a.sync(shared, at: Self.day(1, 13))
        XCTAssertEqual(report.warnings, [])
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try a.export(at: Self.day(1, 14))) as? [String: Any])
        let completions = try XCTUnwrap(doc["completions"] as? [[String: Any]])
        XCTAssertFalse(completions.isEmpty)
        for c in completions { XCTAssertNotNil(c["day"], "\(c)") }
    }

    /// `import --replace` gives a store a new device id: the file of the id it had is merged once
    /// more and then removed, so the folder holds one file per machine again (it stayed for good,
    /// merged as a third machine's at every sync); what it held is not lost.
    func test_Sync_aStoreReplacedByImportLeavesNoFileBehind() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        let backup = try b.export(at: Self.day(0, 12))
        _ = try await b.mark(.applied, "Written after the backup.", at: Self.day(0, 13))
        try await b.sync(shared, at: Self.day(0, 14))
        try b.store.importJSON(backup, replace: true, backupPath: nil)
        let report = try await b.sync(shared, at: Self.day(1, 9))
        XCTAssertEqual(report.merged.count, 2, "a's file and b's old one, once")
        let files = try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasPrefix("egofix-device-") }
        XCTAssertEqual(files.count, 2, "\(files)")
        let other = try await a.sync(shared, at: Self.day(1, 10))
        XCTAssertEqual(other.merged.count, 1)
        let export = try await converge([a, b], shared, at: Self.day(1, 11))
        XCTAssertTrue(String(decoding: export, as: UTF8.self).contains("Written after the backup."))
    }

    /// Six days in Berlin, opened alternately late at night and early in the morning, then a sync
    /// in Tokyo: the streak is the six days it counted in Berlin. Replayed in Tokyo's zone, those
    /// instants fell on four days with three gaps, and the sync reset the streak to 1.
    func test_Sync_aStreakKeepsTheDaysItCountedWhereItWasCounted() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let (home, tokyo) = try await traveller(dir, home: "Europe/Berlin", away: "Asia/Tokyo", start: "2026-06-01T00:30:00+02:00")
        for text in ["2026-06-02T23:30:00+02:00", "2026-06-03T00:30:00+02:00", "2026-06-04T23:30:00+02:00",
                     "2026-06-05T00:30:00+02:00", "2026-06-06T23:30:00+02:00"] {
            try await home.open(at: try at(text))
        }
        func streak(_ m: Machine) async throws -> Int? { try await m.store.repositories.users.get()?.currentStreak }
        let before = try await streak(home)
        XCTAssertEqual(before, 6)
        let away = try Machine("a", dir: dir, calendar: tokyo)
        try await away.sync(shared, at: try at("2026-06-07T12:00:00+09:00"))
        let after = try await streak(away)
        XCTAssertEqual(after, 6, "the sync in Tokyo kept Berlin's six days")
    }

    /// The same crash logged on both machines queues the same quick fix on each: after syncing, one
    /// waits, as a second crash queues nothing while its bug's quick fix waits (it waited twice).
    func test_Sync_aQuickFixQueuedOnBothMachinesWaitsOnce() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        for (m, at) in [(a, Self.day(1, 12)), (b, Self.day(1, 13))] {
            m.clock.now = at
            _ = try await m.store.transaction {
                try await CrashService(repos: m.store.repositories, calendar: m.calendar).logCrash(bugId: nil, note: nil, at: at)
            }
        }
        let export = try await converge([a, b], shared, at: Self.day(1, 14))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: export) as? [String: Any])
        let waiting = (doc["completions"] as? [[String: Any]] ?? []).filter {
            $0["deletedAt"] == nil && $0["outcome"] as? String == "pending" && ($0["assignedAt"] as? String ?? "") >= "2026-03-03T11"
        }
        XCTAssertEqual(waiting.count, 1, "\(waiting)")
    }

    /// A week's diagnostic done on the laptop on Sunday and on the desktop on Monday: after syncing,
    /// the week holds one (the first done), on both machines; the other is superseded, not lost
    /// from the streak (its event stays). Two ratings for one week made a bug stable in two weeks.
    func test_Sync_aWeekRatedOnBothMachinesKeepsOneDiagnostic() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        for (m, at, intensity) in [(a, Self.day(6, 19), BugIntensity.quiet), (b, Self.day(7, 9), BugIntensity.loud)] {
            let service = DiagnosticService(repos: m.store.repositories, calendar: m.calendar)
            let bugs = try await service.bugsToAsk()
            _ = try await service.complete(bugs.map { BugDiagnosticResponse(bugId: $0.id, intensity: intensity, primaryContext: intensity == .quiet ? nil : .work) },
                                           at: at)
        }
        let export = try await converge([a, b], shared, at: Self.day(7, 12))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: export) as? [String: Any])
        let diagnostics = try XCTUnwrap(doc["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(diagnostics.count, 2)
        let live = diagnostics.filter { $0["deletedAt"] == nil || $0["deletedAt"] is NSNull }
        XCTAssertEqual(live.count, 1, "\(diagnostics)")
        XCTAssertTrue((live.first?["responses"] as? [[String: Any]])?.first?["intensity"] as? String == "quiet", "the first done is kept")
    }

    /// Two machines that find the same pattern on their own hold it under the same derived id, with
    /// their own token and figures: syncing in any order, both end with the same copy, viewed when
    /// it was last viewed on either (they kept their own before, and the exports never agreed).
    func test_Sync_aPatternBothMachinesFoundConverges() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        let profile = try await a.store.repositories.users.get()
        let user = try XCTUnwrap(profile)
        let id = uuid("pattern")
        for (m, p) in [(a, 0.01), (b, 0.03)] {
            try await m.store.repositories.patterns.save(DetectedPattern(
                id: id, userId: user.id, patternType: .temporalCrash, severity: .insight, title: "Mondays", body: "Crashes cluster on Mondays.",
                relatedBugIds: [], dataPoints: 12, pValue: p, detectedAt: Self.day(1, 9), viewedAt: m === a ? Self.day(1, 10) : Self.day(1, 11)))
        }
        let export = try await converge([b, a], shared, at: Self.day(1, 12))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: export) as? [String: Any])
        let pattern = try XCTUnwrap((doc["patterns"] as? [[String: Any]])?.first { $0["id"] as? String == id.uuidString })
        XCTAssertEqual(pattern["viewedAt"] as? String, "2026-03-03T11:00:00.000Z", "the last viewing is kept whichever copy wins")
    }

    /// A device file is held to an import's rules: a profile counter or day far out of range (which
    /// would overflow the streak's arithmetic), an event's weekday that is none, or an instant after 2099 makes
    /// the file skipped whole, with one warning, and sync goes on working.
    func test_Sync_aFileOutsideImportsBoundsIsSkippedWithOneWarning() async throws {
        let (shared, a, b) = try await twoMachinesInSync()
        let own = try await b.sync(shared, at: Self.day(0, 12)).ownFile
        let good = try String(contentsOfFile: own, encoding: .utf8)
        let before = try a.export(at: Self.day(1))
        for (pattern, bad) in [(#""currentStreak" : \d+"#, #""currentStreak" : 9223372036854775807"#),
                               (#""lastEngagementDay" : \d+"#, #""lastEngagementDay" : -9223372036854775808"#),
                               (#""dayOfWeek" : \d+"#, #""dayOfWeek" : 8"#),
                               (#""assignedAt" : "[^"]+""#, #""assignedAt" : "2100-01-01T00:00:00Z""#)] {
            let mangled = good.replacingOccurrences(of: pattern, with: bad, options: .regularExpression)
            XCTAssertNotEqual(mangled, good, pattern)
            try mangled.write(toFile: own, atomically: true, encoding: .utf8)
            let r = try await a.sync(shared, at: Self.day(0, 13))
            XCTAssertEqual(r.warnings.count, 1, r.warnings.joined(separator: "\n"))
            XCTAssertTrue(r.warnings.first?.contains("breaks a rule") == true, r.warnings.first ?? "")
            XCTAssertEqual(r.recordsChanged, 0, bad)
        }
        XCTAssertEqual(try a.export(at: Self.day(1)), before, "nothing merged from the bad files")
        try good.write(toFile: own, atomically: true, encoding: .utf8)
        let clean = try await a.sync(shared, at: Self.day(0, 14))
        XCTAssertEqual(clean.warnings, [])
    }

    // MARK: - Property: random operations on three machines

    /// Opening and marking fixes, crashes with notes, reboots, deleted crashes, bugs activated and
    /// deactivated, and syncs, on three machines over 60 days (seed 34); then every machine syncs
    /// twice in turn: the exports are byte-identical, every acknowledged text is in them, no day
    /// holds two live daily fixes, and the version follows from the applied fixes.

    func test_Sync_randomOperationsOnThreeMachinesConvergeWithoutLoss() async throws {
        let dir = try TempDir(), shared = try folder(dir)
        let ms = try ["a", "b", "c"].map { try Machine($0, dir: dir) }
        var rng = SplitMix64(seed: 34)
        try await ms[0].start(at: Self.day(0))
        try await ms[0].sync(shared, at: Self.day(0, 9))
        try await ms[1].sync(shared, at: Self.day(0, 9, minute: 1))
        try await ms[2].sync(shared, at: Self.day(0, 9, minute: 2))
        var deleted = 0
        for n in 1...60 {
            // Each day, a few steps on random machines, at increasing minutes.
            var minute = 0
            for _ in 0..<(2 + Int(rng.next() % 5)) {
                minute += 1 + Int(rng.next() % 90)
                let at = Self.day(n, 8, minute: minute)
                let m = ms[Int(rng.next() % 3)]
                switch rng.next() % 11 {
                case 0, 1: try await m.open(at: at)
                case 2, 3, 4:
                    let outcome: FixOutcome = [.applied, .skipped, .failed][Int(rng.next() % 3)]
                    try await m.mark(outcome, rng.next() % 4 == 0 ? nil : "d\(n) \(m.name) \(outcome.rawValue) \(minute)", at: at)
                case 5: try await m.crash("crash d\(n) \(m.name) \(minute)", at: at)
                case 6: try await m.reboot(at: at)
                case 7: if rng.next() % 4 == 0, try await m.deleteFirstCrash(at: at) != nil { deleted += 1 }
                case 8 where rng.next() % 3 == 0:
                    let slugs = ["need-to-be-liked", "need-to-impress", "need-to-be-busy", "fear-of-ordinary"]
                    try await m.toggleBug(slugs[Int(rng.next() % 4)], at: at)
                default: try await m.sync(shared, at: at)
                }
            }
        }
        let e = try await converge(ms, shared, at: Self.day(62))
        try assertPresent(ms.flatMap(\.written), in: e)
        // One live daily fix a day at most, and the profile's numbers follow from the records.
        let cal = ms[0].calendar
        let fixes = try await ms[0].store.repositories.fixes.getAll()
        let daily = Set(fixes.filter { $0.type != .quickFix }.map(\.id))
        let live = try await ms[0].store.repositories.completions.getAll()
        var perDay: [Int: Int] = [:]
        for c in live where daily.contains(c.fixId) { perDay[LocalDay(c.assignedAt, calendar: cal).ordinal, default: 0] += 1 }
        XCTAssertEqual(perDay.values.filter { $0 > 1 }.count, 0, "a day holds two live daily fixes")
        let applied = live.filter { $0.outcome == .applied }.count
        let u = try await ms[0].store.repositories.users.get()
        XCTAssertEqual(u?.currentVersion, VersionRules.version(forAppliedCount: applied).description)
        for m in ms { XCTAssertEqual(try m.store.integrityCheck(), "ok") }
        XCTAssertGreaterThan(ms.flatMap(\.written).count, 20, "the sequence recorded too little to mean anything")
        _ = deleted
    }
}
