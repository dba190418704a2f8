import XCTest
@testable import EgoFixCore

final class DailyFixRuleTests: XCTestCase {
    let c = Clock("Europe/Berlin")

    func input(bugs: [Bug], fixes: [Fix], completions: [FixCompletion] = [], day: LocalDay, user: UUID = Catalogue.uuid("user")) -> DailyFixRules.Input {
        .init(userId: user, day: day, bugs: bugs, primaryBugId: bugs.first?.id, fixes: fixes, completions: completions, calendar: c.calendar)
    }

    func test_severityGrowsWithDaysActive() {
        XCTAssertEqual(DailyFixRules.targetSeverity(daysActive: 0), .low)
        XCTAssertEqual(DailyFixRules.targetSeverity(daysActive: 13), .low)
        XCTAssertEqual(DailyFixRules.targetSeverity(daysActive: 14), .medium)
        XCTAssertEqual(DailyFixRules.targetSeverity(daysActive: 41), .medium)
        XCTAssertEqual(DailyFixRules.targetSeverity(daysActive: 42), .high)
        let start = c.at(2026, 3, 3)  // a Tuesday, so no weekly overhaul
        let bug = Catalogue.bug("need-to-be-right", activatedAt: start)
        let fixes = Catalogue.fixes(for: bug)
        let day0 = LocalDay(start, calendar: c.calendar)
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: day0)).fix?.severity, .low)
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: day0.adding(days: 15))).fix?.severity, .medium)
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: day0.adding(days: 43))).fix?.severity, .high)
    }

    func test_choice_isDeterministicPerUserAndDay() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 3))
        let fixes = Catalogue.fixes(for: bug, perSeverity: 12)
        let day = c.day(2026, 3, 4)
        let a = DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: day))
        let b = DailyFixRules.choose(input(bugs: [bug], fixes: fixes.reversed(), day: day))
        XCTAssertEqual(a, b, "input order does not matter")
        var picks = Set<UUID>()
        for u in 0..<12 {
            if let f = DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: day, user: Catalogue.uuid("u\(u)"))).fix { picks.insert(f.id) }
        }
        XCTAssertGreaterThan(picks.count, 3, "different users get different fixes on the same day")
    }

    func test_neverReassignsAnAppliedFix_andFallsBackToRestDay() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 3))
        let fixes = Catalogue.fixes(for: bug, perSeverity: 2, quick: 1, weekly: 0)
        var completions: [FixCompletion] = []
        var day = c.day(2026, 3, 3)
        var seen: [UUID] = []
        while case .fix(let f, _) = DailyFixRules.choose(input(bugs: [bug], fixes: fixes, completions: completions, day: day)) {
            XCTAssertFalse(seen.contains(f.id), "\(f.label) came back after being applied")
            seen.append(f.id)
            var comp = FixCompletion(fixId: f.id, userId: Catalogue.uuid("user"), assignedAt: day.at(hour: 9, in: c.calendar))
            try? comp.mark(.applied, at: day.at(hour: 10, in: c.calendar))
            completions.append(comp)
            day = day.adding(days: 1)
            if seen.count > 20 { break }
        }
        XCTAssertEqual(seen.count, 6, "every daily fix once, quick fixes never")
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: fixes, completions: completions, day: day)), .restDay)
    }

    func test_exhaustedBugFallsBackToAnotherActiveBug() {
        let a = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 3))
        let b = Catalogue.bug("need-to-be-busy", activatedAt: c.at(2026, 3, 4))
        let fixesB = Catalogue.fixes(for: b, startNumber: 100)
        let day = c.day(2026, 3, 10)
        // Only b has fixes: whichever bug's turn it is, the fix comes from b.
        for d in 0..<2 {
            let r = DailyFixRules.choose(input(bugs: [a, b], fixes: fixesB, day: day.adding(days: d)))
            XCTAssertEqual(r.fix?.bugId, b.id)
        }
    }

    func test_failedFixReturnsAfterItsCooldown() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 3))
        let only = Catalogue.fixes(for: bug, perSeverity: 1, quick: 0, weekly: 0).filter { $0.severity == .low }
        var comp = FixCompletion(fixId: only[0].id, userId: Catalogue.uuid("user"), assignedAt: c.at(2026, 3, 3))
        try? comp.mark(.failed, at: c.at(2026, 3, 3, 20))
        let d0 = c.day(2026, 3, 3)
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: only, completions: [comp], day: d0.adding(days: 6))), .restDay)
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: only, completions: [comp], day: d0.adding(days: 7))).fix?.id, only[0].id)
    }

    func test_weeklyOverhaulOnMondaysAfterTwoWeeks() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 2))
        let fixes = Catalogue.fixes(for: bug, weekly: 0)
            + [Fix(id: Catalogue.uuid("overhaul-medium"), number: 900, bugId: bug.id, type: .weekly, severity: .medium,
                   prompt: "overhaul", createdAt: c.at(2026, 1, 1))]
        let monday = c.day(2026, 3, 16) // 14 days active
        guard case .fix(let f, let reason) = DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: monday)) else { return XCTFail() }
        XCTAssertEqual(f.type, .weekly)
        XCTAssertEqual(reason, .weeklyOverhaul)
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: c.day(2026, 3, 9))).fix?.type, .daily, "not before 14 days")
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: monday.adding(days: 1))).fix?.type, .daily)
    }

    /// Monday's overhaul follows the severity ramp (low to day 13, medium from 14, high from 42):
    /// the target severity, else a lower one, else the daily fix; a high overhaul came on day 32.
    func test_weeklyOverhaulFollowsTheSeverityRamp() {
        let bug = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 2))
        let daily = Catalogue.fixes(for: bug, weekly: 0)
        let weekly = [FixSeverity.high, .medium, .low].enumerated().map { i, sev in
            Fix(id: Catalogue.uuid("overhaul-\(sev.rawValue)"), number: 900 + i, bugId: bug.id, type: .weekly, severity: sev,
                prompt: "overhaul \(sev.rawValue)", createdAt: c.at(2026, 1, 1))
        }
        func overhaul(_ day: LocalDay, _ fixes: [Fix]) -> FixSeverity? {
            guard case .fix(let f, .weeklyOverhaul) = DailyFixRules.choose(input(bugs: [bug], fixes: daily + fixes, day: day)) else { return nil }
            return f.severity
        }
        let start = c.day(2026, 3, 2)
        XCTAssertEqual(overhaul(start.adding(days: 14), weekly), .medium)
        XCTAssertEqual(overhaul(start.adding(days: 35), weekly), .medium, "day 35: not high yet")
        XCTAssertEqual(overhaul(start.adding(days: 42), weekly), .high)
        XCTAssertEqual(overhaul(start.adding(days: 14), weekly.filter { $0.severity != .medium }), .low, "the nearest, lower first")
        XCTAssertNil(overhaul(start.adding(days: 35), weekly.filter { $0.severity == .high }), "never above the ramp: the daily fix instead")
        XCTAssertEqual(overhaul(start.adding(days: 42), weekly.filter { $0.severity == .high }), .high)
    }

    func test_activeBugsTakeTurns() {
        let a = Catalogue.bug("need-to-be-right", activatedAt: c.at(2026, 3, 3))
        let b = Catalogue.bug("need-to-be-busy", activatedAt: c.at(2026, 3, 3))
        let fixes = Catalogue.fixes(for: a) + Catalogue.fixes(for: b, startNumber: 100)
        let day = c.day(2026, 3, 4)
        let bugsOverFourDays = (0..<4).compactMap { DailyFixRules.choose(input(bugs: [a, b], fixes: fixes, day: day.adding(days: $0))).fix?.bugId }
        XCTAssertEqual(Set(bugsOverFourDays), [a.id, b.id])
        XCTAssertNotEqual(bugsOverFourDays[0], bugsOverFourDays[1])
    }

    func test_stableBugIsRetestedEvery30Days() {
        var bug = Catalogue.bug("need-to-be-right", status: .stable, activatedAt: c.at(2026, 1, 1))
        bug.stableSince = c.at(2026, 3, 1)
        let fixes = Catalogue.fixes(for: bug)
        XCTAssertEqual(DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: c.day(2026, 3, 30))), .restDay,
                       "a stable bug is quiet between retests")
        guard case .fix(_, let reason) = DailyFixRules.choose(input(bugs: [bug], fixes: fixes, day: c.day(2026, 3, 31))) else { return XCTFail() }
        XCTAssertEqual(reason, .retest)
    }

    func test_quickFixAfterCrash_prefersOneNeverUsed() {
        let bug = Catalogue.bug("need-to-be-right")
        let fixes = Catalogue.fixes(for: bug, quick: 3)
        let quick = fixes.filter { $0.type == .quickFix }
        let user = Catalogue.uuid("user")
        let used = [FixCompletion(fixId: quick[0].id, userId: user, assignedAt: c.at(2026, 3, 1)),
                    FixCompletion(fixId: quick[1].id, userId: user, assignedAt: c.at(2026, 3, 2))]
        XCTAssertEqual(CrashRules.quickFix(for: bug.id, fixes: fixes, completions: used, userId: user, day: c.day(2026, 3, 3))?.id, quick[2].id)
        XCTAssertNil(CrashRules.quickFix(for: UUID(), fixes: fixes, completions: [], userId: user, day: c.day(2026, 3, 3)))
    }
}
