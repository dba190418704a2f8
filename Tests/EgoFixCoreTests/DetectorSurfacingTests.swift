import XCTest
@testable import EgoFixCore

final class DetectorSurfacingTests: XCTestCase {
    let clock = Clock("Europe/Berlin")
    let user = Catalogue.uuid("surfacing-user")

    func pattern(_ name: String, _ type: PatternType, _ severity: PatternSeverity, p: Double = 0.5,
                 detected: Date? = nil, viewed: Date? = nil, dismissed: Date? = nil) -> DetectedPattern {
        DetectedPattern(id: Catalogue.uuid(name), userId: user, patternType: type, severity: severity, title: name,
                        body: "", relatedBugIds: [], dataPoints: 5, pValue: p,
                        detectedAt: detected ?? clock.at(2026, 6, 1, 8), viewedAt: viewed, dismissedAt: dismissed)
    }

    var now: Date { clock.at(2026, 6, 1, 9) }

    func test_PatternSurfacing_maxOnePerSession() throws {
        let candidates = [pattern("a", .avoidance, .alert, p: 0.001), pattern("b", .temporalCrash, .alert, p: 0.002),
                          pattern("c", .plateau, .insight, p: 1)]
        let first = try XCTUnwrap(PatternSurfacing.pick(from: candidates, history: [], moment: .beforeDailyFix,
                                                        session: SurfacingSession(), now: now, calendar: clock.calendar))
        XCTAssertEqual(first.title, "a", "one pattern, the strongest")
        let session = SurfacingSession(shownPatternIds: [first.id])
        XCTAssertNil(PatternSurfacing.pick(from: candidates, history: [], moment: .afterOutcome, session: session,
                                           now: now, calendar: clock.calendar), "the session already had its one")
    }

    func test_PatternSurfacing_respectsCooldown() {
        let viewed = pattern("old", .avoidance, .alert, p: 0.001, detected: clock.at(2026, 5, 10), viewed: clock.at(2026, 5, 19, 20))
        let fresh = pattern("new", .avoidance, .alert, p: 0.0001)
        // Viewed 13 days ago (local days): still cooling down.
        XCTAssertNil(PatternSurfacing.pick(from: [fresh], history: [viewed], moment: .beforeDailyFix, session: .init(),
                                           now: now, calendar: clock.calendar))
        // Another type is not affected.
        let other = pattern("other", .correlatedBugs, .alert, p: 0.001)
        XCTAssertEqual(PatternSurfacing.pick(from: [fresh, other], history: [viewed], moment: .beforeDailyFix,
                                             session: .init(), now: now, calendar: clock.calendar)?.title, "other")
        // 14 days later it may come back.
        let later = clock.at(2026, 6, 2, 9)
        XCTAssertEqual(PatternSurfacing.pick(from: [fresh], history: [viewed], moment: .beforeDailyFix, session: .init(),
                                             now: later, calendar: clock.calendar)?.title, "new")
    }

    func test_PatternSurfacing_momentDecidesSeverity() {
        let alert = pattern("alert", .avoidance, .alert, p: 0.001)
        let insight = pattern("insight", .plateau, .insight, p: 1)
        let observation = pattern("observation", .improvement, .observation, p: 0.3)
        func pick(_ c: [DetectedPattern], _ m: SurfacingMoment) -> String? {
            PatternSurfacing.pick(from: c, history: [], moment: m, session: .init(), now: now, calendar: clock.calendar)?.title
        }
        XCTAssertNil(pick([insight, observation], .beforeDailyFix), "only alerts interrupt before the fix")
        XCTAssertEqual(pick([insight, observation], .afterOutcome), "insight")
        XCTAssertNil(pick([observation], .afterOutcome), "observations stay on the patterns page")
        XCTAssertEqual(pick([observation, insight, alert], .afterOutcome), "alert", "alert > insight")
        XCTAssertEqual(PatternSurfacing.page([observation, insight, alert], history: []).map(\.pattern.title), ["alert", "insight", "observation"])
    }

    /// The dashboard and the week pages show what a page may: alerts and insights, nothing
    /// dismissed nor of a dismissed type; observations only on the patterns page. They showed the
    /// strongest finding whatever had been dismissed.
    func test_PatternSurfacing_pagesLeaveOutObservationsAndDismissedTypes() {
        let dismissedOld = pattern("dismissed", .correlatedBugs, .alert, p: 0.01, detected: clock.at(2026, 5, 1), dismissed: clock.at(2026, 5, 2))
        let sameTypeNew = pattern("same type, new", .correlatedBugs, .alert, p: 0.001)
        let observation = pattern("observation", .avoidance, .observation, p: 0.3)
        let insight = pattern("insight", .plateau, .insight, p: 1)
        let shows = PatternSurfacing.showsOnPages(history: [dismissedOld])
        XCTAssertEqual([dismissedOld, sameTypeNew, observation, insight].filter(shows).map(\.title), ["insight"])
        XCTAssertEqual([sameTypeNew, observation].filter(PatternSurfacing.showsOnPages(history: [])).map(\.title), ["same type, new"])
    }

    func test_PatternSurfacing_dismissedDoesNotComeBack() {
        let dismissed = pattern("gone", .avoidance, .alert, p: 0.001, dismissed: clock.at(2026, 1, 1))
        XCTAssertNil(PatternSurfacing.pick(from: [dismissed], history: [dismissed], moment: .beforeDailyFix,
                                           session: .init(), now: now, calendar: clock.calendar))
        XCTAssertEqual(PatternSurfacing.page([dismissed, pattern("x", .plateau, .observation)], history: []).map(\.pattern.title), ["x", "gone"])
        // A run's fresh finding of a dismissed type carries no dismissal of its own: the stored
        // one's type puts it last, marked (it came first, unmarked).
        let fresh = pattern("fresh avoidance", .avoidance, .alert, p: 0.0001)
        let listed = PatternSurfacing.page([fresh, pattern("y", .plateau, .observation)], history: [dismissed])
        XCTAssertEqual(listed.map(\.pattern.title), ["y", "fresh avoidance"])
        XCTAssertEqual(listed.map(\.dismissed), [false, true])
        // Dismissed by type: a new finding of that type (another bug, another hour) stays quiet
        // after the cooldown too; another type still surfaces.
        let newFinding = pattern("new avoidance", .avoidance, .alert, p: 0.0001)
        let other = pattern("other", .temporalCrash, .alert, p: 0.01)
        XCTAssertEqual(PatternSurfacing.pick(from: [newFinding, other], history: [dismissed], moment: .beforeDailyFix,
                                             session: .init(), now: now, calendar: clock.calendar)?.title, "other")
    }

    func test_PatternSurfacing_tieBreaksOnConfidenceThenRecency() {
        let a = pattern("a", .avoidance, .alert, p: 0.004)
        let b = pattern("b", .temporalCrash, .alert, p: 0.002)
        let c = pattern("c", .contextualSpike, .alert, p: 0.002, detected: clock.at(2026, 6, 1, 8, 30))
        XCTAssertEqual(PatternSurfacing.pick(from: [a, b, c], history: [], moment: .beforeDailyFix, session: .init(),
                                             now: now, calendar: clock.calendar)?.title, "c")
    }

    func test_PatternEngine_reportsEveryDetectorAndOrdersPatterns() {
        var s = DetectorScenario()
        s.outcomes(s.bug("need-to-be-right"), skipped: 20, applied: 2, startDaysAgo: 100)
        for d in [7, 14, 21, 28] { s.crash(s.bug("need-to-be-liked"), daysAgo: d, hour: 3) }
        let run = PatternEngine.run(events: s.events, diagnostics: s.diagnostics, context: s.context)
        XCTAssertEqual(run.statuses.map(\.name), ["avoidance check", "weekday check", "time-of-day check", "context check",
                                                  "correlation check", "plateau check", "improvement check", "regression check"])
        XCTAssertEqual(run.patterns.first?.patternType, .avoidance)
        XCTAssertEqual(run.patterns.map(\.severity), run.patterns.map(\.severity).sorted(by: >))
        XCTAssertTrue(run.statuses.contains { $0.line == "plateau check: 0 of 4 weeks present or loud, 0 of 6 fixes applied in those weeks" })
        // Same input, same output, ids included.
        XCTAssertEqual(run, PatternEngine.run(events: s.events, diagnostics: s.diagnostics, context: s.context))
        for p in run.patterns {
            XCTAssertEqual(CopyRules.violations(p.title), [], p.title)
            XCTAssertEqual(CopyRules.violations(p.body), [], p.body)
        }
    }

    func test_PatternDetector_specSignatureWorksFromEventsAlone() throws {
        var s = DetectorScenario()
        for d in [7, 14, 21, 28] { s.crash(s.bug("need-to-be-right"), daysAgo: d) }
        let p = try XCTUnwrap(TemporalDetector.weekday.analyze(events: s.events, diagnostics: []))
        XCTAssertEqual(p.title, "All 4 of your crashes about an unnamed bug happened on a Monday.")
        XCTAssertEqual(p.userId, s.user)
    }

    func test_Statistics_binomialTailAndPermutation() {
        XCTAssertEqual(PatternStatistics.binomialUpperTail(k: 4, n: 7, p: 0.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(PatternStatistics.binomialUpperTail(k: 3, n: 3, p: 1.0 / 7), 1.0 / 343, accuracy: 1e-12)
        XCTAssertEqual(PatternStatistics.binomialUpperTail(k: 0, n: 5, p: 0.2), 1)
        XCTAssertEqual(PatternStatistics.binomialUpperTail(k: 600, n: 1000, p: 0.5), 1.36e-10, accuracy: 1e-11)
        // Exact: the identity is the only ordering of 4 distinct values with r = 1.
        let x: [Double] = [1, 2, 3, 4]
        XCTAssertEqual(PatternStatistics.permutationPValue(x, seed: 1) { PatternStatistics.pearson(x, $0) ?? 0 }, 1.0 / 24, accuracy: 1e-12)
        // Sampled: same seed, same answer.
        let y = (0..<20).map { Double($0 % 7) }
        let a = PatternStatistics.permutationPValue(y, seed: 42) { PatternStatistics.pearson(y, $0) ?? 0 }
        XCTAssertEqual(a, PatternStatistics.permutationPValue(y, seed: 42) { PatternStatistics.pearson(y, $0) ?? 0 })
        XCTAssertLessThan(a, 0.001)
        XCTAssertEqual(PatternStatistics.severity(forCorrectedP: 0.01), .alert)
        XCTAssertEqual(PatternStatistics.severity(forCorrectedP: 0.05), .insight)
        XCTAssertEqual(PatternStatistics.severity(forCorrectedP: 0.051), .observation)
    }
}
