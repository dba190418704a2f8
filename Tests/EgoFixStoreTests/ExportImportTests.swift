import XCTest
import EgoFixCore
import GRDB
@testable import EgoFixStore

final class ExportImportTests: XCTestCase {
    private let clock = TestClock(Fixture.start.addingTimeInterval(0.123_456_789))

    private func open(_ path: String) throws -> SQLiteStore {
        let c = clock
        return try SQLiteStore(path: path, clock: { c.now })
    }

    /// A reflection of exactly `Thresholds.maxMarkdownBytes` UTF-8 bytes, non-ASCII included.
    static let longestReflection: String = {
        let head = "Ça m'a coûté — 日本語 🙂\n\n"
        return head + String(repeating: "a", count: Thresholds.maxMarkdownBytes - head.utf8.count)
    }()

    /// A store with a practice in it: profile, completions (non-ASCII, maximal, deleted), crashes, diagnostics,
    /// patterns, version entries, events, and soft-deleted records of several kinds.
    private func populatedStore(_ dir: TempDir) async throws -> SQLiteStore {
        let store = try open(dir.file("source.sqlite"))
        let catalogue = try Fixture.builtInCatalogue()
        try store.loadCatalogue(catalogue)
        let r = store.repositories
        let cal = Fixture.calendar

        let bug = catalogue.bugs[0], other = catalogue.bugs[1]
        var b = bug
        b.isActive = true
        b.status = .active
        b.activatedAt = clock.now
        try await r.bugs.save(b)

        var profile = UserProfile(currentVersion: "1.2", primaryBugId: bug.id, currentStreak: 3, longestStreak: 9,
                                  lastEngagementDate: clock.now, streakFreezeAvailable: false, freezeUsedWeekStart: 20_514,
                                  lastTidbitId: catalogue.education[0].id, createdAt: clock.now, syncToken: "tok")
        profile.lastSyncedAt = nil
        try await r.users.save(profile)

        let fixes = catalogue.fixes.filter { $0.bugId == bug.id }
        let reflections = ["Ça m'a coûté — 日本語 🙂", Self.longestReflection, "Plain.\n\n- a list\n- \"quoted\" \\ back", "<b>not html</b> &amp;"]
        for (i, text) in reflections.enumerated() {
            var c = FixCompletion(id: uuid("completion-\(i)"), fixId: fixes[i].id, userId: profile.id,
                                  assignedAt: clock.now.addingTimeInterval(Double(i) * 86_400 + 0.000_001))
            let data = try JSONEncoder().encode(InteractionOutcome(count: i, optionId: "b"))
            try c.mark(i == 2 ? .failed : .applied, at: c.assignedAt.addingTimeInterval(3600.5), reflection: text, outcomeData: data)
            try await r.completions.save(c)
            try await r.events.save(AnalyticsEvent.make(id: uuid("event-\(i)"), userId: profile.id, type: .fixApplied,
                                                        bugId: bug.id, fixId: fixes[i].id, context: .work,
                                                        at: c.completedAt ?? c.assignedAt, calendar: cal))
        }
        let pending = FixCompletion(id: uuid("completion-pending"), fixId: fixes[5].id, userId: profile.id,
                                    assignedAt: clock.now.addingTimeInterval(5 * 86_400))
        try await r.completions.save(pending)
        try await r.completions.delete(uuid("completion-3"))

        var crash = Crash(id: uuid("crash-1"), userId: profile.id, bugId: bug.id, note: "Standup. Again — ça.", crashedAt: clock.now)
        crash.reboot(at: clock.now.addingTimeInterval(7200))
        try await r.crashes.save(crash)
        try await r.crashes.save(Crash(id: uuid("crash-2"), userId: profile.id, bugId: nil, crashedAt: clock.now.addingTimeInterval(99)))
        try await r.crashes.save(Crash(id: uuid("crash-3"), userId: profile.id, bugId: other.id, note: "gone", crashedAt: clock.now.addingTimeInterval(5)))
        try await r.crashes.delete(uuid("crash-3"))

        try await r.diagnostics.save(WeeklyDiagnostic(
            id: uuid("diag-1"), userId: profile.id, weekStarting: Fixture.start,
            responses: [BugDiagnosticResponse(bugId: bug.id, intensity: .present, primaryContext: .home),
                        BugDiagnosticResponse(bugId: other.id, intensity: .quiet)],
            completedAt: clock.now.addingTimeInterval(6 * 86_400)))
        try await r.diagnostics.save(WeeklyDiagnostic(id: uuid("diag-0"), userId: profile.id,
                                                      weekStarting: Fixture.start.addingTimeInterval(-7 * 86_400),
                                                      responses: [], completedAt: clock.now))
        try await r.diagnostics.delete(uuid("diag-0"))

        try await r.patterns.save(DetectedPattern(id: uuid("pattern-1"), userId: profile.id, patternType: .correlatedBugs,
                                                  severity: .insight, title: "Two bugs travel together",
                                                  body: "When one is loud, so is the other.", relatedBugIds: [bug.id, other.id],
                                                  dataPoints: 9, pValue: 0.012_345_678_9, basis: "based on 9 weeks",
                                                  detectedAt: clock.now, viewedAt: clock.now.addingTimeInterval(1)))
        try await r.patterns.save(DetectedPattern(id: uuid("pattern-2"), userId: profile.id, patternType: .plateau,
                                                  severity: .observation, title: "t", body: "b", relatedBugIds: [],
                                                  dataPoints: 3, detectedAt: clock.now.addingTimeInterval(2)))
        try await r.patterns.delete(uuid("pattern-2"))

        try await r.versions.save(VersionEntry(id: uuid("v-1.1"), userId: profile.id, version: "1.1", changeType: .minorUpdate,
                                               description: "7 fixes applied", createdAt: clock.now.addingTimeInterval(10)))
        try await r.versions.save(VersionEntry(id: uuid("v-crash"), userId: profile.id, version: "1.1", changeType: .crash,
                                               description: "crash", createdAt: clock.now.addingTimeInterval(11)))
        try await r.versions.delete(uuid("v-crash"))
        try await r.events.delete(uuid("event-1"))
        try await r.fixes.delete(fixes[20].id)
        try await r.education.delete(catalogue.education[5].id)
        return store
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func mutate(_ data: Data, _ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try json(data)
        change(&object)
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    private func setField(_ object: inout [String: Any], _ table: String, _ index: Int, _ field: String, _ value: Any) {
        var rows = object[table] as? [[String: Any]] ?? []
        rows[index][field] = value
        object[table] = rows
    }

    // MARK: - Round trip

    func test_exportImportExport_isByteIdentical() async throws {
        let dir = try TempDir()
        let source = try await populatedStore(dir)
        let first = try source.exportJSON()

        let target = try open(dir.file("target.sqlite"))
        let report = try target.importJSON(first, replace: false, backupPath: nil)
        XCTAssertFalse(report.replaced)
        XCTAssertEqual(report.count("completions"), 5)
        let catalogue = try Fixture.builtInCatalogue()
        XCTAssertEqual(report.summary, "5 bugs, \(catalogue.fixes.count) fixes, 5 fixes given, 3 crashes, 1 profile, 2 changelog entries, "
                       + "4 events, 2 patterns, 2 weekly diagnostics, \(catalogue.education.count) tidbits")
        XCTAssertEqual(report.count("fixes"), catalogue.fixes.count)
        let second = try target.exportJSON()
        XCTAssertEqual(first, second, "export → import → export must give the same bytes")
        // An export gives each key once: the import's second look at duplicate keys is not taken.
        let parsed = try JSONSerialization.jsonObject(with: first)
        XCTAssertEqual(ImportValidation.keyCount(in: first), ImportValidation.keyCount(in: parsed))
        XCTAssertEqual(ImportValidation.keyCount(in: Data(#"{"a": "x\"y:", "a" : {"b":1}, "c": ["d:", {"e" :2}]}"#.utf8)), 5)

        // And the imported store answers queries exactly like the original.
        let a = try await source.repositories.completions.getAll()
        let b = try await target.repositories.completions.getAll()
        XCTAssertEqual(a, b)
        XCTAssertTrue(b.contains { $0.reflection == Self.longestReflection })
        XCTAssertEqual(Self.longestReflection.utf8.count, Thresholds.maxMarkdownBytes)
        let pa = try await source.repositories.users.get()
        let pb = try await target.repositories.users.get()
        XCTAssertEqual(pa, pb)
        let da = try await source.repositories.diagnostics.getAll()
        let db = try await target.repositories.diagnostics.getAll()
        XCTAssertEqual(da, db)
    }

    /// An export from an egofix before the day a fix was given for was kept (format 1, no `day`)
    /// still imports; this egofix writes format 2, which such an egofix refuses as newer rather
    /// than dropping the days without a word.
    func test_aFormatOneExportStillImports() async throws {
        let dir = try TempDir()
        let current = try await populatedStore(dir).exportJSON()
        let older = try mutate(current) { o in
            o["formatVersion"] = 1
            o["completions"] = (o["completions"] as? [[String: Any]] ?? []).map { c in c.filter { $0.key != "day" } }
        }
        let target = try open(dir.file("older.sqlite"))
        XCTAssertEqual(try target.importJSON(older, replace: false, backupPath: nil).count("completions"), 5)
        XCTAssertTrue(String(decoding: try target.exportJSON(), as: UTF8.self).contains("\"formatVersion\" : 2"))
    }

    func test_export_isCanonical_andKeepsSoftDeletedRecords() async throws {
        let dir = try TempDir()
        let store = try await populatedStore(dir)
        let data = try store.exportJSON()
        XCTAssertEqual(try store.exportJSON(), data, "the same store always exports the same bytes")
        let object = try json(data)
        XCTAssertEqual(object["formatVersion"] as? Int, 2)
        XCTAssertEqual(Set(object.keys), ["formatVersion", "bugs", "fixes", "completions", "crashes", "users", "versions",
                                          "events", "patterns", "diagnostics", "education"])
        XCTAssertEqual((object["completions"] as? [Any])?.count, 5, "the soft-deleted completion is exported too")
        XCTAssertEqual((object["crashes"] as? [Any])?.count, 3)
        XCTAssertEqual((object["patterns"] as? [Any])?.count, 2)
        XCTAssertEqual((object["versions"] as? [Any])?.count, 2)
        XCTAssertEqual((object["diagnostics"] as? [Any])?.count, 2)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("\"createdAt\" : \"1970-01-01T00:00:00.000Z\""), "instants are UTC ISO 8601 with fractional seconds")
        XCTAssertTrue(text.contains("Ça m'a coûté — 日本語 🙂"))
        XCTAssertTrue(text.hasSuffix("}\n"))
        // Sorted keys: in every record, "id" comes after "createdAt".
        let first = try XCTUnwrap(text.range(of: "\"createdAt\""))
        let id = try XCTUnwrap(text.range(of: "\"id\""))
        XCTAssertLessThan(first.lowerBound, id.lowerBound)
        // Records in a total order: completions by assignedAt, then id.
        let completions = try XCTUnwrap(object["completions"] as? [[String: Any]])
        let assigned = completions.compactMap { $0["assignedAt"] as? String }
        XCTAssertEqual(assigned, assigned.sorted())
    }

    func test_emptyStore_exportsEveryTableAsAnEmptyList_andReimportsIdentically() throws {
        let dir = try TempDir()
        let store = try open(dir.file("a.sqlite"))
        let data = try store.exportJSON()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("\"completions\" : [],"), text)
        XCTAssertTrue(text.contains("\"formatVersion\" : 2,"), text)
        let other = try open(dir.file("b.sqlite"))
        try other.importJSON(data, replace: false, backupPath: nil)
        XCTAssertEqual(try other.exportJSON(), data)
    }

    func test_instants_roundTripExactly() {
        let samples: [Date] = [
            Date(timeIntervalSince1970: 0), Fixture.start, Fixture.start.addingTimeInterval(0.123_456_789),
            Date(timeIntervalSinceReferenceDate: 794_131_200.000_000_1), Date(timeIntervalSinceReferenceDate: -0.5),
            Date(timeIntervalSinceReferenceDate: 1e-9), Date(timeIntervalSince1970: 951_782_400), // 2000-02-29
            Date(timeIntervalSince1970: 4_102_444_799.999),
        ]
        for d in samples {
            let s = Instant.format(d) ?? "nil"
            XCTAssertEqual(Instant.parse(s), d, s)
            XCTAssertTrue(s.hasSuffix("Z"))
        }
        XCTAssertNil(Instant.format(Date(timeIntervalSinceReferenceDate: .nan)))
        XCTAssertNil(Instant.format(Date(timeIntervalSinceReferenceDate: 1e300)))
        XCTAssertNil(Instant.format(Date(timeIntervalSince1970: 253_402_300_800)), "year 10000 could not be read back")
        XCTAssertEqual(Instant.format(Fixture.start), "2026-03-02T08:00:00.000Z")
        XCTAssertEqual(Instant.format(Date(timeIntervalSince1970: 951_782_400.25)), "2000-02-29T00:00:00.250Z")
        // A stamp a millisecond on reads ".001", as it reads back (it was ".001000046730041504Z").
        let stamp = Fixture.start.addingTimeInterval(0.001)
        XCTAssertEqual(Instant.format(stamp), "2026-03-02T08:00:00.001Z")
        XCTAssertEqual(Instant.parse("2026-03-02T08:00:00.001Z"), stamp)
        XCTAssertNil(Instant.parse("2026-02-30T08:00:00.000Z"))
        XCTAssertNil(Instant.parse("2026-03-02 08:00:00"))
        XCTAssertNil(Instant.parse("yesterday"))
    }

    // MARK: - Refusals

    private func assertUnchanged(_ store: SQLiteStore, _ before: Data, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try store.exportJSON(), before, "a refused import changes nothing", file: file, line: line)
    }

    func test_malformedFile_isRefusedClearly_andChangesNothing() async throws {
        let dir = try TempDir()
        let store = try await populatedStore(dir)
        let before = try store.exportJSON()
        let backup = dir.file("backup.sqlite")
        XCTAssertThrowsError(try store.importJSON(Data("{ \"formatVersion\": 1, bugs: [".utf8), replace: true, backupPath: backup)) { error in
            guard case StoreError.importNotJSON = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".hasPrefix("import refused: the file is not valid JSON"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("Nothing was changed."), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"), "\(error)")
        }
        try assertUnchanged(store, before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: backup), "nothing is written, not even a backup")
    }

    func test_truncatedFile_isRefusedClearly_andChangesNothing() async throws {
        let dir = try TempDir()
        let source = try await populatedStore(dir)
        let full = try source.exportJSON()
        let target = try open(dir.file("target.sqlite"))
        let before = try target.exportJSON()
        XCTAssertThrowsError(try target.importJSON(full.prefix(full.count / 2), replace: false, backupPath: nil)) { error in
            guard case StoreError.importNotJSON = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("may be truncated"), "\(error)")
        }
        try assertUnchanged(target, before)
        let profile = try await target.repositories.users.get()
        XCTAssertNil(profile)
    }

    func test_importIntoAStoreWithAPractice_needsReplace() async throws {
        let dir = try TempDir()
        let source = try await populatedStore(dir)
        let data = try source.exportJSON()
        let target = try open(dir.file("target.sqlite"))
        try await target.repositories.users.save(UserProfile(createdAt: Fixture.start))
        let before = try target.exportJSON()
        XCTAssertThrowsError(try target.importJSON(data, replace: false, backupPath: nil)) { error in
            guard case StoreError.importWouldOverwrite = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("--replace"), "\(error)")
            XCTAssertTrue("\(error)".contains("already holds a practice (1 profile)"), "\(error)")
        }
        try assertUnchanged(target, before)
    }

    func test_replaceWithBackup_copiesTheOldStoreFirst_thenHoldsExactlyTheFile() async throws {
        let dir = try TempDir()
        let source = try await populatedStore(dir)
        let data = try source.exportJSON()
        let target = try open(dir.file("target.sqlite"))
        let oldProfile = UserProfile(id: uuid("old-user"), createdAt: Fixture.start)
        try await target.repositories.users.save(oldProfile)
        let oldExport = try target.exportJSON()

        let backup = dir.file("backups/before-import.sqlite")
        let report = try target.importJSON(data, replace: true, backupPath: backup)
        XCTAssertTrue(report.replaced)
        XCTAssertEqual(report.backupPath, backup)
        XCTAssertEqual(try target.exportJSON(), data, "after a replace the store holds exactly the file")

        let restored = try open(backup)
        XCTAssertEqual(try restored.exportJSON(), oldExport, "the backup is the store as it was")
        let p = try await restored.repositories.users.get()
        XCTAssertEqual(p?.id, oldProfile.id)

        // A backup never overwrites an existing file.
        XCTAssertThrowsError(try target.importJSON(data, replace: true, backupPath: backup)) { error in
            guard case StoreError.backupFailed = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try target.exportJSON(), data)
    }

    func test_invalidRecords_areNamedByTableIndexAndField_andNothingIsWritten() async throws {
        let dir = try TempDir()
        let source = try await populatedStore(dir)
        let data = try source.exportJSON()
        let target = try open(dir.file("target.sqlite"))
        let before = try target.exportJSON()

        func refused(_ bad: Data, _ expected: String, line: UInt = #line) {
            XCTAssertThrowsError(try target.importJSON(bad, replace: false, backupPath: nil), line: line) { error in
                guard case StoreError.importInvalid(let issues) = error else { return XCTFail("\(error)", line: line) }
                XCTAssertEqual(issues.first?.description.hasPrefix(expected), true, "\(issues)", line: line)
                XCTAssertTrue("\(error)".hasPrefix("import refused: \(expected)"), "\(error)", line: line)
                XCTAssertFalse("\(error)".contains("\n"), line: line)
            }
        }

        let unknownFix = uuid("nowhere").uuidString
        refused(try mutate(data) { setField(&$0, "completions", 1, "fixId", unknownFix) },
                "completions[1].fixId: refers to fix \(unknownFix), which is not in the file")
        refused(try mutate(data) { setField(&$0, "fixes", 7, "bugId", unknownFix) },
                "fixes[7].bugId: refers to bug \(unknownFix)")
        refused(try mutate(data) { setField(&$0, "crashes", 0, "bugId", unknownFix) },
                "crashes[0].bugId: refers to bug")
        refused(try mutate(data) { setField(&$0, "completions", 0, "reflection", Self.longestReflection + "é") },
                "completions[0].reflection: \(Thresholds.maxMarkdownBytes + 2) bytes, over the limit of \(Thresholds.maxMarkdownBytes)")
        refused(try mutate(data) { setField(&$0, "crashes", 1, "note", String(repeating: "n", count: Thresholds.maxMarkdownBytes + 1)) },
                "crashes[1].note:")
        refused(try mutate(data) { o in
            let rows = o["events"] as? [[String: Any]] ?? []
            o["events"] = rows + [rows[0]]
        }, "events[4].id: ")
        refused(try mutate(data) { setField(&$0, "crashes", 0, "crashedAt", "yesterday") },
                "crashes[0].crashedAt: \"yesterday\" is not a UTC ISO 8601 instant")
        refused(try mutate(data) { setField(&$0, "completions", 2, "outcome", "maybe") },
                "completions[2].outcome: \"maybe\" is not one of the allowed values")
        refused(try mutate(data) { setField(&$0, "completions", 2, "id", "nope") }, "completions[2].id: is not a UUID like ")
        refused(try mutate(data) { $0["users"] = [NSNull()] }, "users[0]: is null, expected an object")
        refused(try mutate(data) { o in
            var rows = o["users"] as? [[String: Any]] ?? []
            rows[0].removeValue(forKey: "currentVersion")
            o["users"] = rows
        }, "users[0].currentVersion: missing")
        // Counters and days whose arithmetic would overflow (a streak one longer, a day added).
        refused(try mutate(data) { setField(&$0, "users", 0, "currentStreak", Int.max) },
                "users[0].currentStreak: \(Int.max) is not between 0 and 100000")
        refused(try mutate(data) { setField(&$0, "users", 0, "lastEngagementDay", Int.min) },
                "users[0].lastEngagementDay: \(Int.min) is not a day from 1900 to 2200")
        refused(try mutate(data) { setField(&$0, "users", 0, "freezeUsedWeekStart", 10_000_000) },
                "users[0].freezeUsedWeekStart: 10000000 is not a day")
        refused(try mutate(data) { setField(&$0, "completions", 0, "day", 9_000_000) }, "completions[0].day: 9000000 is not a day from 1900 to 2200")
        // An event's weekday gives the day it counted for the streak; the detectors read both.
        refused(try mutate(data) { setField(&$0, "events", 1, "dayOfWeek", 99) }, "events[1].dayOfWeek: 99 is not a weekday from 1 (Sunday) to 7")
        refused(try mutate(data) { setField(&$0, "events", 2, "hourOfDay", -1) }, "events[2].hourOfDay: -1 is not an hour from 0 to 23")
        refused(try mutate(data) { $0["users"] = [] as [Any] }, "users: no live profile, but ")
        refused(try mutate(data) { $0.removeValue(forKey: "events") }, "events: missing")
        refused(Data("[1, 2]".utf8), "")
        refused(Data("{}".utf8), "the file is not an EgoFix export (it has no formatVersion)")

        XCTAssertThrowsError(try target.importJSON(try mutate(data) { $0["formatVersion"] = 3 }, replace: false, backupPath: nil)) { error in
            guard case StoreError.importNewerFormat(3, 2) = error else { return XCTFail("\(error)") }
        }
        try assertUnchanged(target, before)
    }

    func test_importIntoAStoreWithOnlyTheCatalogue_replacesTheCatalogue() async throws {
        let dir = try TempDir()
        let source = try await populatedStore(dir)
        let data = try source.exportJSON()
        let target = try open(dir.file("target.sqlite"))
        try target.loadCatalogue(try Fixture.builtInCatalogue())
        try target.setMeta("catalogue", "fingerprint of the seeds loaded before")
        let report = try target.importJSON(data, replace: false, backupPath: nil)
        XCTAssertFalse(report.replaced, "a catalogue alone is not a practice")
        XCTAssertNil(try target.meta("catalogue"), "the import replaced the catalogue the fingerprint described")
        XCTAssertEqual(try target.exportJSON(), data)
    }

    /// A failed backup says why in words: SQLite's backup error carries the other connection's
    /// message, and a full disk read "failed (not an error)".
    func test_importBackupFailureSaysWhy() {
        XCTAssertEqual(SQLiteStore.reason(DatabaseError(resultCode: .SQLITE_FULL, message: "not an error")), "database or disk is full")
        XCTAssertEqual(SQLiteStore.reason(DatabaseError(resultCode: .SQLITE_FULL, message: nil)), "database or disk is full")
        XCTAssertEqual(SQLiteStore.reason(DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error")), "disk I/O error")
    }
}
