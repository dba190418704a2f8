import Foundation

/// Correlated bugs: two bugs whose weekly numbers move together, Pearson r > 0.7 over at least
/// 6 weeks. Two series are tried for each pair of bugs:
///
/// - ratings: the diagnostic intensity (quiet 0, present 1, loud 2) in the weeks both were rated;
/// - crashes: crashes about each per day the tool was used, per complete ISO week in the window,
///   counting only weeks the user was around at all and both bugs were active (so a week mostly
///   away, with fewer crashes of every kind, does not tie two bugs together).
///
/// Six weekly points reach r > 0.7 by chance often, and more so when two bugs share a trend
/// (both fading as the practice works) or when there are many pairs. So the spec's r > 0.7 is only
/// the gate; confidence comes from a one-sided permutation test of r with linear trends removed
/// (the weeks of one series shuffled, each shuffle detrended and correlated with the other's
/// residuals; exact for up to 8 weeks, otherwise 9 999 shuffles from a seeded SplitMix64),
/// Bonferroni-corrected for every pair and series that had enough weeks to test. A crash series
/// also needs crashes in at least 3 of its weeks: one shared bad week is a coincidence.
public struct CorrelatedBugsDetector: DataDetector {
    public init() {}

    public var patternType: PatternType { .correlatedBugs }
    public var minimumDataPoints: Int { Thresholds.correlationMinimumWeeks }
    public var name: String { "correlation check" }

    enum Series: String { case ratings, crashes }

    /// A crash series needs crashes in at least this many of its weeks to be compared at all.
    static let minimumCrashWeeks = 3

    public func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult {
        evaluate(DetectionData(events: events, diagnostics: diagnostics, context: context))
    }

    struct Test {
        let a: UUID
        let b: UUID
        let series: Series
        let x: [Double]
        let y: [Double]
        let r: Double
        let bothWeeks: Int
    }

    func evaluate(_ data: DetectionData) -> DetectorResult {
        var tests: [Test] = []
        var mostWeeks = 0

        // Ratings, in weeks both bugs were rated.
        var byBug: [UUID: [Int: Double]] = [:]
        for r in data.ratings { byBug[r.bugId, default: [:]][r.week.ordinal] = Double(r.intensity.level) }
        let rated = data.sortedBugIds(Set(byBug.keys))
        for i in 0..<rated.count {
            for j in (i + 1)..<rated.count {
                let a = rated[i], b = rated[j]
                let ma = byBug[a] ?? [:], mb = byBug[b] ?? [:]
                let weeks = ma.keys.filter { mb[$0] != nil }.sorted()
                mostWeeks = max(mostWeeks, weeks.count)
                guard weeks.count >= minimumDataPoints else { continue }
                let x = weeks.map { ma[$0] ?? 0 }, y = weeks.map { mb[$0] ?? 0 }
                guard let r = PatternStatistics.pearson(x, y) else { continue }
                let both = zip(x, y).filter { $0.0 > 0 && $0.1 > 0 }.count
                tests.append(Test(a: a, b: b, series: .ratings, x: x, y: y, r: r, bothWeeks: both))
            }
        }

        // Crash counts, per complete week the user was around.
        var firstMonday = data.windowStart.isoWeekStart
        if firstMonday < data.windowStart { firstMonday = firstMonday.adding(days: 7) }
        var mondays: [LocalDay] = []
        var usedDays: [Int: Int] = [:]
        var m = firstMonday
        while m.adding(days: 6) < data.today {
            let used = (0..<7).filter { data.activeDays.contains(m.adding(days: $0)) }.count
            if used > 0 {
                mondays.append(m)
                usedDays[m.ordinal] = used
            }
            m = m.adding(days: 7)
        }
        var counts: [UUID: [Int: Int]] = [:]
        for c in data.crashes {
            guard let b = c.bugId else { continue }
            counts[b, default: [:]][c.day.isoWeekStart.ordinal, default: 0] += 1
        }
        let crashed = data.sortedBugIds(Set(counts.keys))
        func activeBy(_ bug: UUID, _ monday: LocalDay) -> Bool {
            guard let at = data.bugsById[bug]?.activatedAt else { return true }
            return LocalDay(at, calendar: data.context.calendar) <= monday.adding(days: 6)
        }
        for i in 0..<crashed.count {
            for j in (i + 1)..<crashed.count {
                let a = crashed[i], b = crashed[j]
                let weeks = mondays.filter { activeBy(a, $0) && activeBy(b, $0) }
                mostWeeks = max(mostWeeks, weeks.count)
                guard weeks.count >= minimumDataPoints else { continue }
                // Crashes per day the tool was used: a week half spent away has fewer of everything.
                let x = weeks.map { Double(counts[a]?[$0.ordinal] ?? 0) / Double(usedDays[$0.ordinal] ?? 1) }
                let y = weeks.map { Double(counts[b]?[$0.ordinal] ?? 0) / Double(usedDays[$0.ordinal] ?? 1) }
                // One or two crash weeks each is a coincidence, not a series.
                guard x.filter({ $0 > 0 }).count >= Self.minimumCrashWeeks, y.filter({ $0 > 0 }).count >= Self.minimumCrashWeeks,
                      let r = PatternStatistics.pearson(x, y) else { continue }
                let both = zip(x, y).filter { $0.0 > 0 && $0.1 > 0 }.count
                tests.append(Test(a: a, b: b, series: .crashes, x: x, y: y, r: r, bothWeeks: both))
            }
        }

        let status = DetectorStatus(patternType: patternType, name: name, have: mostWeeks,
                                    need: minimumDataPoints, unit: "weeks")
        var best: (test: Test, p: Double)?
        // "r > 0.7", with room for rounding: a correlation of exactly 0.7 (ratings 2,1,2,0,2,1 against
        // 1,1,2,0,2,2) comes out of the sums as 0.7000000000000001, and must not pass.
        for t in tests where t.r > Thresholds.correlationMinimumR + 1e-9 {
            let xd = PatternStatistics.detrended(t.x)
            let seed = StableHash.fnv1a(["correlation", data.context.userId.uuidString, t.a.uuidString,
                                         t.b.uuidString, t.series.rawValue]) ^ data.context.seed
            // Shuffle the weeks of one series, remove each ordering's trend, correlate with the other's
            // residuals: how often does chance line the two up at least this well once trends are gone?
            let correlation = PatternStatistics.DetrendedCorrelation(xd: xd)
            let raw = PatternStatistics.pearson(xd, PatternStatistics.detrended(t.y)) == nil ? 1
                : PatternStatistics.permutationPValue(t.y, seed: seed) { correlation.value($0) }
            let p = PatternStatistics.bonferroni(raw, comparisons: tests.count)
            if let b = best {
                let better = p != b.p ? p < b.p : t.r > b.test.r
                if better { best = (t, p) }
            } else {
                best = (t, p)
            }
        }
        guard let (t, p) = best else { return DetectorResult(pattern: nil, status: status) }

        let severity = PatternStatistics.severity(forCorrectedP: p)
        let r = String(format: "%.2f", t.r)
        let n = t.x.count
        let title: String, body: String
        switch t.series {
        case .ratings:
            title = "\(data.title(t.a)) and \(data.title(t.b).lowercased()) rise and fall together."
            body = "Over \(n) weeks rated for both, r = \(r). Both were present or loud in \(t.bothWeeks) of them. Two bugs, possibly one trigger. Working on one may be working on both."
        case .crashes:
            title = "Weeks you crash about \(data.topic(t.a)) are weeks you crash about \(data.topic(t.b))."
            body = "Over \(n) weeks of crash counts, r = \(r). \(PatternCopy.sentence(PatternCopy.word(t.bothWeeks))) of those weeks had crashes about both. The two run in the same process."
        }
        let unit = t.series == .ratings ? "weeks rated for both" : "weeks of crash counts"
        let basis = PatternCopy.basis("\(n) \(unit); r = \(r)", severity: severity)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body, related: [t.a, t.b],
                                   dataPoints: n, pValue: p, basis: basis, key: [t.series.rawValue])
        return DetectorResult(pattern: pattern, status: status)
    }
}
