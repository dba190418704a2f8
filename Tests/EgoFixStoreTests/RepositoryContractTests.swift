import XCTest
import EgoFixCore
@testable import EgoFixStore

/// The repository behaviours of EgoFixCoreTests/RepositoryTests, run against both the in-memory and the
/// SQLite implementation: the CLI uses one and the tests of every other module the other, so they must agree.
final class RepositoryContractTests: XCTestCase {
    private func onEachBackend(_ body: (Backend) async throws -> Void) async throws {
        for b in Backend.allCases { try await body(b) }
    }

    func test_FixRepo_getDailyFix_excludesCompleted() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            let bug = w.bugs[0]
            let dailies = w.fixes.filter { $0.bugId == bug.id && $0.type == .daily }.sorted { $0.number < $1.number }
            let first = try await w.repos.fixes.getDailyFix(for: bug.id, excluding: [])
            XCTAssertEqual(first?.id, dailies[0].id, "\(backend)")
            let next = try await w.repos.fixes.getDailyFix(for: bug.id, excluding: [dailies[0].id, dailies[1].id])
            XCTAssertEqual(next?.id, dailies[2].id, "\(backend)")
            let none = try await w.repos.fixes.getDailyFix(for: bug.id, excluding: dailies.map(\.id))
            XCTAssertNil(none, "\(backend): quick and weekly fixes are not daily fixes")
        }
    }

    func test_FixRepo_getDailyFix_matchesBug() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend, bugs: ["need-to-be-right", "need-to-be-liked"], activeSlugs: ["need-to-be-right"])
            let right = w.bugs[0], liked = w.bugs[1]
            let f = try await w.repos.fixes.getDailyFix(for: right.id, excluding: [])
            XCTAssertEqual(f?.bugId, right.id, "\(backend)")
            let inactive = try await w.repos.fixes.getDailyFix(for: liked.id, excluding: [])
            XCTAssertNil(inactive, "\(backend): an inactive bug gets no daily fix")
            try await w.repos.bugs.delete(right.id)
            let deleted = try await w.repos.fixes.getDailyFix(for: right.id, excluding: [])
            XCTAssertNil(deleted, "\(backend): a deleted bug gets no daily fix")
            let unknown = try await w.repos.fixes.getDailyFix(for: UUID(), excluding: [])
            XCTAssertNil(unknown, "\(backend)")
        }
    }

    func test_FixRepo_getDailyFix_skipsDeletedFixes() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            let dailies = w.fixes.filter { $0.type == .daily }.sorted { $0.number < $1.number }
            try await w.repos.fixes.delete(dailies[0].id)
            let f = try await w.repos.fixes.getDailyFix(for: w.bugs[0].id, excluding: [])
            XCTAssertEqual(f?.id, dailies[1].id, "\(backend)")
        }
    }

    func test_CompletionRepo_save_updatesTimestamp() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            var c = FixCompletion(fixId: w.fixes[0].id, userId: w.user.id, assignedAt: w.clock.now)
            try await w.repos.completions.save(c)
            let before = try await w.repos.completions.getById(c.id)?.updatedAt
            w.clock.advance(90)
            try c.mark(.applied, at: w.clock.now)
            try await w.repos.completions.save(c)
            let stored = try await w.repos.completions.getById(c.id)
            XCTAssertNotNil(before, "\(backend)")
            XCTAssertEqual(stored?.updatedAt, w.clock.now, "\(backend)")
            XCTAssertNotEqual(before, stored?.updatedAt, "\(backend)")
            XCTAssertEqual(stored?.outcome, .applied, "\(backend)")
            let all = try await w.repos.completions.getAll()
            XCTAssertEqual(all.count, 1, "\(backend): saving twice is an update, not a second record")
        }
    }

    func test_save_stampsUpdatedAtFromTheClock_notFromTheRecord() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            w.clock.advance(3600)
            var b = w.bugs[0]
            b.title = "Renamed"
            b.updatedAt = Date(timeIntervalSince1970: 0)
            try await w.repos.bugs.save(b)
            let got = try await w.repos.bugs.getById(b.id)
            XCTAssertEqual(got?.updatedAt, w.clock.now, "\(backend)")
            XCTAssertEqual(got?.title, "Renamed", "\(backend)")
        }
    }

    /// With the clock pinned (`--now`) or behind a stamp merged from another machine, an edit is
    /// stamped one millisecond after the stored stamp, so it is newer than every version seen.
    func test_save_atAClockThatHasNotPassedTheStoredStamp_stampsJustAfterIt() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            var c = FixCompletion(fixId: w.fixes[0].id, userId: w.user.id, assignedAt: w.clock.now)
            try await w.repos.completions.save(c)
            let got1 = try await w.repos.completions.getById(c.id)
            let first = try XCTUnwrap(got1?.updatedAt)
            XCTAssertEqual(first, w.clock.now, "\(backend)")
            try c.mark(.applied, at: w.clock.now)
            try await w.repos.completions.save(c)
            let got2 = try await w.repos.completions.getById(c.id)
            let second = try XCTUnwrap(got2?.updatedAt)
            XCTAssertEqual(second, first.addingTimeInterval(0.001), "\(backend): same instant, so just after")
            try await w.repos.completions.delete(c.id)
            let deleted = try await w.repos.completions.getAll()
            XCTAssertTrue(deleted.isEmpty, "\(backend)")
            w.clock.advance(60)
            var b = w.bugs[0]
            b.title = "Renamed"
            try await w.repos.bugs.save(b)
            let got3 = try await w.repos.bugs.getById(b.id)
            let later = try XCTUnwrap(got3?.updatedAt)
            XCTAssertEqual(later, w.clock.now, "\(backend): a clock past the stored stamp is the stamp")
        }
    }

    func test_BugRepo_getActive_filtersDeleted() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend, bugs: ["need-to-be-right", "need-to-be-liked", "need-to-impress"])
            let active1 = try await w.repos.bugs.getActive()
            XCTAssertEqual(active1.count, 3, "\(backend)")
            try await w.repos.bugs.delete(w.bugs[1].id)
            let active2 = try await w.repos.bugs.getActive()
            XCTAssertEqual(active2.map(\.slug).sorted(), ["need-to-be-right", "need-to-impress"], "\(backend)")
            let byId = try await w.repos.bugs.getById(w.bugs[1].id)
            XCTAssertNil(byId, "\(backend)")
            let bySlug = try await w.repos.bugs.getBySlug("need-to-be-liked")
            XCTAssertNil(bySlug, "\(backend)")
            let found = try await w.repos.bugs.getBySlug("need-to-impress")
            XCTAssertEqual(found?.id, w.bugs[2].id, "\(backend)")
        }
    }

    func test_CrashRepo_getUnrebooted() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            var a = Crash(userId: w.user.id, bugId: w.bugs[0].id, crashedAt: w.clock.now)
            let b = Crash(userId: w.user.id, bugId: nil, crashedAt: w.clock.now.addingTimeInterval(5))
            let c = Crash(userId: w.user.id, bugId: nil, crashedAt: w.clock.now.addingTimeInterval(9))
            a.reboot(at: w.clock.now.addingTimeInterval(60))
            for x in [a, b, c] { try await w.repos.crashes.save(x) }
            try await w.repos.crashes.delete(c.id)
            let open = try await w.repos.crashes.getUnrebooted()
            XCTAssertEqual(open.map(\.id), [b.id], "\(backend)")
        }
    }

    func test_repositories_softDeleteHidesFromEveryQuery() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            let fix = w.fixes[0]
            try await w.repos.fixes.delete(fix.id)
            let byId = try await w.repos.fixes.getById(fix.id)
            XCTAssertNil(byId, "\(backend)")
            let all = try await w.repos.fixes.getAll()
            XCTAssertFalse(all.contains { $0.id == fix.id }, "\(backend)")
            let forBug = try await w.repos.fixes.getForBug(fix.bugId)
            XCTAssertFalse(forBug.contains { $0.id == fix.id }, "\(backend)")
            let e = AnalyticsEvent.make(userId: w.user.id, type: .appOpened, at: w.clock.now, calendar: Fixture.calendar)
            try await w.repos.events.save(e)
            try await w.repos.events.delete(e.id)
            let events = try await w.repos.events.getAll()
            XCTAssertTrue(events.isEmpty, "\(backend)")
            let between = try await w.repos.events.getBetween(w.clock.now.addingTimeInterval(-1), w.clock.now.addingTimeInterval(1))
            XCTAssertTrue(between.isEmpty, "\(backend)")
            try await w.repos.users.delete(w.user.id)
            let user = try await w.repos.users.get()
            XCTAssertNil(user, "\(backend): a deleted profile is no profile")
        }
    }

    func test_repositories_deleteUnknownIdThrows() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            do {
                try await w.repos.crashes.delete(UUID())
                XCTFail("\(backend): deleting nothing should throw")
            } catch let e as RepositoryError {
                XCTAssertTrue(e.description.contains("not found"), "\(backend): \(e)")
                XCTAssertTrue(e.description.hasPrefix("Crash "), "\(backend): \(e)")
            }
        }
    }

    func test_MicroEducationRepo_filtersBySlugAndTrigger() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            let items = [
                MicroEducation(bugSlug: "need-to-be-right", trigger: .afterApplied, body: "a", createdAt: w.clock.now),
                MicroEducation(bugSlug: "need-to-be-right", trigger: .afterCrash, body: "b", createdAt: w.clock.now),
                MicroEducation(bugSlug: "need-to-be-liked", trigger: .afterApplied, body: "c", createdAt: w.clock.now),
            ]
            for i in items { try await w.repos.education.save(i) }
            let got = try await w.repos.education.getFor(bugSlug: "need-to-be-right", trigger: .afterApplied)
            XCTAssertEqual(got.map(\.body), ["a"], "\(backend)")
        }
    }

    func test_CompletionRepo_getAssigned_isHalfOpen_andPendingFilters() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            let t0 = w.clock.now
            let c1 = FixCompletion(fixId: w.fixes[0].id, userId: w.user.id, assignedAt: t0)
            var c2 = FixCompletion(fixId: w.fixes[1].id, userId: w.user.id, assignedAt: t0.addingTimeInterval(86_400))
            try c2.mark(.skipped, at: t0.addingTimeInterval(86_500))
            let c3 = FixCompletion(fixId: w.fixes[0].id, userId: w.user.id, assignedAt: t0.addingTimeInterval(2 * 86_400))
            for c in [c3, c1, c2] { try await w.repos.completions.save(c) }
            let day = try await w.repos.completions.getAssigned(from: t0, to: t0.addingTimeInterval(86_400))
            XCTAssertEqual(day.map(\.id), [c1.id], "\(backend): [start, end)")
            let pending = try await w.repos.completions.getPending()
            XCTAssertEqual(pending.map(\.id), [c1.id, c3.id], "\(backend): ordered by assignedAt")
            let forFix = try await w.repos.completions.getForFix(w.fixes[0].id)
            XCTAssertEqual(forFix.map(\.id), [c1.id, c3.id], "\(backend)")
        }
    }

    func test_CompletionRepo_countByOutcome_andEventRepo_getSinceOrOfTypes() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            let t0 = w.clock.now
            var marked: [FixCompletion] = []
            for (i, outcome) in [FixOutcome.applied, .applied, .skipped, .applied, .pending].enumerated() {
                var c = FixCompletion(fixId: w.fixes[i].id, userId: w.user.id, assignedAt: t0.addingTimeInterval(Double(i) * 86_400))
                if outcome != .pending { try c.mark(outcome, at: c.assignedAt.addingTimeInterval(60)) }
                marked.append(c)
                try await w.repos.completions.save(c)
            }
            try await w.repos.completions.delete(marked[3].id)
            let recent = try await w.repos.completions.getAppliedOrSince(t0.addingTimeInterval(2 * 86_400))
            XCTAssertEqual(recent.map(\.id), [marked[0].id, marked[1].id, marked[2].id, marked[4].id],
                           "\(backend): applied ever, anything marked or assigned since the date, not the deleted one")
            let applied = try await w.repos.completions.count(outcome: .applied)
            XCTAssertEqual(applied, 2, "\(backend): a deleted completion is not counted")
            let skipped = try await w.repos.completions.count(outcome: .skipped)
            XCTAssertEqual(skipped, 1, "\(backend)")

            let types: [EventType] = [.fixApplied, .crashLogged, .appOpened, .crashLogged, .fixFailed, .appOpened]
            for (i, type) in types.enumerated() {
                let e = AnalyticsEvent(id: uuid("ev\(i)"), userId: w.user.id, eventType: type, dayOfWeek: 2, hourOfDay: 9,
                                       timestamp: t0.addingTimeInterval(Double(i) * 86_400))
                try await w.repos.events.save(e)
            }
            try await w.repos.events.delete(uuid("ev1"))
            let since = try await w.repos.events.getSince(t0.addingTimeInterval(4 * 86_400), orOfTypes: [.crashLogged, .fixFailed])
            XCTAssertEqual(since.map(\.id), [uuid("ev3"), uuid("ev4"), uuid("ev5")],
                           "\(backend): old crashes and failures, everything from the start on, in time order, deleted ones hidden")
        }
    }

    func test_DiagnosticRepo_getForWeek_andPatternRepo_roundTrip() async throws {
        try await onEachBackend { backend in
            let w = try await World.make(backend)
            let monday = w.clock.now
            let d = WeeklyDiagnostic(userId: w.user.id, weekStarting: monday,
                                     responses: [BugDiagnosticResponse(bugId: w.bugs[0].id, intensity: .loud, primaryContext: .work)],
                                     completedAt: monday.addingTimeInterval(3600))
            try await w.repos.diagnostics.save(d)
            let got = try await w.repos.diagnostics.getForWeek(starting: monday)
            XCTAssertEqual(got, d, "\(backend)")
            let other = try await w.repos.diagnostics.getForWeek(starting: monday.addingTimeInterval(7 * 86_400))
            XCTAssertNil(other, "\(backend)")
            let p = DetectedPattern(userId: w.user.id, patternType: .correlatedBugs, severity: .insight, title: "t", body: "b",
                                    relatedBugIds: [w.bugs[0].id, uuid("other")], dataPoints: 9, pValue: 0.0123, basis: "based on 9 weeks",
                                    detectedAt: monday)
            try await w.repos.patterns.save(p)
            let gotP = try await w.repos.patterns.getById(p.id)
            XCTAssertEqual(gotP, p, "\(backend)")
        }
    }

    /// The same sequence of saves and deletes on both backends leaves the same records in the same order,
    /// ties in the ordering date included.
    func test_bothBackends_agreeOnContentAndOrder() async throws {
        struct Outcome: Equatable {
            var completions: [FixCompletion]
            var pending: [UUID]
            var events: [AnalyticsEvent]
            var between: [UUID]
            var versions: [VersionEntry]
            var fixes: [Fix]
            var bugs: [Bug]
            var active: [String]
            var daily: UUID?
        }
        var results: [Backend: Outcome] = [:]
        for backend in Backend.allCases {
            let w = try await World.make(backend, bugs: ["need-to-be-right", "need-to-be-liked"], activeSlugs: ["need-to-be-liked"])
            let t = w.clock.now
            var completions: [FixCompletion] = []
            for i in 0..<12 {
                // Three completions share each assignedAt: order falls back to the id.
                let c = FixCompletion(id: uuid("c\(i)"), fixId: w.fixes[i % w.fixes.count].id, userId: w.user.id,
                                      assignedAt: t.addingTimeInterval(Double(i / 3) * 60.5))
                completions.append(c)
            }
            for c in completions.reversed() { try await w.repos.completions.save(c) }
            w.clock.advance(10)
            try await w.repos.completions.delete(completions[4].id)
            var again = completions[4]
            try again.mark(.failed, at: w.clock.now, reflection: "back again")
            w.clock.advance(1)
            try await w.repos.completions.save(again) // saving with deletedAt nil brings it back, as in memory
            try await w.repos.completions.delete(completions[7].id)
            for i in 0..<6 {
                let e = AnalyticsEvent(id: uuid("e\(i)"), userId: w.user.id, eventType: .fixApplied, dayOfWeek: 2, hourOfDay: 9,
                                       timestamp: t.addingTimeInterval(Double(i % 2)))
                try await w.repos.events.save(e)
            }
            try await w.repos.events.delete(uuid("e3"))
            let v1 = VersionEntry(id: uuid("v1"), userId: w.user.id, version: "1.1", changeType: .minorUpdate, description: "x", createdAt: t)
            let v2 = VersionEntry(id: uuid("v2"), userId: w.user.id, version: "1.2", changeType: .minorUpdate, description: "y", createdAt: t)
            try await w.repos.versions.save(v2)
            try await w.repos.versions.save(v1)

            let daily = try await w.repos.fixes.getDailyFix(for: w.bugs[1].id, excluding: [w.fixes[16].id])
            results[backend] = Outcome(
                completions: try await w.repos.completions.getAll(),
                pending: try await w.repos.completions.getPending().map(\.id),
                events: try await w.repos.events.getAll(),
                between: try await w.repos.events.getBetween(t, t.addingTimeInterval(1)).map(\.id),
                versions: try await w.repos.versions.getAll(),
                fixes: try await w.repos.fixes.getAll(),
                bugs: try await w.repos.bugs.getAll(),
                active: try await w.repos.bugs.getActive().map(\.slug),
                daily: daily?.id)
        }
        let m = results[.memory], q = results[.sqlite]
        XCTAssertEqual(m?.completions, q?.completions)
        XCTAssertEqual(m?.pending, q?.pending)
        XCTAssertEqual(m?.events, q?.events)
        XCTAssertEqual(m?.between, q?.between)
        XCTAssertEqual(m?.versions, q?.versions)
        XCTAssertEqual(m?.fixes, q?.fixes)
        XCTAssertEqual(m?.bugs, q?.bugs)
        XCTAssertEqual(m?.active, q?.active)
        XCTAssertEqual(m?.daily, q?.daily)
        XCTAssertEqual(results[.sqlite]?.completions.count, 11)
        XCTAssertEqual(results[.sqlite]?.events.count, 5)
    }
}
