import Foundation
import XCTest
@testable import EgoFixCore

/// The paths a person's year walks that a seeded demo does not (issue 29), one test per behaviour.
final class LifetimeRuleTests: XCTestCase {
    let c = Clock("Europe/Berlin")

    // 1. A freeze covers exactly one missed day and is spent only when it kept the streak.

    /// Lived in one time zone, the streak measured with the engagements' instants is the streak
    /// counted by the calendar alone, daylight-saving nights included: the time between two days
    /// only ever forgives a day the calendar skipped between two places. 400 random lives of
    /// 60 to 200 days, engagements at any minute and most at 23:58 to 00:01, in four zones.
    func test_Streak_inOneZoneTheInstantsChangeNothing() {
        var r = SplitMix64(seed: 49)
        for zone in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"] {
            let clock = Clock(zone)
            for _ in 0..<100 {
                let start = LocalDay(year: 2026, month: 1, day: 1).adding(days: r.below(365))
                var timed = StreakState(), byDay = StreakState()
                var day = start
                for _ in 0..<(60 + r.below(140)) {
                    day = day.adding(days: r.chance(50) ? 1 : 2 + r.below(3))
                    let minute = r.chance(60) ? r.pick([0, 1, 1438, 1439]) : r.below(1440)
                    let at = day.at(hour: minute / 60, minute: minute % 60, in: clock.calendar)
                    let on = LocalDay(at, calendar: clock.calendar)
                    timed = StreakRules.engage(timed, on: on, at: at)
                    byDay = StreakRules.engage(byDay, on: on, at: nil)
                    XCTAssertEqual(timed.current, byDay.current, "\(zone) \(on)")
                    XCTAssertEqual(timed.freezeUsedWeek, byDay.freezeUsedWeek, "\(zone) \(on)")
                    let later = on.adding(days: 1 + r.below(3)), now = later.at(hour: r.below(24), in: clock.calendar)
                    XCTAssertEqual(StreakRules.current(timed, today: later, now: now), StreakRules.current(byDay, today: later, now: nil))
                    XCTAssertEqual(StreakRules.freezeAvailable(timed, today: later, now: now),
                                   StreakRules.freezeAvailable(byDay, today: later, now: nil))
                }
            }
        }
    }

    func test_Streak_freezeNotSpentWhenTheStreakBreaksAnyway() {
        // Engaged Sunday 15 March; missed Monday and Tuesday (one freeze week): the streak breaks.
        var s = StreakRules.engage(StreakState(), on: c.day(2026, 3, 15), at: nil)
        s = StreakRules.engage(s, on: c.day(2026, 3, 18), at: nil)
        XCTAssertEqual(s.current, 1)
        XCTAssertNil(s.freezeUsedWeek, "no freeze is used for a streak it could not keep")
        XCTAssertTrue(StreakRules.freezeAvailable(s, today: c.day(2026, 3, 19), now: nil))
        s = StreakRules.engage(s, on: c.day(2026, 3, 19), at: nil)
        // Missing only Friday 20 later: the unspent freeze covers it.
        s = StreakRules.engage(s, on: c.day(2026, 3, 21), at: nil)
        XCTAssertEqual(s.current, 3, "18, 19 and 21, with Friday covered")
        XCTAssertEqual(s.freezeUsedWeek, c.day(2026, 3, 15))
    }

    func test_Streak_freezeCoversExactlyOneMissedDay() {
        var s = StreakRules.engage(StreakState(), on: c.day(2026, 3, 16), at: nil)  // Monday
        s = StreakRules.engage(s, on: c.day(2026, 3, 18), at: nil)                  // Tuesday missed: covered
        XCTAssertEqual(s.current, 2)
        s = StreakRules.engage(s, on: c.day(2026, 3, 20), at: nil)                  // Thursday missed: the freeze is gone
        XCTAssertEqual(s.current, 1)
        // A Saturday and a Sunday belong to two freeze weeks: both are covered.
        var t = StreakRules.engage(StreakState(), on: c.day(2026, 3, 20), at: nil)  // Friday
        t = StreakRules.engage(t, on: c.day(2026, 3, 23), at: nil)                  // Monday, after Sat + Sun missed
        XCTAssertEqual(t.current, 2)
    }

    // 2. Each crash queues a quick fix for its own bug.

    func test_Crash_secondCrashAboutAnotherBugQueuesItsOwnQuickFix() async throws {
        let w = try await World.make(bugs: ["need-to-be-right", "need-to-impress"])
        let first = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now)
        let second = try await w.crash.logCrash(bugId: w.bugs[1].id, note: nil, at: w.clock.now.addingTimeInterval(600))
        XCTAssertEqual(first.quickFix?.bugId, w.bugs[0].id)
        XCTAssertEqual(second.quickFix?.bugId, w.bugs[1].id, "the second crash's quick fix is about its own bug")
        let pending = try await w.repos.completions.getPending(fixIds: w.fixes.filter { $0.type == .quickFix }.map(\.id))
        XCTAssertEqual(pending.count, 2)
        // The same bug crashing again while its quick fix waits queues nothing new.
        let third = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now.addingTimeInterval(1200))
        XCTAssertEqual(third.quickFix?.id, first.quickFix?.id)
        let after = try await w.repos.completions.getPending(fixIds: w.fixes.filter { $0.type == .quickFix }.map(\.id))
        XCTAssertEqual(after.count, 2)
    }

    // 3. An unmarked quick fix comes first, but the day's fix still comes; it expires after 7 days.

    func test_QuickFix_unmarkedDoesNotStopTheDailyFix() async throws {
        let w = try await World.make()
        _ = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now)
        for d in 1...10 {
            let at = w.clock.now.addingTimeInterval(Double(d) * 86_400)
            var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
            try await vm.load(at: at)
            XCTAssertNotNil(vm.daily, "day \(d): the day's fix is assigned although the quick fix was never marked")
            XCTAssertNotEqual(vm.daily?.fix.type, .quickFix)
            guard case .loaded(let card) = vm.state else { return XCTFail("day \(d): \(vm.state)") }
            if d < Thresholds.quickFixExpiryDays {
                XCTAssertTrue(card.isQuickFix, "day \(d): the quick fix still comes first")
            } else {
                XCTAssertFalse(card.isQuickFix, "day \(d): the quick fix expired after \(Thresholds.quickFixExpiryDays) days")
            }
        }
    }

    func test_QuickFix_expiredIsNoLongerPendingAndShowsAsExpired() {
        let quick = FixCompletion(fixId: UUID(), userId: UUID(), assignedAt: c.at(2026, 3, 2, 20))
        let dayOf = { (d: Date) in LocalDay(d, calendar: self.c.calendar) }
        XCTAssertFalse(PendingFixRule.isExpired(quick, today: c.day(2026, 3, 8), dayOf: dayOf))
        XCTAssertTrue(PendingFixRule.isExpired(quick, today: c.day(2026, 3, 9), dayOf: dayOf))
    }

    /// A quick fix reads "pending" in the history and on the pages for as long as `egofix status`
    /// shows it pending (7 days), then "expired"; a daily fix left unmarked reads "not marked"
    /// from the next day.
    func test_QuickFix_readsPendingUntilItExpires() {
        let quickFix = Fix(number: 1, bugId: UUID(), type: .quickFix, prompt: "q", createdAt: Catalogue.epoch)
        let dailyFix = Fix(number: 2, bugId: UUID(), type: .daily, prompt: "d", createdAt: Catalogue.epoch)
        let quick = FixCompletion(fixId: quickFix.id, userId: UUID(), assignedAt: c.at(2026, 3, 2, 20))
        let daily = FixCompletion(fixId: dailyFix.id, userId: UUID(), assignedAt: c.at(2026, 3, 2, 9))
        let dayOf = { (d: Date) in LocalDay(d, calendar: self.c.calendar) }
        for (day, text) in [(2, "pending"), (5, "pending"), (8, "pending"), (9, "expired")] {
            XCTAssertEqual(PendingFixRule.outcomeText(quick, fix: quickFix, today: c.day(2026, 3, day), dayOf: dayOf, stillPending: nil), text, "March \(day)")
        }
        XCTAssertEqual(PendingFixRule.outcomeText(daily, fix: dailyFix, today: c.day(2026, 3, 2), dayOf: dayOf, stillPending: nil), "pending")
        XCTAssertEqual(PendingFixRule.outcomeText(daily, fix: dailyFix, today: c.day(2026, 3, 3), dayOf: dayOf, stillPending: nil), "not marked")
        XCTAssertEqual(PendingFixRule.outcomeText(daily, fix: dailyFix, today: c.day(2026, 3, 3), dayOf: dayOf, stillPending: daily.id), "pending",
                       "its timer ran out after midnight")
    }

    /// Yesterday's fix whose timer ran out today, after midnight, is the one to mark (after a
    /// quick fix, before today's fix) until it is marked or today ends; one whose timer ran out on
    /// its own day, or timed for another fix, closed at midnight as any unmarked fix does.
    func test_PendingFix_yesterdaysFixWhoseTimerRanPastMidnightIsStillToMark() {
        let user = UUID()
        let timed = Fix(number: 1, bugId: UUID(), type: .daily, prompt: "t", createdAt: Catalogue.epoch)
        let other = Fix(number: 2, bugId: UUID(), type: .daily, prompt: "o", createdAt: Catalogue.epoch)
        let quickFix = Fix(number: 3, bugId: UUID(), type: .quickFix, prompt: "q", createdAt: Catalogue.epoch)
        let byId = [timed.id: timed, other.id: other, quickFix.id: quickFix]
        let dayOf = { (d: Date) in LocalDay(d, calendar: self.c.calendar) }
        let yesterday = FixCompletion(fixId: timed.id, userId: user, assignedAt: c.at(2026, 3, 2, 22))
        let todays = FixCompletion(fixId: other.id, userId: user, assignedAt: c.at(2026, 3, 3, 7))
        func ran(_ fix: Fix, _ at: Date) -> AnalyticsEvent {
            AnalyticsEvent(userId: user, eventType: .timerCompleted, fixId: fix.id, dayOfWeek: 1, hourOfDay: 0, timestamp: at)
        }
        let afterMidnight = c.at(2026, 3, 3, 0).addingTimeInterval(120), march3 = c.day(2026, 3, 3)
        func pending(_ completions: [FixCompletion], _ ends: [AnalyticsEvent], on day: LocalDay? = nil) -> UUID? {
            PendingFixRule.pending(in: completions, fixesById: byId, today: day ?? march3, dayOf: dayOf, timerEnds: ends)?.completion.id
        }
        XCTAssertEqual(pending([yesterday, todays], [ran(timed, afterMidnight)]), yesterday.id)
        XCTAssertEqual(pending([yesterday, todays], [ran(timed, c.at(2026, 3, 2, 23))]), todays.id, "ran out on its own day")
        XCTAssertEqual(pending([yesterday, todays], [ran(other, afterMidnight)]), todays.id, "another fix's timer")
        XCTAssertEqual(pending([yesterday, todays], []), todays.id)
        XCTAssertEqual(pending([yesterday, todays], [ran(timed, afterMidnight)], on: march3.adding(days: 1)), nil, "today over: closed")
        let marked = FixCompletion(id: yesterday.id, fixId: timed.id, userId: user, outcome: .applied, assignedAt: yesterday.assignedAt,
                                   completedAt: afterMidnight)
        XCTAssertEqual(pending([marked, todays], [ran(timed, afterMidnight)]), todays.id)
        let quick = FixCompletion(fixId: quickFix.id, userId: user, assignedAt: c.at(2026, 3, 3, 1))
        XCTAssertEqual(pending([yesterday, todays, quick], [ran(timed, afterMidnight)]), quick.id, "a quick fix first")
        XCTAssertEqual(pending([yesterday], [ran(timed, afterMidnight)]), yesterday.id, "today's not given yet")
    }

    // 4. Rest-day tidbits do not repeat on consecutive days.

    /// `pick` over 30 slots in a row: never the same tidbit twice running, the same one when a
    /// slot is asked again, and every one of the pool's comes round.
    func assertRotates(_ pool: [MicroEducation], _ pick: (Int) -> MicroEducation?, _ what: String) {
        var last: UUID?
        var seen = Set<UUID>()
        for slot in 0..<30 {
            let t = pick(slot)
            XCTAssertNotNil(t)
            XCTAssertNotEqual(t?.id, last, "\(what) \(slot): the same tidbit as the one before")
            XCTAssertEqual(t?.id, pick(slot)?.id, "asking again shows the same one")
            last = t?.id
            if let t { seen.insert(t.id) }
        }
        XCTAssertEqual(seen.count, pool.count, "every tidbit comes round")
    }

    func test_MicroEducation_restDayDoesNotRepeatOnConsecutiveDays() {
        let pool = (0..<5).map { MicroEducation(id: Catalogue.uuid("t\($0)"), bugSlug: "need-to-be-right", trigger: .restDay,
                                                body: "tidbit \($0)", createdAt: Catalogue.epoch) }
        let user = UUID()
        assertRotates(pool, { MicroEducationPicker.restDay(from: pool, bugSlug: "need-to-be-right", userId: user, day: c.day(2026, 3, 1).adding(days: $0)) }, "day")
    }

    /// The diagnostic's tidbit: never last week's again (it was a fresh draw each week, the same
    /// one about one week in six), the same one when the week is asked about again.
    func test_MicroEducation_diagnosticDoesNotRepeatOnConsecutiveWeeks() {
        let pool = (0..<6).map { MicroEducation(id: Catalogue.uuid("d\($0)"), bugSlug: "need-to-be-right", trigger: .duringDiagnostic,
                                                body: "tidbit \($0)", createdAt: Catalogue.epoch) }
        let user = UUID()
        assertRotates(pool, { MicroEducationPicker.diagnostic(from: pool, bugSlug: "need-to-be-right", userId: user, week: c.day(2026, 3, 2).adding(days: 7 * $0)) }, "week")
    }

    // 7. A stable bug whose fixes were all applied is still retested.

    func test_Retest_stableBugWithEveryFixAppliedIsRetestedWithARerun() {
        var bug = Catalogue.bug("need-to-be-right", status: .stable, activatedAt: c.at(2025, 6, 1))
        bug.stableSince = c.at(2026, 2, 1)
        let fixes = Catalogue.fixes(for: bug, perSeverity: 2, quick: 0, weekly: 0)
        let user = UUID()
        let done = fixes.enumerated().map { i, f -> FixCompletion in
            var x = FixCompletion(fixId: f.id, userId: user, assignedAt: c.at(2025, 7, 1 + i))
            try? x.mark(.applied, at: c.at(2025, 7, 1 + i, 20))
            return x
        }
        let a = DailyFixRules.choose(.init(userId: user, day: c.day(2026, 3, 10), bugs: [bug], primaryBugId: bug.id,
                                           fixes: fixes, completions: done, calendar: c.calendar))
        guard case .fix(let f, let reason) = a else { return XCTFail("rest day instead of the 30-day retest") }
        XCTAssertEqual(reason, .retest)
        XCTAssertEqual(f.id, fixes[0].id, "the fix applied longest ago comes back first")
    }

    // 8. Stability after a regression needs fresh quiet ratings.

    func test_Lifecycle_regressedBugNeedsFreshQuietRatings() {
        var bug = Catalogue.bug("need-to-be-right", status: .stable, activatedAt: c.at(2026, 1, 1))
        bug.stableSince = c.at(2026, 2, 10)
        let quiet = (0..<3).map { k in
            WeeklyDiagnostic(userId: UUID(), weekStarting: c.at(2026, 1, 19).addingTimeInterval(Double(k) * 7 * 86_400),
                             responses: [BugDiagnosticResponse(bugId: bug.id, intensity: .quiet)],
                             completedAt: c.at(2026, 1, 25, 19).addingTimeInterval(Double(k) * 7 * 86_400))
        }
        let crash = Crash(userId: UUID(), bugId: bug.id, crashedAt: c.at(2026, 3, 1, 12))
        guard let t = BugLifecycle.evaluate(bug, crashes: [crash], diagnostics: quiet, retests: [], now: c.at(2026, 3, 1, 13),
                                            calendar: c.calendar) else { return XCTFail("the crash should regress it") }
        let regressed = BugLifecycle.apply(t, to: bug, at: c.at(2026, 3, 1, 13))
        XCTAssertEqual(regressed.status, .active)
        XCTAssertNotNil(regressed.regressedAt)
        // 21 days after the crash, no diagnostic since: not stable on the old quiet ratings.
        XCTAssertNil(BugLifecycle.evaluate(regressed, crashes: [crash], diagnostics: quiet, retests: [], now: c.at(2026, 3, 23, 9),
                                           calendar: c.calendar))
        // Three fresh quiet weeks after the regression: stable again.
        let fresh = (0..<3).map { k in
            WeeklyDiagnostic(userId: UUID(), weekStarting: c.at(2026, 3, 2).addingTimeInterval(Double(k) * 7 * 86_400),
                             responses: [BugDiagnosticResponse(bugId: bug.id, intensity: .quiet)],
                             completedAt: c.at(2026, 3, 8, 19).addingTimeInterval(Double(k) * 7 * 86_400))
        }
        // Three fresh quiet weeks after the regression, 22 days on: not yet, the active period
        // it started is 28 days long (the reminders call it young for as long).
        XCTAssertNil(BugLifecycle.evaluate(regressed, crashes: [crash], diagnostics: quiet + fresh, retests: [],
                                           now: c.at(2026, 3, 23, 9), calendar: c.calendar))
        XCTAssertEqual(BugLifecycle.evaluate(regressed, crashes: [crash], diagnostics: quiet + fresh, retests: [],
                                             now: c.at(2026, 3, 29, 9), calendar: c.calendar), .stabilised)
    }

    /// A resolved bug deactivated and taken up again is active, its stability earned again from the
    /// new activation: it kept "resolved" and its old stable date, and was only retested.
    func test_Lifecycle_aResolvedBugActivatedAgainIsActive() {
        var bug = Catalogue.bug("need-to-impress", status: .resolved, activatedAt: c.at(2025, 1, 6))
        bug.stableSince = c.at(2025, 2, 9)
        bug.resolvedAt = c.at(2025, 5, 10)
        let quiet = (0..<20).map { k in
            WeeklyDiagnostic(userId: UUID(), weekStarting: c.at(2025, 1, 6).addingTimeInterval(Double(k) * 7 * 86_400),
                             responses: [BugDiagnosticResponse(bugId: bug.id, intensity: .quiet)],
                             completedAt: c.at(2025, 1, 12, 19).addingTimeInterval(Double(k) * 7 * 86_400))
        }
        let again = BugLifecycle.activate(BugLifecycle.deactivate(bug, at: c.at(2025, 6, 2)), at: c.at(2025, 6, 3))
        XCTAssertEqual(again.status, .active)
        XCTAssertNil(again.stableSince)
        XCTAssertNil(again.resolvedAt)
        XCTAssertEqual(again.activatedAt, c.at(2025, 6, 3))
        // 28 days on, the quiet ratings from before do not make it stable; three new ones do.
        XCTAssertNil(BugLifecycle.evaluate(again, crashes: [], diagnostics: quiet, retests: [], now: c.at(2025, 7, 2, 9), calendar: c.calendar))
        let fresh = (0..<3).map { k in
            WeeklyDiagnostic(userId: UUID(), weekStarting: c.at(2025, 6, 9).addingTimeInterval(Double(k) * 7 * 86_400),
                             responses: [BugDiagnosticResponse(bugId: bug.id, intensity: .quiet)],
                             completedAt: c.at(2025, 6, 15, 19).addingTimeInterval(Double(k) * 7 * 86_400))
        }
        XCTAssertEqual(BugLifecycle.evaluate(again, crashes: [], diagnostics: quiet + fresh, retests: [], now: c.at(2025, 7, 2, 9),
                                             calendar: c.calendar), .stabilised)
        // Activating a stable bug that is active keeps it stable and its clock where it was.
        var stable = BugLifecycle.apply(.stabilised, to: again, at: c.at(2025, 7, 2, 9))
        stable = BugLifecycle.activate(stable, at: c.at(2025, 7, 3))
        XCTAssertEqual(stable.status, .stable)
        XCTAssertEqual(stable.activatedAt, c.at(2025, 6, 3))
    }

    /// A present rating two weeks into stability holds resolution off for 90 days, not for good:
    /// the bug stayed stable for a year of quiet weeks after it.
    func test_Lifecycle_aPresentWeekHoldsResolutionOffForNinetyDays() {
        var bug = Catalogue.bug("need-to-be-right", status: .stable, activatedAt: c.at(2026, 1, 1))
        bug.stableSince = c.at(2026, 3, 1)
        let present = WeeklyDiagnostic(userId: UUID(), weekStarting: c.at(2026, 3, 9), responses: [BugDiagnosticResponse(bugId: bug.id, intensity: .present)],
                                       completedAt: c.at(2026, 3, 15, 19))
        XCTAssertNil(BugLifecycle.evaluate(bug, crashes: [], diagnostics: [present], retests: [], now: c.at(2026, 6, 1), calendar: c.calendar),
                     "92 days stable, the present week 78 days ago")
        XCTAssertEqual(BugLifecycle.evaluate(bug, crashes: [], diagnostics: [present], retests: [], now: c.at(2026, 6, 14), calendar: c.calendar),
                       .resolved, "the present week 91 days ago")
    }

    // 9. At most one pattern surfaced per local day, across commands.

    func test_PatternSurfacing_atMostOnePerLocalDayAcrossCommands() {
        let now = c.at(2026, 3, 10, 20)
        var shown = DetectedPattern(userId: UUID(), patternType: .avoidance, severity: .alert, title: "a", body: "b",
                                    relatedBugIds: [], dataPoints: 5, detectedAt: now.addingTimeInterval(-7200))
        shown.viewedAt = now.addingTimeInterval(-7200)
        let other = DetectedPattern(userId: UUID(), patternType: .temporalCrash, severity: .alert, title: "c", body: "d",
                                    relatedBugIds: [], dataPoints: 5, detectedAt: now)
        // A fresh process (an empty session) two hours later: nothing more today.
        XCTAssertNil(PatternSurfacing.pick(from: [other], history: [shown], moment: .beforeDailyFix, session: SurfacingSession(),
                                           now: now, calendar: c.calendar))
        // The next local day it may come.
        XCTAssertEqual(PatternSurfacing.pick(from: [other], history: [shown], moment: .beforeDailyFix, session: SurfacingSession(),
                                             now: c.at(2026, 3, 11, 9), calendar: c.calendar)?.id, other.id)
    }

    // 10. Reruns: with one bug the fixes do not run out for good.

    func test_DailyFix_rerunAfterNinetyDaysWhenNothingUnseenIsLeft() async throws {
        let w = try await World.make()
        var rest = 0, reruns = 0
        var lastApplied: [UUID: Int] = [:]
        for d in 0..<200 {
            let at = w.clock.now.addingTimeInterval(Double(d) * 86_400)
            let day = LocalDay(at, calendar: w.cal)
            var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
            try await vm.load(at: at)
            guard let card = vm.daily else {
                rest += 1
                // A rest day only when nothing is eligible: every daily fix seen, none applied 90 days ago or more.
                for f in w.fixes where f.type == .daily {
                    let last = try XCTUnwrap(lastApplied[f.id], "day \(d): rest day with \(f.label) unseen")
                    XCTAssertLessThan(day.ordinal - last, Thresholds.rerunAfterDays, "day \(d): rest day with \(f.label) eligible as a rerun")
                }
                continue
            }
            if card.isRerun {
                reruns += 1
                let last = try XCTUnwrap(lastApplied[card.fix.id])
                XCTAssertGreaterThanOrEqual(day.ordinal - last, Thresholds.rerunAfterDays, "a rerun within 90 days")
            }
            try await vm.mark(.applied, at: at.addingTimeInterval(3600), target: (card.completion, card.fix))
            lastApplied[card.fix.id] = day.ordinal
        }
        // 24 daily fixes (and 2 weekly): reruns from day 90, one a day while any is 90 days old.
        XCTAssertGreaterThanOrEqual(reruns, 24, "after the unseen fixes ran out, each came back 90 days after it was applied")
        XCTAssertGreaterThan(rest, 0)
    }

    func test_TodayCard_saysOnceWhenUnseenFixesRunLow() async throws {
        let w = try await World.make()
        var notes: [Int] = []
        for d in 0..<40 {
            let at = w.clock.now.addingTimeInterval(Double(d) * 86_400)
            var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
            try await vm.load(at: at)
            guard let card = vm.daily else { continue }
            if let left = card.unseenLeft { notes.append(left) }
            // Asking again the same day shows the same note.
            var again = TodayViewModel(repos: w.repos, calendar: w.cal)
            try await again.load(at: at.addingTimeInterval(60))
            XCTAssertEqual(again.daily?.unseenLeft, card.unseenLeft)
            try await vm.mark(.applied, at: at.addingTimeInterval(3600), target: (card.completion, card.fix))
        }
        XCTAssertEqual(notes, [Thresholds.unseenFixesLowWarning], "said once, on the day it reached the number")
    }

    // 11. The smaller ones.

    func test_BugActivate_againRestartsTheSeverityRamp() {
        var bug = Catalogue.bug("need-to-impress", activatedAt: c.at(2026, 1, 1))
        bug = BugLifecycle.deactivate(bug, at: c.at(2026, 2, 1))
        bug = BugLifecycle.activate(bug, at: c.at(2026, 6, 1))
        XCTAssertEqual(bug.activatedAt, c.at(2026, 6, 1))
        // Activating an active bug again changes nothing.
        XCTAssertEqual(BugLifecycle.activate(bug, at: c.at(2026, 7, 1)).activatedAt, c.at(2026, 6, 1))
    }

    func test_StreakService_settleBringsTheStoredStreakUpToTheClock() async throws {
        let w = try await World.make()
        for d in 0..<3 { try await w.streak.recordEngagement(at: w.clock.now.addingTimeInterval(Double(d) * 86_400)) }
        let before = try await w.profile()
        XCTAssertEqual(before.currentStreak, 3)
        let later = w.clock.now.addingTimeInterval(10 * 86_400)
        try await w.streak.settle(at: later)
        let after = try await w.profile()
        XCTAssertEqual(after.currentStreak, 0, "the stored streak is not stale after missed days")
        XCTAssertEqual(after.longestStreak, 3)
    }
}

/// Records from before egofix kept a fix's day (schema v4), synced later.
final class SyncUpgradeRuleTests: XCTestCase {
    /// A person living in Tokyo, fixes opened at 07:00 one day and 20:00 the next, all kept
    /// without their day by an earlier egofix, synced for the first time in New York: each day
    /// keeps its own fix. Read in New York's zone, 07:00 in Tokyo fell on the day before, and the
    /// same-day rule superseded every other applied fix (21 applied became 11, the version went down).
    func test_sync_fixesGivenBeforeTheDayWasKeptKeepTheirDaysInAnyZone() throws {
        var tokyo = Calendar(identifier: .gregorian)
        tokyo.timeZone = try XCTUnwrap(TimeZone(identifier: "Asia/Tokyo"))
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = try XCTUnwrap(TimeZone(identifier: "America/New_York"))
        let user = UUID(), fixes = (0..<6).map { _ in UUID() }
        var completions: [FixCompletion] = [], events: [AnalyticsEvent] = []
        for (i, fix) in fixes.enumerated() {
            let day = try XCTUnwrap(tokyo.date(from: DateComponents(year: 2026, month: 2, day: 2 + i, hour: i % 2 == 0 ? 7 : 20)))
            let marked = day.addingTimeInterval(1800)
            completions.append(FixCompletion(fixId: fix, userId: user, outcome: .applied, assignedAt: day, completedAt: marked))
            for (type, at) in [(EventType.fixAssigned, day), (.fixApplied, marked)] {
                let c = tokyo.dateComponents([.weekday, .hour], from: at)
                events.append(AnalyticsEvent(userId: user, eventType: type, fixId: fix, dayOfWeek: c.weekday ?? 0, hourOfDay: c.hour ?? 0, timestamp: at))
            }
        }
        let types = Dictionary(uniqueKeysWithValues: fixes.map { ($0, FixType.daily) })
        XCTAssertEqual(SyncRules.resolveSameDay(completions, fixTypes: types, events: events, calendar: newYork), [],
                       "no fix superseded")
        // Without the events to read the days from, New York's days group them in pairs.
        XCTAssertFalse(SyncRules.resolveSameDay(completions, fixTypes: types, calendar: newYork).isEmpty)
    }
}
