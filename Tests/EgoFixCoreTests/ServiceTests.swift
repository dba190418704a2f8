import XCTest
@testable import EgoFixCore

final class ServiceTests: XCTestCase {
    func test_DailyFixService_assignsOnePerDay() async throws {
        let w = try await World.make()
        let first = try await w.daily.current(at: w.clock.now)
        w.clock.advance(3 * 3600)
        let again = try await w.daily.current(at: w.clock.now)
        XCTAssertNotNil(first)
        XCTAssertEqual(first?.fix.id, again?.fix.id)
        XCTAssertEqual(first?.completion.id, again?.completion.id)
        let all = try await w.repos.completions.getAll()
        XCTAssertEqual(all.count, 1, "asking twice on one day assigns once")
        // Marked or not, the same local day keeps the same fix.
        _ = try await OutcomeService(repos: w.repos, calendar: w.cal).mark(.applied, reflection: nil, at: w.clock.now)
        let afterOutcome = try await w.daily.current(at: w.clock.now)
        XCTAssertEqual(afterOutcome?.fix.id, first?.fix.id)
        let count = try await w.repos.completions.getAll().count
        XCTAssertEqual(count, 1)
    }

    func test_DailyFixService_respectsCooldown() async throws {
        let w = try await World.make()
        let outcomes = OutcomeService(repos: w.repos, calendar: w.cal)
        guard let day1 = try await w.daily.current(at: w.clock.now) else { return XCTFail("no fix on day 1") }
        _ = try await outcomes.mark(.skipped, reflection: nil, at: w.clock.now)
        var seen: [UUID] = []
        for _ in 1..<Thresholds.skippedCooldownDays {
            w.clock.advance(86_400)
            if let f = try await w.daily.current(at: w.clock.now) {
                seen.append(f.fix.id)
                _ = try await outcomes.mark(.skipped, reflection: nil, at: w.clock.now)
            }
        }
        XCTAssertFalse(seen.contains(day1.fix.id), "a skipped fix stays away for the cooldown")
    }

    func test_VersionService_incrementsOnMilestone() async throws {
        let w = try await World.make()
        let outcomes = OutcomeService(repos: w.repos, calendar: w.cal)
        var entries: [VersionEntry] = []
        for day in 0..<7 {
            _ = try await w.daily.current(at: w.clock.now)
            let r = try await outcomes.mark(.applied, reflection: nil, at: w.clock.now)
            if let e = r.versionEntry { entries.append(e) }
            let v = try await w.profile().currentVersion
            XCTAssertEqual(v, day < 6 ? "1.0" : "1.1", "after \(day + 1) applied")
            w.clock.advance(86_400)
        }
        XCTAssertEqual(entries.map(\.version), ["1.1"])
        XCTAssertEqual(entries.first?.changeType, .minorUpdate)
    }

    func test_CrashService_triggersQuickFix() async throws {
        let w = try await World.make()
        let bug = w.bugs[0]
        let r = try await w.crash.logCrash(bugId: bug.id, note: "argued about a semicolon", at: w.clock.now)
        XCTAssertEqual(r.quickFix?.type, .quickFix)
        XCTAssertEqual(r.quickFix?.bugId, bug.id)
        let shown = try await w.daily.current(at: w.clock.now.addingTimeInterval(60))
        XCTAssertEqual(shown?.fix.id, r.quickFix?.id, "the quick fix is shown next")
        let crashes = try await w.repos.crashes.getUnrebooted()
        XCTAssertEqual(crashes.map(\.note), ["argued about a semicolon"])
        let entries = try await w.repos.versions.getAll()
        XCTAssertEqual(entries.map(\.changeType), [.crash])
        XCTAssertEqual(entries.first?.version, "1.0", "a crash does not change the number")
    }

    func test_CrashService_crashWithoutBugUsesPrimary() async throws {
        let w = try await World.make(bugs: ["need-to-be-right", "need-to-be-busy"])
        let r = try await w.crash.logCrash(bugId: nil, note: nil, at: w.clock.now)
        XCTAssertEqual(r.crash.bugId, w.user.primaryBugId)
        XCTAssertEqual(r.quickFix?.bugId, w.user.primaryBugId)
    }

    func test_CrashService_secondCrashDoesNotQueueASecondQuickFix() async throws {
        let w = try await World.make()
        let a = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now)
        let b = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now.addingTimeInterval(60))
        XCTAssertEqual(a.quickFix?.id, b.quickFix?.id)
        let pending = try await w.repos.completions.getPending()
        XCTAssertEqual(pending.count, 1)
    }

    func test_CrashService_rebootClosesCrashesAndKeepsVersion() async throws {
        let w = try await World.make()
        _ = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now)
        _ = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now.addingTimeInterval(10))
        let done = try await w.crash.reboot(at: w.clock.now.addingTimeInterval(3600))
        XCTAssertEqual(done.count, 2)
        XCTAssertTrue(done.allSatisfy { $0.rebootedAt == w.clock.now.addingTimeInterval(3600) })
        let open = try await w.repos.crashes.getUnrebooted()
        XCTAssertTrue(open.isEmpty)
        let entries = try await w.repos.versions.getAll()
        XCTAssertEqual(entries.map(\.changeType), [.crash, .crash, .reboot])
        XCTAssertTrue(entries.allSatisfy { $0.version == "1.0" })
        do {
            _ = try await w.crash.reboot(at: w.clock.now.addingTimeInterval(7200))
            XCTFail("nothing to reboot")
        } catch let e as PracticeError { XCTAssertEqual(e, .nothingToReboot) }
    }

    func test_StreakService_incrementsOnEngagement() async throws {
        let w = try await World.make()
        for i in 1...3 {
            let u = try await w.streak.recordEngagement(at: w.clock.now)
            XCTAssertEqual(u.currentStreak, i)
            w.clock.advance(86_400)
        }
        // Each kind of engagement counts: a crash, an opened fix, a diagnostic.
        _ = try await w.crash.logCrash(bugId: nil, note: nil, at: w.clock.now)
        let afterCrash = try await w.profile().currentStreak
        XCTAssertEqual(afterCrash, 4)
    }

    func test_StreakService_resetsOnMissedDay() async throws {
        let w = try await World.make()
        try await w.streak.recordEngagement(at: w.clock.now)
        w.clock.advance(86_400)
        try await w.streak.recordEngagement(at: w.clock.now)
        // Burn this week's freeze on one missed day, then miss another.
        w.clock.advance(2 * 86_400)
        try await w.streak.recordEngagement(at: w.clock.now)
        let s3 = try await w.profile().currentStreak
        XCTAssertEqual(s3, 3)
        w.clock.advance(2 * 86_400)
        let shown = try await w.streak.currentStreak(at: w.clock.now)
        XCTAssertEqual(shown, 0, "a missed day with no freeze left shows 0")
        let u = try await w.streak.recordEngagement(at: w.clock.now)
        XCTAssertEqual(u.currentStreak, 1)
        XCTAssertEqual(u.longestStreak, 3)
    }

    func test_StreakService_freezePreservesStreak() async throws {
        let w = try await World.make() // Monday 2026-03-02
        try await w.streak.recordEngagement(at: w.clock.now)
        w.clock.advance(86_400)
        try await w.streak.recordEngagement(at: w.clock.now)
        w.clock.advance(2 * 86_400) // missed Wednesday
        let available = try await w.streak.freezeAvailable(at: w.clock.now)
        XCTAssertFalse(available, "the missed day already needs this week's freeze")
        let shown = try await w.streak.currentStreak(at: w.clock.now)
        XCTAssertEqual(shown, 2)
        let u = try await w.streak.recordEngagement(at: w.clock.now)
        XCTAssertEqual(u.currentStreak, 3)
        XCTAssertFalse(u.streakFreezeAvailable)
    }

    func test_StreakService_freezeResetsWeekly() async throws {
        let c = Clock()
        let w = try await World.make(start: c.at(2026, 3, 4, 9)) // Wednesday
        try await w.streak.recordEngagement(at: c.at(2026, 3, 4))
        try await w.streak.recordEngagement(at: c.at(2026, 3, 6)) // missed Thursday: freeze used
        let midweek = try await w.streak.freezeAvailable(at: c.at(2026, 3, 7))
        XCTAssertFalse(midweek)
        try await w.streak.recordEngagement(at: c.at(2026, 3, 7)) // Saturday
        let sunday = try await w.streak.freezeAvailable(at: c.at(2026, 3, 8, 0, 1))
        XCTAssertTrue(sunday, "a new freeze is there on Sunday")
        try await w.streak.recordEngagement(at: c.at(2026, 3, 8))
        let u = try await w.streak.recordEngagement(at: c.at(2026, 3, 10)) // missed Monday: Sunday's freeze
        XCTAssertEqual(u.currentStreak, 5)
    }

    func test_StreakService_noGuildNotificationOnBreak() async throws {
        let w = try await World.make()
        for _ in 0..<5 {
            try await w.streak.recordEngagement(at: w.clock.now)
            w.clock.advance(86_400)
        }
        w.clock.advance(5 * 86_400)
        let shown = try await w.streak.currentStreak(at: w.clock.now)
        XCTAssertEqual(shown, 0)
        let line = StreakRules.line(days: shown, longest: 5)
        for word in ["lost", "broke", "missed", "again", "!", "sorry", "shame"] {
            XCTAssertFalse(line.lowercased().contains(word), "the streak line after a break says '\(word)': \(line)")
        }
        let events = try await w.repos.events.getAll()
        XCTAssertTrue(events.isEmpty, "a break records nothing and announces nothing")
        let u = try await w.streak.recordEngagement(at: w.clock.now)
        XCTAssertEqual(u.currentStreak, 1)
        XCTAssertEqual(u.longestStreak, 5)
    }

    /// Marking before `today` marks today's fix, given then as `today` gives it (the reminder
    /// named it; the person did it): it was refused as "no pending fix". A second outcome is
    /// refused.
    func test_OutcomeService_marksTodaysFixGivenOrNotAndOnlyOnce() async throws {
        let w = try await World.make()
        let outcomes = OutcomeService(repos: w.repos, calendar: w.cal)
        do {
            _ = try await outcomes.mark(.applied, reflection: nil, at: w.clock.now)
            XCTFail("without givingTodaysFixFrom nothing is given")
        } catch let e as PracticeError { XCTAssertEqual(e, .noPendingFix) }
        let midnight = try XCTUnwrap(ReminderTime(hour: 0, minute: 0))
        let marked = try await outcomes.mark(.skipped, reflection: nil, at: w.clock.now,
                                             target: try await outcomes.target(at: w.clock.now, givingTodaysFixFrom: midnight))
        let given = try await w.daily.current(at: w.clock.now)
        XCTAssertEqual(given?.completion.id, marked.completion.id, "the fix marked is today's, the one today shows")
        XCTAssertEqual(given?.completion.outcome, .skipped)
        do {
            _ = try await outcomes.mark(.applied, reflection: nil, at: w.clock.now)
            XCTFail("a second outcome was accepted")
        } catch let e as PracticeError {
            guard case .alreadyMarked(_, let o) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(o, .skipped)
        }
    }

    /// A bug that became stable while `today` was not run (three quiet weeks, the store still
    /// says active) and whose retest is due: `remind` and `status` name the retest, as the bugs
    /// stand now. An outcome before `today` gave a fix chosen among the bugs as stored (no retest)
    /// and marked a fix nobody had named. It now settles the bugs first, as `today` does.
    func test_OutcomeService_givesTheFixRemindAndStatusNamedWhenABugSettledUnsaved() async throws {
        let w = try await World.make(bugs: ["need-to-be-right", "people-pleasing"])
        let a = w.bugs[0]
        let monday = LocalDay(w.clock.now, calendar: w.cal)
        for k in 0..<3 {
            let week = monday.adding(days: 7 * k)
            try await w.repos.diagnostics.save(WeeklyDiagnostic(
                userId: w.user.id, weekStarting: week.start(in: w.cal),
                responses: [BugDiagnosticResponse(bugId: a.id, intensity: .quiet)],
                completedAt: week.adding(days: 6).at(hour: 19, in: w.cal)))
        }
        w.clock.advance(Double(70 * 86_400))
        let now = w.clock.now
        let stored = try await w.repos.bugs.getById(a.id)
        XCTAssertEqual(stored?.status, .active, "the store has not been told yet")
        let settled = try await LifecycleService(repos: w.repos, calendar: w.cal).current(at: now)
        XCTAssertEqual(settled.first { $0.id == a.id }?.status, .stable)
        let midnight = try XCTUnwrap(ReminderTime(hour: 0, minute: 0))
        let outcomes = OutcomeService(repos: w.repos, calendar: w.cal)
        let named = try await outcomes.wouldMark(at: now, givingTodaysFixFrom: midnight)
        XCTAssertEqual(named.givenNow, true)
        let reminded = try await ReminderService(repos: w.repos, calendar: w.cal).due(at: now, remindAt: midnight)
        let marked = try await outcomes.mark(.applied, reflection: nil, at: now,
                                             target: try await outcomes.target(at: now, givingTodaysFixFrom: midnight))
        XCTAssertEqual(marked.fix.label, named.fix?.label, "status named \(named.fix?.label ?? "none"), the outcome marked \(marked.fix.label)")
        XCTAssertEqual(reminded.fixLabel, marked.fix.label, "remind named another fix")
        let after = try await w.repos.bugs.getById(a.id)
        XCTAssertEqual(after?.lastRetestAt, now, "the retest was given")
    }

    func test_OutcomeService_refusesReflectionOverTheCap_andChangesNothing() async throws {
        let w = try await World.make()
        _ = try await w.daily.current(at: w.clock.now)
        let big = String(repeating: "a", count: Thresholds.maxMarkdownBytes + 1)
        do {
            _ = try await OutcomeService(repos: w.repos, calendar: w.cal).mark(.applied, reflection: big, at: w.clock.now)
            XCTFail("accepted an oversized reflection")
        } catch let e as PracticeError { XCTAssertEqual(e, .reflectionTooLong(bytes: big.utf8.count)) }
        let pending = try await w.repos.completions.getPending()
        XCTAssertEqual(pending.count, 1, "the fix is still pending")
    }

    func test_OutcomeService_recordsEventWithLocalWeekdayAndHour() async throws {
        let c = Clock("Pacific/Honolulu")
        let w = try await World.make(zone: "Pacific/Honolulu", start: c.at(2026, 3, 1, 23, 30)) // Sunday 23:30 local
        _ = try await w.daily.current(at: w.clock.now)
        _ = try await OutcomeService(repos: w.repos, calendar: w.cal).mark(.failed, reflection: "x", at: w.clock.now)
        let events = try await w.repos.events.getAll()
        let failed = events.first { $0.eventType == .fixFailed }
        XCTAssertEqual(failed?.dayOfWeek, 1)
        XCTAssertEqual(failed?.hourOfDay, 23)
        XCTAssertEqual(events.map(\.eventType).sorted { $0.rawValue < $1.rawValue }, [.fixAssigned, .fixFailed])
    }
}
