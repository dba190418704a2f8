import Foundation

/// Avoidance: more than half of the marked fixes about one bug were skipped, at least 4 skips,
/// within the lookback window.
///
/// Confidence: an exact binomial tail, P(X ≥ skips | outcomes, p0), where p0 is the larger of
/// one half and the user's skip rate on their other bugs (when those have at least 10 outcomes),
/// so a user who skips everything is not told they avoid one thing in particular.
/// Bonferroni-corrected for the number of bugs with enough skips to be tested.
///
/// When the skip days of that bug line up with crash days of another bug (at least 3, and at
/// least half of the skip days), the title says so, as in the spec's example.
public struct AvoidanceDetector: DataDetector {
    public init() {}

    public var patternType: PatternType { .avoidance }
    public var minimumDataPoints: Int { Thresholds.avoidanceMinimumSkips }
    public var name: String { "avoidance check" }

    public func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult {
        evaluate(DetectionData(events: events, diagnostics: diagnostics, context: context))
    }

    func evaluate(_ data: DetectionData) -> DetectorResult {
        var skips: [UUID: Int] = [:], totals: [UUID: Int] = [:]
        for o in data.outcomes {
            totals[o.bugId, default: 0] += 1
            if o.outcome == .skipped { skips[o.bugId, default: 0] += 1 }
        }
        let bugs = data.sortedBugIds(Set(totals.keys))
        let most = bugs.map { skips[$0] ?? 0 }.max() ?? 0
        let status = DetectorStatus(patternType: patternType, name: name, have: most, need: minimumDataPoints,
                                    unit: "skips on one bug")
        let tested = bugs.filter { (skips[$0] ?? 0) >= Thresholds.avoidanceMinimumSkips }
        let allSkips = skips.values.reduce(0, +), allTotal = totals.values.reduce(0, +)

        struct Candidate { let bug: UUID; let k: Int; let n: Int; let p: Double; let othersK: Int; let othersN: Int }
        var best: Candidate?
        for bug in tested {
            let k = skips[bug] ?? 0, n = totals[bug] ?? 0
            guard Double(k) / Double(n) > Thresholds.avoidanceSkipShare else { continue }
            let ok = allSkips - k, on = allTotal - n
            let p0 = on >= Thresholds.avoidanceBaselineMinimumOutcomes ? max(0.5, Double(ok) / Double(on)) : 0.5
            let p = PatternStatistics.bonferroni(PatternStatistics.binomialUpperTail(k: k, n: n, p: p0),
                                                 comparisons: tested.count)
            let c = Candidate(bug: bug, k: k, n: n, p: p, othersK: ok, othersN: on)
            if let b = best {
                let better = c.p != b.p ? c.p < b.p : Double(c.k) / Double(c.n) > Double(b.k) / Double(b.n)
                if better { best = c }
            } else {
                best = c
            }
        }
        guard let c = best else { return DetectorResult(pattern: nil, status: status) }

        // Skip days that are also crash days of another bug.
        let skipDays = Set(data.outcomes.filter { $0.bugId == c.bug && $0.outcome == .skipped }.map(\.day))
        var overlap: [UUID: Set<LocalDay>] = [:]
        for crash in data.crashes {
            guard let other = crash.bugId, other != c.bug, skipDays.contains(crash.day) else { continue }
            overlap[other, default: []].insert(crash.day)
        }
        let linked = data.sortedBugIds(Set(overlap.keys))
            .map { ($0, overlap[$0]?.count ?? 0) }
            .filter { $0.1 >= 3 && $0.1 * 2 >= skipDays.count }
            .max { $0.1 != $1.1 ? $0.1 < $1.1 : false }

        let topic = data.topic(c.bug)
        let severity = PatternStatistics.severity(forCorrectedP: c.p)
        var title = "You skip fixes about \(topic)."
        var body = "\(c.k) of your last \(c.n) fixes about \(topic) were skipped."
        var related = [c.bug]
        if let (other, days) = linked {
            let crashTopic = data.topic(other)
            title = "You skip fixes about \(topic) on days you crash about \(crashTopic)."
            body += " \(PatternCopy.sentence(PatternCopy.word(days))) of the days you skipped, you also logged a crash about \(crashTopic)."
            related.append(other)
        }
        if c.othersN >= Thresholds.avoidanceBaselineMinimumOutcomes {
            body += " For your other bugs it is \(c.othersK) of \(c.othersN)."
        }
        body += " A skip is not a verdict. It is information."
        let firstDay = data.outcomes.first { $0.bugId == c.bug }?.day ?? data.today
        let basis = PatternCopy.basis("\(Plural.of(c.n, "outcome", "outcomes")) over \(Plural.of(data.weeks(since: firstDay), "week", "weeks"))",
                                      severity: severity)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body, related: related,
                                   dataPoints: c.n, pValue: c.p, basis: basis, key: [])
        return DetectorResult(pattern: pattern, status: status)
    }
}
