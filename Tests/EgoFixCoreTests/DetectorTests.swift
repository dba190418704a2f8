import XCTest
@testable import EgoFixCore

/// A small history built by hand: events, diagnostics and bugs, ending at a fixed `now`.
struct DetectorScenario {
    let clock = Clock("Europe/Berlin")
    var cal: Calendar { clock.calendar }
    let user = Catalogue.uuid("detector-user")
    var bugs: [Bug]
    var events: [AnalyticsEvent] = []
    var diagnostics: [WeeklyDiagnostic] = []
    var crashes: [Crash] = []
    /// Monday 2026-06-01 12:00, Berlin.
    var now: Date
    var today: LocalDay { LocalDay(now, calendar: cal) }

    init(bugs slugs: [String] = ["need-to-be-right", "need-to-be-liked", "need-to-impress"]) {
        now = Clock("Europe/Berlin").at(2026, 6, 1, 12)
        bugs = slugs.map { Catalogue.bug($0, activatedAt: Clock("Europe/Berlin").at(2025, 6, 1, 9)) }
    }

    func bug(_ slug: String) -> Bug { bugs.first { $0.slug == slug } ?? bugs[0] }

    /// An instant `daysAgo` local days before today at a local hour.
    func at(daysAgo: Int, hour: Int = 9, minute: Int = 0) -> Date {
        today.adding(days: -daysAgo).at(hour: hour, minute: minute, in: cal)
    }

    mutating func event(_ type: EventType, bug: Bug? = nil, at: Date, context: EventContext? = nil) {
        let id = Catalogue.uuid("event-\(events.count)")
        events.append(.make(id: id, userId: user, type: type, bugId: bug?.id, context: context, at: at, calendar: cal))
    }

    mutating func outcomes(_ bug: Bug, skipped: Int, applied: Int, failed: Int = 0, startDaysAgo: Int = 60) {
        var day = startDaysAgo
        for _ in 0..<skipped { event(.fixSkipped, bug: bug, at: at(daysAgo: day, hour: 20)); day -= 1 }
        for _ in 0..<applied { event(.fixApplied, bug: bug, at: at(daysAgo: day, hour: 20)); day -= 1 }
        for _ in 0..<failed { event(.fixFailed, bug: bug, at: at(daysAgo: day, hour: 20)); day -= 1 }
    }

    mutating func crash(_ bug: Bug?, daysAgo: Int, hour: Int = 14) {
        let t = at(daysAgo: daysAgo, hour: hour)
        event(.crashLogged, bug: bug, at: t)
        crashes.append(Crash(id: Catalogue.uuid("crash-\(crashes.count)"), userId: user, bugId: bug?.id, crashedAt: t))
    }

    /// The most recent Monday at or before today, minus `weeksAgo` weeks.
    func monday(weeksAgo: Int) -> LocalDay { today.isoWeekStart.adding(days: -7 * weeksAgo) }

    /// A diagnostic for the week `weeksAgo` weeks back, completed that Sunday evening.
    mutating func rate(weeksAgo: Int, _ ratings: [(Bug, BugIntensity, EventContext?)]) {
        let m = monday(weeksAgo: weeksAgo)
        let done = min(m.adding(days: 6).at(hour: 19, in: cal), now)
        diagnostics.append(WeeklyDiagnostic(id: Catalogue.uuid("diag-\(diagnostics.count)"), userId: user,
                                            weekStarting: m.start(in: cal),
                                            responses: ratings.map { BugDiagnosticResponse(bugId: $0.0.id, intensity: $0.1, primaryContext: $0.2) },
                                            completedAt: done))
    }

    var context: DetectionContext {
        DetectionContext(userId: user, now: now, calendar: cal, bugs: bugs, crashes: crashes, seed: 7)
    }

    func run(_ d: any PatternDetector) -> DetectorResult {
        d.evaluate(events: events, diagnostics: diagnostics, context: context)
    }
}

final class DetectorTests: XCTestCase {
    // MARK: Avoidance

    func test_AvoidanceDetector_triggersAt50Percent() throws {
        var s = DetectorScenario()
        s.outcomes(s.bug("need-to-be-right"), skipped: 5, applied: 4)
        let p = try XCTUnwrap(s.run(AvoidanceDetector()).pattern)
        XCTAssertEqual(p.patternType, .avoidance)
        XCTAssertEqual(p.relatedBugIds, [s.bug("need-to-be-right").id])
        XCTAssertEqual(p.title, "You skip fixes about being right.")
        XCTAssertTrue(p.body.hasPrefix("5 of your last 9 fixes about being right were skipped."), p.body)
        XCTAssertEqual(p.dataPoints, 9)
    }

    func test_AvoidanceDetector_ignoresBelowThreshold() {
        var s = DetectorScenario()
        s.outcomes(s.bug("need-to-be-right"), skipped: 4, applied: 4)    // exactly half: not more than half
        s.outcomes(s.bug("need-to-be-liked"), skipped: 3, applied: 0)    // all skipped, but only 3
        XCTAssertNil(s.run(AvoidanceDetector()).pattern)
    }

    func test_AvoidanceDetector_thresholdEdges() {
        func fires(skipped: Int, applied: Int) -> Bool {
            var s = DetectorScenario()
            s.outcomes(s.bug("need-to-be-right"), skipped: skipped, applied: applied)
            return s.run(AvoidanceDetector()).pattern != nil
        }
        XCTAssertFalse(fires(skipped: 4, applied: 4), "50 % is not more than 50 %")
        XCTAssertTrue(fires(skipped: 4, applied: 3), "4 skips, 57 %: at the minimum")
        XCTAssertTrue(fires(skipped: 5, applied: 3), "just above")
        XCTAssertFalse(fires(skipped: 3, applied: 1), "75 % but 3 skips: below the minimum count")
    }

    func test_AvoidanceDetector_severityFollowsConfidence() throws {
        var weak = DetectorScenario()
        weak.outcomes(weak.bug("need-to-be-right"), skipped: 4, applied: 3)
        let w = try XCTUnwrap(weak.run(AvoidanceDetector()).pattern)
        XCTAssertEqual(w.severity, .observation, "4 of 7 is what a coin does half the time")
        XCTAssertEqual(w.pValue, 0.5, accuracy: 1e-9)
        XCTAssertTrue(w.basis.contains("7 outcomes") && w.basis.contains("could be chance"), w.basis)

        var strong = DetectorScenario()
        strong.outcomes(strong.bug("need-to-be-right"), skipped: 20, applied: 2, startDaysAgo: 100)
        strong.outcomes(strong.bug("need-to-be-liked"), skipped: 3, applied: 20, startDaysAgo: 70)
        let p = try XCTUnwrap(strong.run(AvoidanceDetector()).pattern)
        XCTAssertEqual(p.severity, .alert)
        XCTAssertLessThan(p.pValue, 0.01)
        XCTAssertTrue(p.body.contains("For your other bugs it is 3 of 23."), p.body)
    }

    func test_AvoidanceDetector_generalSkipperIsNotTestedAgainstHalf() throws {
        // Skips 80 % of everything: skipping one bug at 80 % is not news.
        var s = DetectorScenario()
        s.outcomes(s.bug("need-to-be-right"), skipped: 16, applied: 4, startDaysAgo: 100)
        s.outcomes(s.bug("need-to-be-liked"), skipped: 16, applied: 4, startDaysAgo: 70)
        let p = try XCTUnwrap(s.run(AvoidanceDetector()).pattern)
        XCTAssertEqual(p.severity, .observation)
    }

    func test_AvoidanceDetector_linksSkipsToCrashDaysOfAnotherBug() throws {
        var s = DetectorScenario()
        let listening = s.bug("need-to-be-liked"), right = s.bug("need-to-be-right")
        s.outcomes(listening, skipped: 5, applied: 2, startDaysAgo: 40)
        for d in [40, 39, 38, 37] { s.crash(right, daysAgo: d, hour: 12) }
        let p = try XCTUnwrap(s.run(AvoidanceDetector()).pattern)
        XCTAssertEqual(p.title, "You skip fixes about being liked on days you crash about being right.")
        XCTAssertEqual(p.relatedBugIds, [listening.id, right.id])
        XCTAssertTrue(p.body.contains("Four of the days you skipped, you also logged a crash about being right."), p.body)
    }

    func test_AvoidanceDetector_reportsProgress() {
        var s = DetectorScenario()
        s.outcomes(s.bug("need-to-be-right"), skipped: 2, applied: 1)
        let status = s.run(AvoidanceDetector()).status
        XCTAssertFalse(status.isReady)
        XCTAssertEqual(status.line, "avoidance check: 2 of 4 skips on one bug")
    }

    func test_AvoidanceDetector_ignoresOutcomesBeforeTheWindow() {
        var s = DetectorScenario()
        s.outcomes(s.bug("need-to-be-right"), skipped: 8, applied: 1, startDaysAgo: 400)
        XCTAssertNil(s.run(AvoidanceDetector()).pattern)
    }

    func test_AvoidanceDetector_fallsBackToCompletionsWithoutEvents() throws {
        let s = DetectorScenario()
        let bug = s.bug("need-to-be-right")
        let fix = Fix(id: Catalogue.uuid("f"), number: 1, bugId: bug.id, prompt: "p", createdAt: Catalogue.epoch)
        var completions: [FixCompletion] = []
        for i in 0..<6 {
            var c = FixCompletion(id: Catalogue.uuid("c\(i)"), fixId: fix.id, userId: s.user, assignedAt: s.at(daysAgo: 30 - i))
            try c.mark(i < 4 ? .skipped : .applied, at: s.at(daysAgo: 30 - i, hour: 20))
            completions.append(c)
        }
        let ctx = DetectionContext(userId: s.user, now: s.now, calendar: s.cal, bugs: s.bugs, fixes: [fix], completions: completions)
        let p = try XCTUnwrap(AvoidanceDetector().analyze(events: [], diagnostics: [], context: ctx))
        XCTAssertEqual(p.dataPoints, 6)
    }

    // MARK: Temporal

    func test_TemporalDetector_findsDayClusters() throws {
        var s = DetectorScenario()
        let right = s.bug("need-to-be-right")
        // 2026-06-01 is a Monday: 7, 14, 21, 28 days ago are Mondays.
        for d in [7, 14, 21, 28] { s.crash(right, daysAgo: d) }
        for d in [9, 17, 25] { s.crash(right, daysAgo: d) }
        let p = try XCTUnwrap(s.run(TemporalDetector.weekday).pattern)
        XCTAssertEqual(p.patternType, .temporalCrash)
        XCTAssertEqual(p.title, "4 of your 7 crashes about being right happened on a Monday.")
        XCTAssertEqual(p.relatedBugIds, [right.id])
        XCTAssertEqual(p.dataPoints, 7)
    }

    func test_TemporalDetector_findsTimeClusters() throws {
        var s = DetectorScenario()
        let liked = s.bug("need-to-be-liked")
        for d in [3, 10, 17, 24, 31] { s.crash(liked, daysAgo: d, hour: 2) }
        for d in [5, 12] { s.crash(liked, daysAgo: d, hour: 15) }
        let p = try XCTUnwrap(s.run(TemporalDetector.timeOfDay).pattern)
        XCTAssertEqual(p.title, "5 of your 7 crashes about being liked were logged at night, between 00:00 and 06:00.")
    }

    func test_TemporalDetector_weekdayThresholdEdges() {
        func fires(_ monday: Int, _ other: Int) -> Bool {
            var s = DetectorScenario(bugs: ["need-to-be-right"])
            let b = s.bug("need-to-be-right")
            for i in 0..<monday { s.crash(b, daysAgo: 7 * (i + 1)) }
            // Other crashes spread over Tuesday to Sunday, never two on one weekday more than Monday has.
            for i in 0..<other { s.crash(b, daysAgo: 7 * (i / 6 + 1) - 1 - (i % 6)) }
            return s.run(TemporalDetector.weekday).pattern != nil
        }
        XCTAssertFalse(fires(2, 1), "67 % but only 2 crashes")
        XCTAssertFalse(fires(4, 6), "exactly 40 % is not more than 40 %")
        XCTAssertTrue(fires(3, 4), "3 of 7, 43 %: just above")
        XCTAssertTrue(fires(3, 0), "3 of 3")
    }

    func test_TemporalDetector_timeThresholdEdges() {
        func fires(_ night: Int, _ day: Int) -> Bool {
            var s = DetectorScenario(bugs: ["need-to-be-right"])
            let b = s.bug("need-to-be-right")
            for i in 0..<night { s.crash(b, daysAgo: i + 1, hour: 3) }
            for i in 0..<day { s.crash(b, daysAgo: i + 1, hour: 8 + 5 * (i % 3)) }
            return s.run(TemporalDetector.timeOfDay).pattern != nil
        }
        XCTAssertFalse(fires(2, 0), "all at night but only 2")
        XCTAssertFalse(fires(3, 3), "exactly half")
        XCTAssertTrue(fires(3, 2), "3 of 5, 60 %")
        XCTAssertTrue(fires(4, 2), "just above")
    }

    func test_TemporalDetector_baselineTempersConfidence() throws {
        // Crashes in the evening from someone who is only ever here in the evening: not news.
        var evening = DetectorScenario(bugs: ["need-to-be-right"])
        let b = evening.bug("need-to-be-right")
        for d in 1...60 { evening.event(.appOpened, at: evening.at(daysAgo: d, hour: 20)) }
        for d in 1...8 { evening.crash(b, daysAgo: d * 3, hour: 21) }
        let e = try XCTUnwrap(evening.run(TemporalDetector.timeOfDay).pattern)
        XCTAssertEqual(e.severity, .observation)
        XCTAssertTrue(e.body.contains("That window holds 100% of everything else you do here"), e.body)
        XCTAssertTrue(e.body.hasSuffix("No more than your own hours put there."), "not \"keeps a schedule\": \(e.body)")

        // The same crashes from someone who is here every morning: the hour is the signal.
        var morning = DetectorScenario(bugs: ["need-to-be-right"])
        for d in 1...60 { morning.event(.appOpened, at: morning.at(daysAgo: d, hour: 8)) }
        for d in 1...8 { morning.crash(b, daysAgo: d * 3, hour: 21) }
        let m = try XCTUnwrap(morning.run(TemporalDetector.timeOfDay).pattern)
        XCTAssertEqual(m.severity, .alert)
    }

    /// Crashes less often in a window than everything else the user does there are no finding:
    /// "That window holds 100% of everything else you do here, and 60% of the crashes. The bug
    /// keeps a schedule." was reported (the consistency audit), without a p.
    func test_TemporalDetector_fewerCrashesThanTheUsersOwnHoursIsNoFinding() {
        var s = DetectorScenario(bugs: ["need-to-be-right"])
        let b = s.bug("need-to-be-right")
        for d in 1...60 { s.event(.appOpened, at: s.at(daysAgo: d, hour: 20)) }
        for d in 1...3 { s.crash(b, daysAgo: d * 3, hour: 21) }
        for d in 4...5 { s.crash(b, daysAgo: d * 3, hour: 9) }
        XCTAssertNil(s.run(TemporalDetector.timeOfDay).pattern, "60 % of the crashes where 100 % of the rest is")
        // The same crashes from someone spread over the day: the evening holds more of them.
        var spread = DetectorScenario(bugs: ["need-to-be-right"])
        for d in 1...60 { spread.event(.appOpened, at: spread.at(daysAgo: d, hour: [3, 9, 15, 20][d % 4])) }
        for d in 1...3 { spread.crash(b, daysAgo: d * 3, hour: 21) }
        for d in 4...5 { spread.crash(b, daysAgo: d * 3, hour: 9) }
        let p = spread.run(TemporalDetector.timeOfDay).pattern
        XCTAssertTrue(p?.body.hasSuffix("The bug keeps a schedule.") == true, "\(String(describing: p?.body))")
    }

    // MARK: Context spike

    func test_ContextSpikeDetector_thresholdEdges() {
        func fires(work: Int, home: Int) -> Bool {
            var s = DetectorScenario(bugs: ["need-to-impress"])
            let b = s.bug("need-to-impress")
            var w = 1
            for _ in 0..<work { s.rate(weeksAgo: w, [(b, .loud, .work)]); w += 1 }
            for _ in 0..<home { s.rate(weeksAgo: w, [(b, .loud, .home)]); w += 1 }
            return s.run(ContextSpikeDetector()).pattern != nil
        }
        XCTAssertFalse(fires(work: 2, home: 0), "100 % but 2")
        XCTAssertFalse(fires(work: 3, home: 2), "exactly 60 %")
        XCTAssertTrue(fires(work: 3, home: 1), "3 of 4")
        XCTAssertTrue(fires(work: 4, home: 2), "4 of 6, 67 %")
    }

    func test_ContextSpikeDetector_namesContextAndBug() throws {
        var s = DetectorScenario(bugs: ["need-to-impress"])
        let b = s.bug("need-to-impress")
        for w in 1...5 { s.rate(weeksAgo: w, [(b, .loud, .work)]) }
        s.rate(weeksAgo: 6, [(b, .loud, .online)])
        for w in 7...12 { s.rate(weeksAgo: w, [(b, .present, w % 2 == 0 ? .home : .social)]) }
        let p = try XCTUnwrap(s.run(ContextSpikeDetector()).pattern)
        XCTAssertEqual(p.title, "5 of your 6 loud weeks about impressing were loudest at work.")
        XCTAssertTrue(p.body.contains("work came up 0 of 6 times"), p.body)
        XCTAssertNotEqual(p.severity, .observation)
    }

    /// With no week rated only present, p is 1 and the body says why: "6 of your 6 loud weeks
    /// ... could be chance" read as a contradiction.
    func test_ContextSpikeDetector_withNothingToCompareSaysSo() throws {
        var s = DetectorScenario(bugs: ["need-to-be-busy"])
        let b = s.bug("need-to-be-busy")
        for w in 1...6 { s.rate(weeksAgo: w, [(b, .loud, .home)]) }
        let p = try XCTUnwrap(s.run(ContextSpikeDetector()).pattern)
        XCTAssertEqual(p.pValue, 1)
        XCTAssertEqual(p.title, "6 of your 6 loud weeks about being busy were loudest at home.")
        XCTAssertEqual(p.body, "No week was only present to set these against, so this cannot yet tell home from the bug itself.")
    }

    /// "More than 60 % of loud responses in one context, minimum 3" counts every loud rating, not
    /// only one bug's: three bugs loud at work one week each (3 of 3) is a spike; it was
    /// "Nothing detected" with "1 of 3 loud weeks for one bug".
    func test_ContextSpikeDetector_countsLoudRatingsAcrossBugs() throws {
        var s = DetectorScenario(bugs: ["need-to-be-right", "need-to-be-liked", "need-to-impress"])
        let bugs = [s.bug("need-to-be-right"), s.bug("need-to-be-liked"), s.bug("need-to-impress")]
        for (i, b) in bugs.enumerated() { s.rate(weeksAgo: 2 + i, bugs.map { ($0, $0.id == b.id ? .loud : .quiet, $0.id == b.id ? .work : nil) }) }
        s.rate(weeksAgo: 1, bugs.map { ($0, .present, .home) })
        let r = s.run(ContextSpikeDetector())
        let p = try XCTUnwrap(r.pattern, r.status.line)
        XCTAssertEqual(p.title, "3 of your 3 loud ratings, across bugs, were loudest at work.")
        XCTAssertEqual(Set(p.relatedBugIds), Set(bugs.map(\.id)))
        XCTAssertEqual(r.status.line, "context check: enough data (3 loud ratings)")
        var t = DetectorScenario(bugs: ["need-to-be-right", "need-to-be-liked"])
        let a = t.bug("need-to-be-right"), b = t.bug("need-to-be-liked")
        t.rate(weeksAgo: 1, [(a, .loud, .work), (b, .loud, .home)])
        t.rate(weeksAgo: 2, [(a, .loud, .online), (b, .quiet, nil)])
        XCTAssertNil(t.run(ContextSpikeDetector()).pattern, "1 of 3 at each place")
    }

    func test_ContextSpikeDetector_unsureNeverSpikes() {
        var s = DetectorScenario(bugs: ["need-to-impress"])
        let b = s.bug("need-to-impress")
        for w in 1...5 { s.rate(weeksAgo: w, [(b, .loud, .unknown)]) }
        XCTAssertNil(s.run(ContextSpikeDetector()).pattern)
    }

    // MARK: Correlated bugs

    func test_CorrelatedBugs_detectsHighCorrelation() throws {
        var s = DetectorScenario()
        let liked = s.bug("need-to-be-liked"), impress = s.bug("need-to-impress")
        let levels: [BugIntensity] = [.quiet, .loud, .present, .loud, .quiet, .present, .loud, .quiet, .loud, .present, .quiet, .loud]
        for (i, l) in levels.enumerated() { s.rate(weeksAgo: i + 1, [(liked, l, .work), (impress, l, .work)]) }
        let p = try XCTUnwrap(s.run(CorrelatedBugsDetector()).pattern)
        XCTAssertEqual(p.patternType, .correlatedBugs)
        XCTAssertEqual(Set(p.relatedBugIds), [liked.id, impress.id])
        XCTAssertTrue(p.title.hasSuffix("rise and fall together."), p.title)
        XCTAssertTrue(p.basis.contains("12 weeks rated for both; r = 1.00"), p.basis)
        XCTAssertEqual(p.severity, .alert)
    }

    /// The permutation test's statistic, computed in place, is bit for bit the one it replaces, so
    /// every p-value (and every page that shows one) stays the same.
    func test_CorrelatedBugs_inPlaceStatistic_isBitForBitTheSame() {
        var rng = SplitMix64(seed: 11)
        for n in [1, 2, 3, 4, 6, 9, 26] {
            for trial in 0..<40 {
                let x = (0..<n).map { _ in Double(rng.next() % 4) }
                var y = (0..<n).map { i in trial % 5 == 0 ? 2 : Double(rng.next() % 4) + Double(i) * 0.1 }
                let xd = PatternStatistics.detrended(x)
                let inPlace = PatternStatistics.DetrendedCorrelation(xd: xd)
                for _ in 0..<5 {
                    PatternStatistics.shuffle(&y, &rng)
                    let expected = PatternStatistics.pearson(xd, PatternStatistics.detrended(y)) ?? 0
                    XCTAssertEqual(inPlace.value(y).bitPattern, expected.bitPattern, "n \(n), trial \(trial)")
                }
            }
        }
    }

    func test_CorrelatedBugs_thresholdEdges() {
        let levels: [BugIntensity] = [.quiet, .loud, .present, .loud, .quiet, .present, .loud, .quiet]
        func run(weeks: Int, flipLast: Bool = false) -> DetectorResult {
            var s = DetectorScenario(bugs: ["need-to-be-liked", "need-to-impress"])
            let a = s.bug("need-to-be-liked"), b = s.bug("need-to-impress")
            for i in 0..<weeks {
                var other = levels[i]
                if flipLast && i >= weeks - 2 { other = other == .quiet ? .loud : .quiet }
                s.rate(weeksAgo: i + 1, [(a, levels[i], nil), (b, other, nil)])
            }
            return s.run(CorrelatedBugsDetector())
        }
        let five = run(weeks: 5)
        XCTAssertNil(five.pattern, "5 weeks is one short")
        XCTAssertEqual(five.status.line, "correlation check: 5 of 6 weeks")
        XCTAssertNotNil(run(weeks: 6).pattern, "6 weeks, r = 1")
        XCTAssertNotNil(run(weeks: 7).pattern)
        XCTAssertNil(run(weeks: 8, flipLast: true).pattern, "r well below 0.7")

        func r(_ x: [Int], _ y: [Int]) -> DetectorResult {
            var s = DetectorScenario(bugs: ["need-to-be-liked", "need-to-impress"])
            let a = s.bug("need-to-be-liked"), b = s.bug("need-to-impress")
            let l: [BugIntensity] = [.quiet, .present, .loud]
            for i in 0..<x.count { s.rate(weeksAgo: i + 1, [(a, l[x[i]], nil), (b, l[y[i]], nil)]) }
            return s.run(CorrelatedBugsDetector())
        }
        XCTAssertNil(r([2, 1, 1, 1, 2, 1, 2, 1], [2, 1, 1, 1, 1, 0, 2, 1]).pattern, "r = 0.6999: just below")
        XCTAssertNotNil(r([0, 1, 0, 1, 2, 0, 1, 0], [0, 1, 1, 0, 2, 0, 2, 0]).pattern, "r = 0.704: just above")
        XCTAssertNil(r([1, 2, 0, 2, 1, 2], [2, 2, 0, 2, 1, 1]).pattern, "r = 0.7 exactly (weeks 2,1,2,0,2,1 against 1,1,2,0,2,2, oldest first) is not above 0.7; the sums give 0.7000000000000001")
    }

    func test_CorrelatedBugs_sharedTrendIsNotEvidence() throws {
        // Two bugs fading on the same schedule with unrelated wobble: r is high, the link is the calendar.
        var s = DetectorScenario(bugs: ["need-to-be-liked", "need-to-impress"])
        let a = s.bug("need-to-be-liked"), b = s.bug("need-to-impress")
        // Raw r = 0.79; with the shared fade removed, r = −0.01.
        let x: [BugIntensity] = [.loud, .loud, .loud, .loud, .present, .loud, .present, .present, .quiet, .quiet, .present, .quiet, .quiet, .quiet]
        let y: [BugIntensity] = [.loud, .loud, .loud, .loud, .loud, .loud, .present, .loud, .present, .present, .quiet, .quiet, .quiet, .quiet]
        for i in 0..<14 { s.rate(weeksAgo: 14 - i, [(a, x[i], nil), (b, y[i], nil)]) }
        let p = try XCTUnwrap(s.run(CorrelatedBugsDetector()).pattern)
        XCTAssertEqual(p.severity, .observation)
        XCTAssertGreaterThan(p.pValue, 0.05)
    }

    func test_CorrelatedBugs_weeklyCrashCountsAndDeterminism() throws {
        var s = DetectorScenario(bugs: ["need-to-be-right", "need-to-be-busy"])
        let a = s.bug("need-to-be-right"), b = s.bug("need-to-be-busy")
        let counts = [0, 2, 0, 1, 3, 0, 0, 2, 1, 0, 3, 0, 1, 0]
        for (w, n) in counts.enumerated() {
            s.event(.appOpened, at: s.at(daysAgo: 7 * (w + 1) + 2))
            for k in 0..<n {
                s.crash(a, daysAgo: 7 * (w + 1) + k)
                s.crash(b, daysAgo: 7 * (w + 1) + k, hour: 22)
            }
        }
        let first = try XCTUnwrap(s.run(CorrelatedBugsDetector()).pattern)
        XCTAssertEqual(first.title, "Weeks you crash about being busy are weeks you crash about being right.")
        let again = try XCTUnwrap(s.run(CorrelatedBugsDetector()).pattern)
        XCTAssertEqual(first, again)
    }

    // MARK: Plateau

    func test_PlateauDetector_requiresFixesApplied() throws {
        func run(applied: Int, weeks: Int = 5) -> DetectorResult {
            var s = DetectorScenario(bugs: ["need-to-impress"])
            let b = s.bug("need-to-impress")
            s.rate(weeksAgo: weeks + 1, [(b, .quiet, nil)])
            for w in 1...weeks { s.rate(weeksAgo: w, [(b, w % 2 == 0 ? .loud : .present, .work)]) }
            s.outcomes(b, skipped: 0, applied: applied, startDaysAgo: 7 * weeks - 1)
            return s.run(PlateauDetector())
        }
        XCTAssertNil(run(applied: 5).pattern, "5 fixes applied is one short")
        let status = run(applied: 5).status
        XCTAssertEqual(status.line, "plateau check: enough data (5 weeks present or loud), 5 of 6 fixes applied in those weeks")
        let p = try XCTUnwrap(run(applied: 6).pattern)
        XCTAssertEqual(p.title, "Need To Impress has been present or loud for 5 rated weeks in a row.")
        XCTAssertTrue(p.body.hasPrefix("Six fixes about impressing applied in that time."), p.body)
        // Loud and present in turn is a move, only not to quiet ("has not moved" said otherwise).
        XCTAssertTrue(p.body.contains("The rating has not reached quiet.") && !p.body.contains("not moved"), p.body)
        XCTAssertEqual(p.severity, .observation)
        XCTAssertEqual(p.pValue, 1)
        XCTAssertNotNil(run(applied: 7).pattern)
        XCTAssertNil(run(applied: 10, weeks: 3).pattern, "3 weeks is one short")
        XCTAssertNotNil(run(applied: 10, weeks: 4).pattern)
        XCTAssertEqual(run(applied: 14, weeks: 9).pattern?.severity, .insight)
    }

    func test_PlateauDetector_theSameRatingEveryWeekHasNotMoved() throws {
        var s = DetectorScenario(bugs: ["need-to-impress"])
        let b = s.bug("need-to-impress")
        for w in 1...5 { s.rate(weeksAgo: w, [(b, .present, nil)]) }
        s.outcomes(b, skipped: 0, applied: 6, startDaysAgo: 34)
        let p = try XCTUnwrap(s.run(PlateauDetector()).pattern)
        XCTAssertTrue(p.body.contains("The rating has not moved."), p.body)
    }

    func test_PlateauDetector_aQuietWeekEndsTheRun() {
        var s = DetectorScenario(bugs: ["need-to-impress"])
        let b = s.bug("need-to-impress")
        for w in 3...8 { s.rate(weeksAgo: w, [(b, .loud, nil)]) }
        s.rate(weeksAgo: 2, [(b, .quiet, nil)])
        s.rate(weeksAgo: 1, [(b, .present, nil)])
        s.outcomes(b, skipped: 0, applied: 12, startDaysAgo: 50)
        XCTAssertNil(s.run(PlateauDetector()).pattern)
    }

    // MARK: Improvement

    func test_ImprovementDetector_requiresDownwardTrend() throws {
        func run(_ levels: [BugIntensity]) -> DetectedPattern? {
            var s = DetectorScenario(bugs: ["fear-of-ordinary"])
            let b = s.bug("fear-of-ordinary")
            for (i, l) in levels.enumerated() { s.rate(weeksAgo: levels.count - i, [(b, l, l == .quiet ? nil : .social)]) }
            return s.run(ImprovementDetector()).pattern
        }
        let p = try XCTUnwrap(run([.loud, .loud, .present, .present, .quiet, .quiet]))
        XCTAssertEqual(p.title, "Fear Of Ordinary went from loud to quiet over 6 weeks.")
        XCTAssertTrue(p.body.hasPrefix("Ratings, oldest first: loud, loud, present, present, quiet, quiet."), p.body)
        XCTAssertNil(run([.quiet, .present, .loud, .loud]), "upward")
        XCTAssertNil(run([.present, .quiet, .loud, .quiet]), "no trend, only noise")
        XCTAssertNil(run([.loud, .loud, .present, .present]), "not ending in quiet")
        XCTAssertNil(run([.loud, .present, .quiet]), "3 weeks is one short")
        XCTAssertNotNil(run([.loud, .present, .quiet, .quiet]), "4 weeks")
        XCTAssertNotNil(run([.loud, .loud, .present, .quiet, .quiet]))
        // A zigzag from quiet to quiet is no trend (it was "went from loud to quiet over 8 weeks",
        // though the first week was quiet); a decline is told from where it began.
        XCTAssertNil(run([.quiet, .present, .loud, .present, .quiet, .loud, .present, .quiet]), "zigzag")
        XCTAssertNil(run([.present, .loud, .quiet, .loud, .present, .quiet]), "up and down")
        XCTAssertEqual(run([.present, .loud, .present, .quiet, .quiet])?.title, "Fear Of Ordinary went from present to quiet over 5 weeks.")
        // Quiet kept up is still the improvement: each quiet week more made it vanish (present,
        // then six quiet weeks; loud, present, then seven), as ties counted as no trend (helper 109).
        // A zigzag that ends on one quiet week is still no trend (a tie-corrected tau found one, helper 113).
        XCTAssertNil(run([.loud, .present, .loud, .present, .loud, .present, .loud, .quiet]), "zigzag to one quiet week")
        // Up and down, then quiet kept up, is the drop to quiet.
        XCTAssertNotNil(run([.present, .loud, .present, .loud, .present, .quiet, .quiet, .quiet]), "up and down, then three quiet weeks")
        for tail in 3...7 {
            XCTAssertNotNil(run([.present] + Array(repeating: .quiet, count: tail)), "present, then \(tail) quiet weeks")
            XCTAssertNotNil(run([.loud, .present] + Array(repeating: .quiet, count: tail)), "loud, present, then \(tail) quiet weeks")
        }
        XCTAssertEqual(run([.loud, .present] + Array(repeating: .quiet, count: 7))?.title,
                       "Fear Of Ordinary went from present to quiet over 8 weeks.", "the last 8 ratings are read")
    }



    /// The terminal and the site say a p-value alike: never "p = 0.000" (the terminal said it
    /// where the site said "p < 0.001").
    func test_PatternCopy_confidenceIsSaidOneWay() {
        XCTAssertEqual(PatternCopy.confidence(0.0004, of: .temporalCrash), "p < 0.001")
        XCTAssertEqual(PatternCopy.confidence(0.0421, of: .avoidance), "p = 0.042")
        // A corrected p capped at 1 was computed: said, not "p not computed".
        XCTAssertEqual(PatternCopy.confidence(1, of: .contextualSpike), "p = 1")
        XCTAssertNil(PatternCopy.confidence(1, of: .regression))
        XCTAssertNil(PatternCopy.confidence(1, of: .plateau))
    }

    func test_ImprovementDetector_longerDeclineIsMoreConfident() throws {
        var s = DetectorScenario(bugs: ["fear-of-ordinary"])
        let b = s.bug("fear-of-ordinary")
        let levels: [BugIntensity] = [.loud, .loud, .loud, .present, .present, .quiet, .quiet, .quiet]
        for (i, l) in levels.enumerated() { s.rate(weeksAgo: levels.count - i, [(b, l, nil)]) }
        let p = try XCTUnwrap(s.run(ImprovementDetector()).pattern)
        XCTAssertLessThanOrEqual(p.pValue, 0.01)
        XCTAssertEqual(p.severity, .alert)
    }

    // MARK: Regression

    func test_RegressionDetector_storedStableBugWithACrash() throws {
        var s = DetectorScenario(bugs: ["need-to-be-busy"])
        s.bugs[0].status = .stable
        s.bugs[0].stableSince = s.at(daysAgo: 60)
        s.crash(s.bugs[0], daysAgo: 10, hour: 2)
        let p = try XCTUnwrap(s.run(RegressionDetector()).pattern)
        XCTAssertEqual(p.title, "Need To Be Busy is back.")
        XCTAssertTrue(p.body.hasPrefix("Stable since 2026-04-02. A crash about it was logged on 2026-05-22, 50 days later."), p.body)
        XCTAssertEqual(p.severity, .insight)
    }

    /// A regression's dates are written as the rest of the tool writes a day (the bug's page says
    /// "Stable since 2025-04-27"; the history, the week pages): its prose said "27 April 2025",
    /// and "2 January" within the year, beside the history's 2026-01-02.
    func test_RegressionDetector_writesDatesAsTheRestOfTheToolDoes() throws {
        var s = DetectorScenario(bugs: ["need-to-be-busy"])
        s.bugs[0].status = .stable
        s.bugs[0].stableSince = s.at(daysAgo: 400)
        s.crash(s.bugs[0], daysAgo: 150, hour: 2)
        let p = try XCTUnwrap(s.run(RegressionDetector()).pattern)
        XCTAssertEqual(p.body, "Stable since 2025-04-27. A crash about it was logged on 2026-01-02, 250 days later. Stable meant quiet, not gone.")
        XCTAssertEqual(p.basis, "based on its crashes and ratings since 2025-04-27")
    }

    func test_RegressionDetector_replaysStableThenActive() throws {
        // Active since a year ago, three quiet weeks and no crash: stable by the rules. Then a loud week.
        var s = DetectorScenario(bugs: ["need-to-be-busy"])
        let b = s.bugs[0]
        for w in [9, 8, 7] { s.rate(weeksAgo: w, [(b, .quiet, nil)]) }
        s.rate(weeksAgo: 3, [(b, .loud, .work)])
        let p = try XCTUnwrap(s.run(RegressionDetector()).pattern)
        XCTAssertTrue(p.body.contains("It was rated loud"), p.body)
        XCTAssertEqual(s.run(RegressionDetector()).status.line, "regression check: enough data (1 stable bug to watch)")
    }

    /// A bug that had gone on from stable to resolved before it came back says so: "Stable since
    /// ... Stable meant quiet" left out the 90 quiet days after (the demo's fourth bug, resolved,
    /// read as if only stable). Resolution is dated as the lifecycle dates it: the 90th stable day,
    /// or the 90th after a later present week; a present week too recent leaves it stable.
    func test_RegressionDetector_aResolvedBugThatCameBackSaysItWasResolved() throws {
        func body(presentWeeksAgo: Int?) throws -> String {
            var s = DetectorScenario(bugs: ["need-to-be-busy"])
            let b = s.bugs[0]
            for w in [30, 29, 28] { s.rate(weeksAgo: w, [(b, .quiet, nil)]) }
            if let w = presentWeeksAgo { s.rate(weeksAgo: w, [(b, .present, nil)]) }
            s.crash(b, daysAgo: 10)
            return try XCTUnwrap(s.run(RegressionDetector()).pattern).body
        }
        let resolved = try body(presentWeeksAgo: nil)
        XCTAssertTrue(resolved.range(of: #"^Stable since (\d{4}-\d{2}-\d{2}), resolved since \d{4}-\d{2}-\d{2}\. A crash about it was logged on \d{4}-\d{2}-\d{2}, \d+ days after it went stable\. Resolved meant quiet for a long time, not gone\.$"#,
                                      options: .regularExpression) != nil, resolved)
        let later = try body(presentWeeksAgo: 20)
        XCTAssertTrue(later.contains(", resolved since "), later)
        XCTAssertNotEqual(resolved.prefix(60), later.prefix(60), "a present week puts resolution 90 days after it")
        let stable = try body(presentWeeksAgo: 5)
        XCTAssertTrue(stable.hasSuffix("later. Stable meant quiet, not gone.") && !stable.contains("resolved"), stable)
        // Stored resolved, its dates kept.
        var s = DetectorScenario(bugs: ["need-to-be-busy"])
        s.bugs[0].status = .resolved
        s.bugs[0].stableSince = s.at(daysAgo: 200)
        s.bugs[0].resolvedAt = s.at(daysAgo: 110)
        s.crash(s.bugs[0], daysAgo: 10, hour: 2)
        let stored = try XCTUnwrap(s.run(RegressionDetector()).pattern).body
        XCTAssertTrue(stored.contains("resolved since 2026-02-11. ") && stored.contains("190 days after it went stable"), stored)
    }

    func test_RegressionDetector_stableNeeds21CrashFreeDays() {
        // Three quiet weeks (the last rated 43 days ago), a crash 62 days ago: stable once 21 days
        // have passed since it, at the start of the day 41 days ago. A crash that day is a regression;
        // a crash the day before is not (the bug was not stable yet).
        func run(secondCrashDaysAgo: Int) -> DetectorResult {
            var s = DetectorScenario(bugs: ["need-to-be-busy"])
            let b = s.bugs[0]
            for w in [9, 8, 7] { s.rate(weeksAgo: w, [(b, .quiet, nil)]) }
            s.crash(b, daysAgo: 62)
            s.crash(b, daysAgo: secondCrashDaysAgo, hour: 9)
            return s.run(RegressionDetector())
        }
        XCTAssertNil(run(secondCrashDaysAgo: 42).pattern, "day 20: not stable yet")
        XCTAssertTrue(run(secondCrashDaysAgo: 41).pattern?.body.hasPrefix("Stable since 2026-04-21. A crash about it was logged on 2026-04-21, the same day.") == true,
                      run(secondCrashDaysAgo: 41).pattern?.body ?? "nil")
        XCTAssertNotNil(run(secondCrashDaysAgo: 30).pattern, "well after")
    }

    func test_RegressionDetector_neverStableIsNoRegression() {
        // Quiet every week, but a crash every 14 days: never 21 days without one, so never stable.
        var s = DetectorScenario(bugs: ["need-to-be-busy"])
        let b = s.bugs[0]
        for w in 1...9 { s.rate(weeksAgo: w, [(b, .quiet, nil)]) }
        for d in [60, 46, 32, 18, 4] { s.crash(b, daysAgo: d) }
        XCTAssertNil(s.run(RegressionDetector()).pattern)
        XCTAssertEqual(s.run(RegressionDetector()).status.line, "regression check: 0 of 1 stable bug to watch")
    }
}

/// The outcome commands and the week page say a counter's count as the description has it.
final class InteractionSummaryTests: XCTestCase {
    func counter(_ description: String, unit: String) throws -> Fix {
        let data = try JSONEncoder().encode(CounterConfig(targetDescription: description, unit: unit))
        return Fix(number: 186, bugId: UUID(), interactionType: .counter, prompt: "Count.", configurationData: data, createdAt: Date(timeIntervalSince1970: 0))
    }

    func marked(_ n: Int, _ fix: Fix) throws -> FixCompletion {
        var c = FixCompletion(fixId: fix.id, userId: UUID(), assignedAt: Date(timeIntervalSince1970: 0))
        try c.mark(.applied, at: Date(timeIntervalSince1970: 60), outcomeData: try JSONEncoder().encode(InteractionOutcome(count: n)))
        return c
    }

    /// A timed fix marked applied with no timer run, or a multi-step one with no steps, says so
    /// under the fix, as a counter without a count does (the spec: "timer must complete"; helper 109).
    func test_InteractionSummary_aTimedFixMarkedWithoutItsTimerSaysSo() throws {
        let timed = Fix(number: 160, bugId: UUID(), interactionType: .timed, prompt: "Wait.",
                        configurationData: try JSONEncoder().encode(TimedConfig(durationSeconds: 600)), createdAt: Date(timeIntervalSince1970: 0))
        var c = FixCompletion(fixId: timed.id, userId: UUID(), assignedAt: Date(timeIntervalSince1970: 0))
        try c.mark(.applied, at: Date(timeIntervalSince1970: 60))
        XCTAssertEqual(InteractionSummary.text(c, fix: timed), "No timer recorded.")
        var ran = FixCompletion(fixId: timed.id, userId: UUID(), assignedAt: Date(timeIntervalSince1970: 0))
        try ran.mark(.applied, at: Date(timeIntervalSince1970: 60), outcomeData: try JSONEncoder().encode(InteractionOutcome(timerCompleted: true)))
        XCTAssertEqual(InteractionSummary.text(ran, fix: timed), "Timer ran out.")
        var skipped = FixCompletion(fixId: timed.id, userId: UUID(), assignedAt: Date(timeIntervalSince1970: 0))
        try skipped.mark(.skipped, at: Date(timeIntervalSince1970: 60))
        XCTAssertNil(InteractionSummary.text(skipped, fix: timed), "a skipped fix ran nothing to record")
    }

    /// A description that names its unit says it once ("Counted 3 sentences: sentences you ...").
    func test_InteractionSummary_aCounterSaysItsUnitOnce() throws {
        let named = try counter("sentences you finish for someone else", unit: "sentences")
        XCTAssertEqual(InteractionSummary.text(try marked(3, named), fix: named), "Counted 3: sentences you finish for someone else.")
        let plain = try counter("replies sent within a minute", unit: "times")
        XCTAssertEqual(InteractionSummary.text(try marked(1, plain), fix: plain), "Counted once: replies sent within a minute.")
        XCTAssertEqual(InteractionSummary.text(try marked(2, plain), fix: plain), "Counted 2 times: replies sent within a minute.")
    }

    /// A quiz answered before the catalogue rewrote the fix (a plain fix now, or other options):
    /// the answer is said to have been given, where nothing was shown under the prompt.
    func test_InteractionSummary_anAnswerToAFixRewrittenSinceIsStillSaid() throws {
        let quiz = try JSONEncoder().encode(QuizConfig(question: "Why?", options: [QuizConfig.Option(id: "a", text: "Because.", weightModifier: 0), QuizConfig.Option(id: "b", text: "Habit.", weightModifier: 0)]))
        let rewritten = Fix(number: 121, bugId: UUID(), interactionType: .quiz, prompt: "Ask.", configurationData: quiz, createdAt: Date(timeIntervalSince1970: 0))
        var c = FixCompletion(fixId: rewritten.id, userId: UUID(), assignedAt: Date(timeIntervalSince1970: 0))
        try c.mark(.applied, at: Date(timeIntervalSince1970: 60), outcomeData: try JSONEncoder().encode(InteractionOutcome(optionId: "c")))
        XCTAssertEqual(InteractionSummary.text(c, fix: rewritten), "Option c chosen. The fix has changed since; what it offered then is not kept.")
        let plain = Fix(number: 121, bugId: UUID(), prompt: "Let them finish.", createdAt: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(InteractionSummary.text(c, fix: plain), "Option c chosen. The fix has changed since; what it offered then is not kept.")
        var answered = FixCompletion(fixId: rewritten.id, userId: UUID(), assignedAt: Date(timeIntervalSince1970: 0))
        try answered.mark(.applied, at: Date(timeIntervalSince1970: 60), outcomeData: try JSONEncoder().encode(InteractionOutcome(optionId: "a")))
        XCTAssertEqual(InteractionSummary.text(answered, fix: rewritten), "Answered: Because.")
    }
}
