import XCTest
@testable import EgoFixCore

final class LifecycleTests: XCTestCase {
    let c = Clock("Europe/Berlin")
    let user = Catalogue.uuid("user")

    func diag(_ bug: Bug, _ i: BugIntensity, week: LocalDay) -> WeeklyDiagnostic {
        WeeklyDiagnostic(userId: user, weekStarting: week.start(in: c.calendar),
                         responses: [BugDiagnosticResponse(bugId: bug.id, intensity: i, primaryContext: i == .quiet ? nil : .work)],
                         completedAt: week.adding(days: 6).at(hour: 19, in: c.calendar))
    }

    func quietWeeks(_ bug: Bug, from: LocalDay, count: Int) -> [WeeklyDiagnostic] {
        (0..<count).map { diag(bug, .quiet, week: from.adding(days: 7 * $0)) }
    }

    func test_activation_movesIdentifiedToActive() {
        let b = BugLifecycle.activate(Catalogue.bug("need-to-impress", active: false), at: c.at(2026, 3, 2))
        XCTAssertEqual(b.status, .active)
        XCTAssertTrue(b.isActive)
        XCTAssertEqual(b.activatedAt, c.at(2026, 3, 2))
        XCTAssertNil(BugLifecycle.evaluate(Catalogue.bug("x", active: false), crashes: [], diagnostics: [], retests: [],
                                           now: c.at(2026, 6, 1), calendar: c.calendar))
    }

    func test_activeBecomesStable_afterThreeQuietWeeksAndNoRecentCrash() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 2))
        let weeks = quietWeeks(bug, from: c.day(2026, 3, 9), count: 3)
        let now = c.at(2026, 4, 1)
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [], diagnostics: weeks, retests: [], now: now, calendar: c.calendar), .stabilised)
        // Two quiet weeks are not enough.
        XCTAssertNil(BugLifecycle.evaluate(bug, crashes: [], diagnostics: Array(weeks.prefix(2)), retests: [], now: now, calendar: c.calendar))
        // A crash 20 days ago blocks it; 21 days ago does not.
        let crash20 = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 3, 12))
        let crash21 = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 3, 11))
        XCTAssertNil(BugLifecycle.evaluate(bug, crashes: [crash20], diagnostics: weeks, retests: [], now: now, calendar: c.calendar))
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [crash21], diagnostics: weeks, retests: [], now: now, calendar: c.calendar), .stabilised)
        // Not before 28 days active.
        XCTAssertNil(BugLifecycle.evaluate(bug, crashes: [], diagnostics: weeks, retests: [], now: c.at(2026, 3, 29), calendar: c.calendar))
    }

    /// The moment a run of quiet weeks first made an active bug stable, had it been looked at
    /// every day (what a sync asks when it brings in the weeks that complete a run after a later
    /// present week): the run's stability must have come before the week that ended it.
    func test_firstStability_isTheFirstRunThatHeldBeforeTheWeekThatEndedIt() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 2))
        let run = quietWeeks(bug, from: c.day(2026, 3, 9), count: 3)   // Sundays 15, 22, 29 March
        let present = diag(bug, .present, week: c.day(2026, 3, 30))  // Sunday 5 April
        let later = quietWeeks(bug, from: c.day(2026, 4, 6), count: 3) // Sundays 12, 19, 26 April
        func first(_ b: Bug, crashes: [Crash] = [], _ d: [WeeklyDiagnostic], now: Date? = nil) -> Date? {
            BugLifecycle.firstStability(of: b, crashes: crashes, diagnostics: d, now: now ?? c.at(2026, 6, 1), calendar: c.calendar)
        }
        // Its 28th active day (30 March, noon) came after the third quiet week and before the present one.
        XCTAssertEqual(first(bug, run + [present]), c.at(2026, 3, 30, 12))
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [], diagnostics: run + [present], retests: [], now: c.at(2026, 6, 1), calendar: c.calendar),
                       nil, "the last three ratings alone no longer give it")
        // Activated on 10 March: its 28th day is 7 April, after the present week.
        XCTAssertNil(first(Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 10)), run + [present]))
        // A crash on 20 March puts it at 10 April, after the present week; the next run gives it.
        let crash = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 3, 20))
        XCTAssertNil(first(bug, crashes: [crash], run + [present]))
        XCTAssertEqual(first(bug, crashes: [crash], run + [present] + later), c.at(2026, 4, 26, 19))
        // A crash 25 days before does not hold it off; nor is anything given after `now`.
        XCTAssertEqual(first(bug, crashes: [Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 3, 5))], run + [present]), c.at(2026, 3, 30, 12))
        XCTAssertNil(first(bug, run + [present], now: c.at(2026, 3, 29, 23)))
        XCTAssertEqual(first(bug, run + [present], now: c.at(2026, 3, 30, 11)), c.at(2026, 3, 30, 11), "a command that morning saw it")
        // The week that ended the run rated the morning of the 28th day: stable just before it.
        let morning = WeeklyDiagnostic(userId: user, weekStarting: present.weekStarting, responses: present.responses,
                                       completedAt: c.at(2026, 3, 30, 8))
        XCTAssertEqual(first(bug, run + [morning]), c.at(2026, 3, 30, 8).addingTimeInterval(-0.001))
        // Only an active bug is asked.
        var stable = bug
        stable.status = .stable
        XCTAssertNil(first(stable, run + [present]))
    }

    /// After a merge, the lifecycle runs on from a run's stability: a later loud week sends the
    /// bug back to active from that week, and a later run makes it stable again.
    func test_overlookedStability_runsTheLifecycleOnFromTheRun() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 2))
        let run = quietWeeks(bug, from: c.day(2026, 3, 9), count: 3)
        let loud = diag(bug, .loud, week: c.day(2026, 3, 30))
        func merged(_ d: [WeeklyDiagnostic], arrived: [WeeklyDiagnostic]) -> [Bug] {
            SyncRules.overlookedStability(bugs: [bug], crashes: [], diagnostics: d, arrived: Set(arrived.map(\.id)),
                                          now: c.at(2026, 6, 1), calendar: c.calendar)
        }
        XCTAssertTrue(merged(run + [loud], arrived: []).isEmpty, "nothing brought in: not looked at")
        let back = merged(run + [loud], arrived: [run[1]])
        XCTAssertEqual(back.map(\.status), [.active])
        XCTAssertEqual(back.first?.regressedAt, loud.completedAt, "stable from 30 March, sent back by the loud week")
        XCTAssertEqual(back.first?.updatedAt, bug.updatedAt.addingTimeInterval(0.001))
        let again = merged(run + [loud] + quietWeeks(bug, from: c.day(2026, 4, 6), count: 3), arrived: [run[1]])
        XCTAssertEqual(again.map(\.status), [.stable])
        XCTAssertEqual(again.first?.stableSince, c.at(2026, 5, 3, 12), "28 days from the regression")
        XCTAssertEqual(again.first?.regressedAt, loud.completedAt)
        XCTAssertTrue(merged(run, arrived: [run[1]]).map(\.status) == [.stable], "a run still at the end is stable too")
    }

    func test_stableRegressesOnCrashLoudOrFailedRetest() {
        var bug = Catalogue.bug("need-to-be-right", status: .stable, activatedAt: c.at(2026, 1, 1))
        bug.stableSince = c.at(2026, 3, 1)
        let now = c.at(2026, 3, 20)
        let crash = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 3, 10))
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [crash], diagnostics: [], retests: [], now: now, calendar: c.calendar),
                       .regressed(reason: "crash logged"))
        let loud = diag(bug, .loud, week: c.day(2026, 3, 9))
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [], diagnostics: [loud], retests: [], now: now, calendar: c.calendar)?.newStatus, .active)
        var retest = FixCompletion(fixId: UUID(), userId: user, assignedAt: c.at(2026, 3, 15))
        try? retest.mark(.failed, at: c.at(2026, 3, 15, 20))
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [], diagnostics: [], retests: [retest], now: now, calendar: c.calendar),
                       .regressed(reason: "retest failed"))
        // An old crash, before it became stable, is not a regression.
        let old = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 2, 1))
        XCTAssertNil(BugLifecycle.evaluate(bug, crashes: [old], diagnostics: [], retests: [], now: now, calendar: c.calendar))
        let applied = BugLifecycle.apply(.regressed(reason: "crash logged"), to: bug, at: now)
        XCTAssertEqual(applied.status, .active)
        XCTAssertNil(applied.stableSince)
    }

    func test_stableBecomesResolvedAfter90QuietDays() {
        var bug = Catalogue.bug("need-to-be-right", status: .stable, activatedAt: c.at(2026, 1, 1))
        bug.stableSince = c.at(2026, 3, 1)
        let quiet = quietWeeks(bug, from: c.day(2026, 3, 2), count: 12)
        XCTAssertNil(BugLifecycle.evaluate(bug, crashes: [], diagnostics: quiet, retests: [], now: c.at(2026, 5, 29), calendar: c.calendar))
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [], diagnostics: quiet, retests: [], now: c.at(2026, 5, 30), calendar: c.calendar), .resolved)
        let present = quiet + [diag(bug, .present, week: c.day(2026, 5, 25))]
        XCTAssertNil(BugLifecycle.evaluate(bug, crashes: [], diagnostics: present, retests: [], now: c.at(2026, 6, 30), calendar: c.calendar))
    }

    /// Each transition is dated by the moment its conditions first held, not by when a command
    /// looked: a build on Tuesday and a `today` on Thursday give the same stable date.
    func test_transitionsAreDatedWhenTheirConditionsFirstHeld() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 2, 9))
        let weeks = quietWeeks(bug, from: c.day(2026, 3, 9), count: 3)   // the third completed Sunday 03-29, 19:00
        func stable(_ crashes: [Crash], at now: Date) -> Date? {
            guard let t = BugLifecycle.evaluate(bug, crashes: crashes, diagnostics: weeks, retests: [], now: now, calendar: c.calendar)
            else { return nil }
            let at = BugLifecycle.effective(t, of: bug, crashes: crashes, diagnostics: weeks, retests: [], now: now, calendar: c.calendar)
            return BugLifecycle.apply(t, to: bug, at: now, effective: at).stableSince
        }
        // The 28th active day (03-30) comes after the third quiet rating: its noon.
        XCTAssertEqual(stable([], at: c.at(2026, 4, 1)), c.at(2026, 3, 30, 12))
        XCTAssertEqual(stable([], at: c.at(2026, 4, 20)), c.at(2026, 3, 30, 12))
        // A crash on 03-12 holds it off until its 21st day (04-02).
        let crash = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 3, 12, 15))
        XCTAssertEqual(stable([crash], at: c.at(2026, 4, 5)), c.at(2026, 4, 2, 12))
        // Activated earlier, the third quiet rating is what came last.
        let early = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 2, 1))
        XCTAssertEqual(BugLifecycle.effective(.stabilised, of: early, crashes: [], diagnostics: weeks, retests: [], now: c.at(2026, 4, 5),
                                              calendar: c.calendar), c.at(2026, 3, 29, 19))
        // Regressed at its first cause since it became stable, not when it was seen.
        var stableBug = Catalogue.bug("need-to-be-right", status: .stable, activatedAt: c.at(2026, 1, 1))
        stableBug.stableSince = c.at(2026, 3, 1)
        let later = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 3, 18, 8))
        let loud = diag(stableBug, .loud, week: c.day(2026, 3, 9))      // completed 03-15, 19:00
        XCTAssertEqual(BugLifecycle.effective(.regressed(reason: "crash logged"), of: stableBug, crashes: [later], diagnostics: [loud],
                                              retests: [], now: c.at(2026, 3, 25), calendar: c.calendar), c.at(2026, 3, 15, 19))
        // Resolved on its 90th stable day, or 90 days after its last rating that was not quiet.
        let quiet = quietWeeks(stableBug, from: c.day(2026, 3, 2), count: 12)
        XCTAssertEqual(BugLifecycle.effective(.resolved, of: stableBug, crashes: [], diagnostics: quiet, retests: [], now: c.at(2026, 6, 20),
                                              calendar: c.calendar), c.at(2026, 5, 30, 12))
        let present = quiet + [diag(stableBug, .present, week: c.day(2026, 3, 23))]   // completed 03-29, 19:00
        XCTAssertEqual(BugLifecycle.effective(.resolved, of: stableBug, crashes: [], diagnostics: present, retests: [], now: c.at(2026, 7, 1),
                                              calendar: c.calendar), c.at(2026, 6, 27, 12))
        // Never after the clock.
        XCTAssertEqual(BugLifecycle.effective(.stabilised, of: bug, crashes: [], diagnostics: weeks, retests: [], now: c.at(2026, 3, 29, 20),
                                              calendar: c.calendar), c.at(2026, 3, 29, 20))
    }

    func test_resolvedBugCanRegress() {
        var bug = Catalogue.bug("need-to-be-right", status: .resolved, activatedAt: c.at(2026, 1, 1))
        bug.stableSince = c.at(2026, 2, 1)
        bug.resolvedAt = c.at(2026, 5, 2)
        let crash = Crash(userId: user, bugId: bug.id, crashedAt: c.at(2026, 6, 1))
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [crash], diagnostics: [], retests: [], now: c.at(2026, 6, 2), calendar: c.calendar)?.newStatus, .active)
    }
}

final class WeeklyDiagnosticTests: XCTestCase {
    let c = Clock("America/Los_Angeles")

    func test_WeeklyDiagnostic_promptsOnSunday() {
        // 2026-03-08 is a Sunday (and a DST day in Los Angeles).
        XCTAssertNil(DiagnosticSchedule.reviewedWeek(now: c.at(2026, 3, 8, 17, 59), calendar: c.calendar))
        XCTAssertEqual(DiagnosticSchedule.reviewedWeek(now: c.at(2026, 3, 8, 18, 0), calendar: c.calendar), c.day(2026, 3, 2))
        XCTAssertEqual(DiagnosticSchedule.reviewedWeek(now: c.at(2026, 3, 9, 8), calendar: c.calendar), c.day(2026, 3, 2),
                       "Monday reviews the week that just ended")
        XCTAssertEqual(DiagnosticSchedule.reviewedWeek(now: c.at(2026, 3, 9, 23, 59), calendar: c.calendar), c.day(2026, 3, 2))
        XCTAssertNil(DiagnosticSchedule.reviewedWeek(now: c.at(2026, 3, 10, 0, 1), calendar: c.calendar))
        XCTAssertNil(DiagnosticSchedule.reviewedWeek(now: c.at(2026, 3, 11, 19), calendar: c.calendar))
        XCTAssertTrue(DiagnosticSchedule.isDue(now: c.at(2026, 3, 8, 20), calendar: c.calendar, completed: []))
    }

    func test_WeeklyDiagnostic_windowFollowsTheUsersZone() {
        // Sunday 19:00 in Los Angeles is Monday 03:00 UTC: due for the LA user, and for a UTC user too,
        // but Tuesday 01:00 UTC is still Monday evening in LA.
        let utc = Clock("UTC")
        let instant = c.at(2026, 3, 9, 18)   // Monday 18:00 LA = Tuesday 01:00 UTC
        XCTAssertNotNil(DiagnosticSchedule.reviewedWeek(now: instant, calendar: c.calendar))
        XCTAssertNil(DiagnosticSchedule.reviewedWeek(now: instant, calendar: utc.calendar))
    }

    func test_WeeklyDiagnostic_skipsIfCompleted() async throws {
        let w = try await World.make(zone: "America/Los_Angeles", start: c.at(2026, 3, 8, 19))
        let svc = DiagnosticService(repos: w.repos, calendar: w.cal)
        let dueBefore = try await svc.isDue(at: w.clock.now)
        XCTAssertTrue(dueBefore)
        _ = try await svc.complete([BugDiagnosticResponse(bugId: w.bugs[0].id, intensity: .present, primaryContext: .work)], at: w.clock.now)
        let dueSunday = try await svc.isDue(at: w.clock.now.addingTimeInterval(3600))
        let dueMonday = try await svc.isDue(at: c.at(2026, 3, 9, 9))
        XCTAssertFalse(dueSunday)
        XCTAssertFalse(dueMonday)
        do {
            _ = try await svc.complete([BugDiagnosticResponse(bugId: w.bugs[0].id, intensity: .quiet)], at: c.at(2026, 3, 9, 9))
            XCTFail("a second diagnostic for the same week was accepted")
        } catch let e as PracticeError { XCTAssertEqual(e, .diagnosticAlreadyDone(week: "2026-W10")) }
        let dueNextWeek = try await svc.isDue(at: c.at(2026, 3, 15, 18, 30))
        XCTAssertTrue(dueNextWeek)
    }

    func test_WeeklyDiagnostic_capsAtThreeBugs() {
        let bugs = ["a", "b", "c", "d", "e"].map { Catalogue.bug("bug-\($0)") }
        let asked = DiagnosticSchedule.bugsToAsk(active: bugs, primaryBugId: bugs[0].id, completed: [])
        XCTAssertEqual(asked.count, 3)
        XCTAssertEqual(asked.first?.id, bugs[0].id, "primary first when none was asked yet")
        XCTAssertEqual(DiagnosticSchedule.bugsToAsk(active: Array(bugs.prefix(2)), primaryBugId: nil, completed: []).count, 2)
    }

    func test_WeeklyDiagnostic_rotatesBugs() {
        let bugs = ["a", "b", "c", "d", "e"].map { Catalogue.bug("bug-\($0)") }
        var done: [WeeklyDiagnostic] = []
        var counts: [UUID: Int] = [:]
        for week in 0..<5 {
            let ask = DiagnosticSchedule.bugsToAsk(active: bugs, primaryBugId: bugs[0].id, completed: done)
            for b in ask { counts[b.id, default: 0] += 1 }
            let when = c.at(2026, 3, 8 + 7 * week, 19)
            done.append(WeeklyDiagnostic(userId: UUID(), weekStarting: when, responses: ask.map { BugDiagnosticResponse(bugId: $0.id, intensity: .quiet) },
                                         completedAt: when))
        }
        // 5 weeks × 3 questions over 5 bugs: each bug exactly 3 times.
        XCTAssertEqual(bugs.map { counts[$0.id] ?? 0 }, [3, 3, 3, 3, 3])
        let second = DiagnosticSchedule.bugsToAsk(active: bugs, primaryBugId: bugs[0].id, completed: Array(done.prefix(1)))
        XCTAssertEqual(second.map(\.slug), ["bug-d", "bug-e", "bug-a"], "the two never asked come first")
    }

    func test_WeeklyDiagnostic_skipRecordsNothing() async throws {
        let w = try await World.make(zone: "America/Los_Angeles", start: c.at(2026, 3, 8, 19))
        let svc = DiagnosticService(repos: w.repos, calendar: w.cal)
        do {
            _ = try await svc.complete([], at: w.clock.now)
            XCTFail("an empty diagnostic was recorded")
        } catch let e as PracticeError { XCTAssertEqual(e, .diagnosticEmpty) }
        let all = try await w.repos.diagnostics.getAll()
        XCTAssertTrue(all.isEmpty)
        let stillDue = try await svc.isDue(at: w.clock.now)
        XCTAssertTrue(stillDue)
    }

    /// `complete` refuses `responses` with `expected` and records nothing.
    func assertNotRecorded(_ w: World, _ responses: [BugDiagnosticResponse], _ expected: PracticeError,
                           file: StaticString = #filePath, line: UInt = #line) async throws {
        let svc = DiagnosticService(repos: w.repos, calendar: w.cal)
        do {
            _ = try await svc.complete(responses, at: w.clock.now)
            XCTFail("recorded: \(responses)", file: file, line: line)
        } catch let e as PracticeError { XCTAssertEqual(e, expected, file: file, line: line) }
        let all = try await w.repos.diagnostics.getAll()
        XCTAssertTrue(all.isEmpty, file: file, line: line)
    }

    func test_WeeklyDiagnostic_refusesABugRatedTwice() async throws {
        let w = try await World.make(zone: "America/Los_Angeles", start: c.at(2026, 3, 8, 19))
        let id = w.bugs[0].id
        try await assertNotRecorded(w, [BugDiagnosticResponse(bugId: id, intensity: .quiet), BugDiagnosticResponse(bugId: id, intensity: .loud)],
                                    .diagnosticBugRatedTwice(slug: "need-to-be-right"))
    }

    func test_WeeklyDiagnostic_refusesAnInactiveBug() async throws {
        let w = try await World.make(zone: "America/Los_Angeles", start: c.at(2026, 3, 8, 19),
                                     bugs: ["need-to-be-right", "fear-of-ordinary"], activeSlugs: ["need-to-be-right"])
        try await assertNotRecorded(w, [BugDiagnosticResponse(bugId: w.bugs[1].id, intensity: .loud, primaryContext: .work)],
                                    .diagnosticBugNotActive(slug: "fear-of-ordinary", active: ["need-to-be-right"]))
    }

    func test_WeeklyDiagnostic_refusesMoreThanThreeBugs() async throws {
        let slugs = ["need-to-be-right", "need-to-be-busy", "need-to-be-liked", "fear-of-ordinary"]
        let w = try await World.make(zone: "America/Los_Angeles", start: c.at(2026, 3, 8, 19), bugs: slugs)
        try await assertNotRecorded(w, w.bugs.map { BugDiagnosticResponse(bugId: $0.id, intensity: .quiet) },
                                    .diagnosticTooManyBugs(count: 4, thisWeek: ["need-to-be-right", "fear-of-ordinary", "need-to-be-busy"]))
    }
}

final class MicroEducationTests: XCTestCase {
    let pool: [MicroEducation] = {
        var out: [MicroEducation] = []
        for slug in ["need-to-be-right", "need-to-be-liked"] {
            for t in EducationTrigger.allCases {
                for i in 0..<4 {
                    out.append(MicroEducation(id: Catalogue.uuid("\(slug)-\(t.rawValue)-\(i)"), bugSlug: slug, trigger: t,
                                              body: "\(slug) \(t.rawValue) \(i)", createdAt: Catalogue.epoch))
                }
            }
        }
        return out
    }()

    func test_MicroEducation_matchesBugAndTrigger() {
        for seed in UInt64(0)..<50 {
            let t = MicroEducationPicker.pick(from: pool, bugSlug: "need-to-be-liked", trigger: .afterCrash, lastShownId: nil, seed: seed)
            XCTAssertEqual(t?.bugSlug, "need-to-be-liked")
            XCTAssertEqual(t?.trigger, .afterCrash)
        }
        XCTAssertNil(MicroEducationPicker.pick(from: pool, bugSlug: "need-to-impress", trigger: .afterCrash, lastShownId: nil, seed: 1))
    }

    func test_MicroEducation_randomizes() {
        var last: UUID?
        var seen = Set<UUID>()
        for seed in UInt64(0)..<200 {
            guard let t = MicroEducationPicker.pick(from: pool, bugSlug: "need-to-be-right", trigger: .afterApplied, lastShownId: last, seed: seed)
            else { return XCTFail("nothing picked") }
            XCTAssertNotEqual(t.id, last, "the same tidbit twice in a row")
            seen.insert(t.id)
            last = t.id
        }
        XCTAssertEqual(seen.count, 4, "every candidate comes up")
        // Deterministic under a seed.
        let a = MicroEducationPicker.pick(from: pool, bugSlug: "need-to-be-right", trigger: .restDay, lastShownId: nil, seed: 42)
        let b = MicroEducationPicker.pick(from: pool.reversed(), bugSlug: "need-to-be-right", trigger: .restDay, lastShownId: nil, seed: 42)
        XCTAssertEqual(a, b)
    }

    func test_MicroEducation_singleCandidateMayRepeat() {
        let one = [pool[0]]
        XCTAssertEqual(MicroEducationPicker.pick(from: one, bugSlug: pool[0].bugSlug, trigger: pool[0].trigger, lastShownId: pool[0].id, seed: 3), pool[0])
    }
}
