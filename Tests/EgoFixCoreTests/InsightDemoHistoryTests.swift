import XCTest
@testable import EgoFixCore
import EgoFixResources

final class InsightDemoHistoryTests: XCTestCase {
    let clock = Clock("Europe/Berlin")
    var end: Date { clock.at(2026, 11, 22, 12) }

    func shipped() throws -> SeedCatalogue {
        try SeedCatalogue.decode(bugs: XCTUnwrap(BuiltIn.file("Seeds/bugs.json")),
                                 fixes: XCTUnwrap(BuiltIn.file("Seeds/fixes.json")),
                                 education: XCTUnwrap(BuiltIn.file("Seeds/micro_education.json")))
    }

    func generate(years: Int = 1, seed: UInt64 = 1) throws -> Practice {
        DemoHistory.generate(catalogue: try shipped(), endingAt: end, years: years, seed: seed, calendar: clock.calendar)
    }

    /// The demo's profile (it always makes one; a blank stands in so a missing one fails the checks).
    func profile(_ d: Practice) -> UserProfile {
        XCTAssertNotNil(d.profile, "the demo makes a profile")
        return d.profile ?? UserProfile(currentVersion: "none", createdAt: Date(timeIntervalSince1970: 0))
    }

    func assertAllSevenFire(_ d: Practice, line: UInt = #line) {
        XCTAssertEqual(Set(d.patterns.map(\.patternType)), Set(PatternType.allCases), "\(d.patterns.map(\.title))", line: line)
        XCTAssertEqual(d.patterns.filter { $0.patternType == .temporalCrash }.count, 2, "by weekday and by time of day", line: line)
        for p in d.patterns {
            XCTAssertEqual(CopyRules.violations(p.title), [], p.title, line: line)
            XCTAssertEqual(CopyRules.violations(p.body), [], p.body, line: line)
            XCTAssertFalse(p.basis.isEmpty, line: line)
        }
    }

    /// The build starts each share card as the demo user shares the fix; the fixes it hears about
    /// must be exactly the ones the finished history shares, and hearing about them changes nothing.
    func test_DemoHistory_tellsEachSharedFixAsItHappens() throws {
        final class Heard: @unchecked Sendable { var ids: [UUID] = [] }
        let heard = Heard()
        let d = DemoHistory.generate(catalogue: try shipped(), endingAt: end, years: 2, seed: 1, calendar: clock.calendar,
                                     onShare: { heard.ids.append($0.id) })
        let shared = d.events.filter { $0.eventType == .fixShared }.compactMap(\.fixId)
        XCTAssertFalse(shared.isEmpty)
        XCTAssertEqual(heard.ids, shared)
        XCTAssertEqual(d, try generate(years: 2, seed: 1))
    }

    func test_DemoHistory_makesAllSevenDetectorsFire() throws {
        for seed in [UInt64(1), 2, 3] {
            let d = try generate(seed: seed)
            assertAllSevenFire(d)
            // The plants, in the user's own terms.
            XCTAssertTrue(d.patterns.contains { $0.title == "You skip fixes about being liked." }, "seed \(seed)")
            XCTAssertTrue(d.patterns.contains { $0.title.hasSuffix("crashes about being right happened on a Monday.") }, "seed \(seed)")
            XCTAssertTrue(d.patterns.contains { $0.title == "5 of your 6 crashes about being busy were logged at night, between 00:00 and 06:00." })
            // The latest regression is reported; the planted one is the busy bug's return at 01:30.
            let data = DetectionData(events: d.events, diagnostics: d.diagnostics, context: DetectionContext(practice: d, now: end, calendar: clock.calendar))
            let busy = try XCTUnwrap(d.bugs.first { $0.slug == "need-to-be-busy" })
            let back = RegressionDetector.regressions(of: busy, in: data).findings.last
            XCTAssertEqual(back?.reason, .crash)
            XCTAssertEqual(back.map { clock.calendar.component(.hour, from: $0.at) }, 1)
            XCTAssertTrue(d.patterns.contains { $0.patternType == .regression && $0.title.hasSuffix(" is back.") })
            // Plateau and improvement report the strongest case, which may be a bug other than the planted one.
        }
    }

    /// `egofix today` reads only the lookback window's events plus crashes and failures of all time,
    /// and skips completions and crashes the events already cover: the patterns must not change.
    func test_PatternEngine_windowedRead_findsWhatTheWholeHistoryFinds() throws {
        let d = try generate(years: 3, seed: 2)
        let ctx = DetectionContext(practice: d, now: end, calendar: clock.calendar)
        let whole = PatternEngine.run(events: d.events, diagnostics: d.diagnostics, context: ctx)
        let windowed = d.events.filter { $0.timestamp >= ctx.windowStart || DetectionContext.allTimeEventTypes.contains($0.eventType) }
        XCTAssertLessThan(windowed.count, d.events.count / 3, "three years, half a year of window")
        let needs = DetectionContext.needs(events: windowed)
        XCTAssertFalse(needs.completions)
        XCTAssertFalse(needs.crashes)
        var lean = ctx
        lean.completions = []
        lean.crashes = []
        let read = PatternEngine.run(events: windowed, diagnostics: d.diagnostics, context: lean)
        XCTAssertFalse(whole.patterns.isEmpty)
        XCTAssertEqual(read, whole)
    }

    /// `egofix today` gives the daily-fix rule only applied completions and those since the longest
    /// cooldown began: on every day of a year of history the choice is the one the whole history gives.
    func test_DailyFixRules_cooldownWindow_choosesWhatTheWholeHistoryChooses() throws {
        let d = try generate(years: 1, seed: 3)
        let cal = clock.calendar
        let last = LocalDay(end, calendar: cal)
        var differentInputs = 0
        for back in stride(from: 0, to: 360, by: 3) {
            let day = last.adding(days: -back)
            let cutoff = DailyFixRules.cooldownStart(day: day, calendar: cal)
            let lean = d.completions.filter { $0.outcome == .applied || ($0.completedAt ?? $0.assignedAt) >= cutoff }
            if lean.count < d.completions.count { differentInputs += 1 }
            func choice(_ completions: [FixCompletion]) -> DailyAssignment {
                DailyFixRules.choose(.init(userId: profile(d).id, day: day, bugs: d.bugs, primaryBugId: profile(d).primaryBugId,
                                           fixes: d.fixes, completions: completions, calendar: cal))
            }
            XCTAssertEqual(choice(lean), choice(d.completions), "day \(day)")
        }
        XCTAssertGreaterThan(differentInputs, 100)
    }

    func test_DemoHistory_isDeterministic() throws {
        let a = try generate(seed: 42), b = try generate(seed: 42)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a.completions.map(\.id), try generate(seed: 43).completions.map(\.id))
    }

    func test_DemoHistory_isConsistentWithTheRules() throws {
        let d = try generate()
        let cal = clock.calendar
        let fixes = Dictionary(uniqueKeysWithValues: d.fixes.map { ($0.id, $0) })
        XCTAssertTrue((d.events.map(\.timestamp) + d.completions.map(\.assignedAt)).allSatisfy { $0 <= end })
        XCTAssertEqual(LocalDay(profile(d).createdAt, calendar: cal), clock.day(2025, 11, 22))

        // Versions: one bump per 7 applied fixes; the profile agrees.
        let applied = d.completions.filter { $0.outcome == .applied }
        let bumps = d.versions.filter { $0.changeType == .minorUpdate || $0.changeType == .majorUpdate }
        XCTAssertEqual(bumps.count, applied.count / Thresholds.fixesPerMinorVersion)
        XCTAssertEqual(profile(d).currentVersion, VersionRules.version(forAppliedCount: applied.count).description)

        // One day's fix per local day; an applied daily fix is never offered again.
        let daily = d.completions.filter { fixes[$0.fixId]?.type != .quickFix }
        let days = daily.map { LocalDay($0.assignedAt, calendar: cal) }
        XCTAssertEqual(Set(days).count, days.count)
        let appliedDaily = daily.filter { $0.outcome == .applied }.map(\.fixId)
        XCTAssertEqual(Set(appliedDaily).count, appliedDaily.count)

        // Crashes: each in the changelog; a reboot happened and closed them.
        XCTAssertEqual(d.versions.filter { $0.changeType == .crash }.count, d.crashes.count)
        XCTAssertFalse(d.versions.filter { $0.changeType == .reboot }.isEmpty)
        XCTAssertTrue(d.crashes.contains { $0.rebootedAt != nil })

        // Diagnostics: at most 3 bugs, once per week.
        XCTAssertTrue(d.diagnostics.allSatisfy { $0.responses.count <= Thresholds.diagnosticMaxBugs && !$0.responses.isEmpty })
        let weeks = d.diagnostics.map { LocalDay($0.weekStarting, calendar: cal) }
        XCTAssertEqual(Set(weeks).count, weeks.count)
        XCTAssertTrue(weeks.allSatisfy { $0.isoWeekday == 1 })

        // Lifecycles: more than one state; the fourth bug regressed and is active again.
        XCTAssertGreaterThan(Set(d.bugs.map(\.status)).count, 1)
        XCTAssertEqual(d.bugs.first { $0.slug == "need-to-be-busy" }?.status, .active)

        // A gap of at least ten days with nothing in it.
        let active = Set(d.events.map { LocalDay($0.timestamp, calendar: cal) }).sorted()
        XCTAssertTrue(zip(active, active.dropFirst()).contains { $1.days(since: $0) > 10 })

        // The streak on the profile is the one the rules give for the days engaged.
        let ledger = DayLedger(d, calendar: cal)
        XCTAssertEqual(ledger.longestStreak(from: clock.day(2025, 1, 1), to: clock.day(2027, 1, 1)), profile(d).longestStreak)

        // Reflections in Markdown, some asking questions.
        let questions = d.completions.compactMap(\.reflection).flatMap(AskedQuestions.extract(from:))
        XCTAssertGreaterThan(questions.count, 3)
        XCTAssertTrue(questions.allSatisfy { $0.hasSuffix("?") || $0.hasSuffix("?**") })
        XCTAssertTrue(d.completions.contains { $0.reflection?.contains("**") == true || $0.reflection?.contains("\n- ") == true })
        for c in d.completions { if let r = c.reflection { XCTAssertEqual(CopyRules.violations(r), [], r) } }
        for c in d.crashes { if let n = c.note { XCTAssertEqual(CopyRules.violations(n), [], n) } }
    }

    func test_DemoHistory_tenYears() throws {
        let d = try generate(years: 10, seed: 5)
        XCTAssertEqual(LocalDay(profile(d).createdAt, calendar: clock.calendar), clock.day(2016, 11, 22))
        assertAllSevenFire(d)
    }

    func test_DemoHistory_hundredYears() throws {
        let d = try generate(years: 100, seed: 1)
        XCTAssertEqual(LocalDay(profile(d).createdAt, calendar: clock.calendar), clock.day(1926, 11, 22))
        XCTAssertGreaterThan(d.completions.count, 10_000)
        assertAllSevenFire(d)
        let graph = ContributionGraph.make(d, calendar: clock.calendar, from: clock.day(1926, 11, 22), to: clock.day(2026, 11, 22))
        XCTAssertEqual(graph.cells.count, LocalDay(year: 2026, month: 11, day: 22).days(since: LocalDay(year: 1926, month: 11, day: 22)) + 1)
    }

    func test_Calibration_lowAlertRateWithNothingPlanted() {
        let report = Calibration.run(runs: 40, seed: 7)
        XCTAssertEqual(report.runs, 40)
        XCTAssertLessThanOrEqual(report.alertRate, 0.05, report.summary)
        XCTAssertEqual(report.lines.map(\.patternType), PatternType.allCases)
        XCTAssertEqual(report, Calibration.run(runs: 40, seed: 7), "seeded, so repeatable")
        XCTAssertTrue(report.summary.hasPrefix("40 histories with nothing planted: an alert in"), report.summary)
    }
}
