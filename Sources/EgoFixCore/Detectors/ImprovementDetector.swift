import Foundation

/// Improvement: a bug's ratings trend down and end in quiet, over at least 4 rated weeks
/// spanning at least 4 weeks.
///
/// The ratings looked at are the bug's last 8 in the window (a fixed rule, so the test is not
/// fooled by picking the highest point to start from). They must start above quiet and end
/// quiet, trend down (Kendall's tau at most -0.3: a zigzag from quiet to quiet, tau -0.04, was
/// called "went from loud to quiet"), and have a lower mean in their second half than in their
/// first. The trend is read with the closing run of quiet weeks cut to two: each quiet week held
/// after the drop counted as no trend, and an improvement kept up for seven weeks was no longer
/// found (present, then six quiet weeks: tau -0.29), while a tie-corrected tau (tau-b) found one
/// in a zigzag that ends on one quiet week (loud, present, loud, ..., quiet: -0.303).
/// Confidence: the share of orderings of the earlier ratings
/// (the final quiet held in place, since it was required) with an S at least as negative — exact,
/// as at most 7! orderings — Bonferroni-corrected for the number of bugs with enough ratings.
public struct ImprovementDetector: DataDetector {
    public init() {}

    public var patternType: PatternType { .improvement }
    public var minimumDataPoints: Int { Thresholds.improvementMinimumWeeks }
    public var name: String { "improvement check" }

    static let segmentLength = 8

    public func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult {
        evaluate(DetectionData(events: events, diagnostics: diagnostics, context: context))
    }

    func evaluate(_ data: DetectionData) -> DetectorResult {
        var segments: [(UUID, [RatingRecord])] = []
        var most = 0
        for bug in data.sortedBugIds(Set(data.ratings.map(\.bugId))) {
            let seg = Array(data.ratings.filter { $0.bugId == bug }.suffix(Self.segmentLength))
            most = max(most, seg.count)
            guard seg.count >= minimumDataPoints, let first = seg.first, let last = seg.last,
                  last.week.days(since: first.week) >= 7 * (minimumDataPoints - 1) else { continue }
            segments.append((bug, seg))
        }
        let status = DetectorStatus(patternType: patternType, name: name, have: most, need: minimumDataPoints,
                                    unit: "rated weeks")
        var best: (bug: UUID, seg: [RatingRecord], p: Double)?
        for (bug, seg) in segments {
            guard let first = seg.first, let last = seg.last, first.intensity != .quiet, last.intensity == .quiet else { continue }
            let y = seg.map { Double($0.intensity.level) }
            let half = y.count / 2
            let early = y.prefix(half).reduce(0, +) / Double(half)
            let late = y.suffix(y.count - half).reduce(0, +) / Double(y.count - half)
            var trend = y
            while trend.count > 2, trend.suffix(3).allSatisfy({ $0 == 0 }) { trend.removeLast() }
            let pairs = Double(trend.count * (trend.count - 1) / 2)
            guard Double(PatternStatistics.kendallS(trend)) / pairs <= Thresholds.improvementMaximumTau, early > late else { continue }
            let head = Array(y.dropLast())
            let tail = y[y.count - 1]
            let raw = PatternStatistics.permutationPValue(head, seed: data.context.seed) { h in
                -Double(PatternStatistics.kendallS(h + [tail]))
            }
            let p = PatternStatistics.bonferroni(raw, comparisons: segments.count)
            if let b = best {
                if p < b.p { best = (bug, seg, p) }
            } else {
                best = (bug, seg, p)
            }
        }
        guard let c = best, let first = c.seg.first, let last = c.seg.last else { return DetectorResult(pattern: nil, status: status) }

        let severity = PatternStatistics.severity(forCorrectedP: c.p)
        // The week the trailing quiet run began: the same improvement keeps the same id.
        var quietSince = last.week
        for r in c.seg.reversed() {
            guard r.intensity == .quiet else { break }
            quietSince = r.week
        }
        let weeks = last.week.days(since: first.week) / 7 + 1
        // From where the ratings looked at began, which is above quiet (not their highest point).
        let title = "\(data.title(c.bug)) went from \(first.intensity.rawValue) to quiet over \(weeks) weeks."
        let sequence = c.seg.map(\.intensity.rawValue).joined(separator: ", ")
        let body = "Ratings, oldest first: \(sequence). A trend, not a trophy. Quiet is not gone; stable bugs still get retested."
        let basis = PatternCopy.basis("\(c.seg.count) rated weeks", severity: severity)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body, related: [c.bug],
                                   dataPoints: c.seg.count, pValue: c.p, basis: basis,
                                   key: [String(quietSince.ordinal)])
        return DetectorResult(pattern: pattern, status: status)
    }
}
