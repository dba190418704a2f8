import Foundation

/// Plateau: a bug rated present or loud in at least its last 4 rated weeks in a row, while at
/// least 6 of its fixes were applied in that time.
///
/// This describes a fact, not a tendency that chance could produce, so there is no p-value
/// (stored as 1). Severity: observation; insight once the run is 8 rated weeks long with at least
/// 12 fixes applied. Bugs that are stable or resolved now are not checked.
public struct PlateauDetector: DataDetector {
    public init() {}

    public var patternType: PatternType { .plateau }
    public var minimumDataPoints: Int { Thresholds.plateauMinimumWeeks }
    public var name: String { "plateau check" }

    public func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult {
        evaluate(DetectionData(events: events, diagnostics: diagnostics, context: context))
    }

    func evaluate(_ data: DetectionData) -> DetectorResult {
        struct Run { let bug: UUID; let ratings: [RatingRecord]; let applied: Int }
        var runs: [Run] = []
        for bug in data.sortedBugIds(Set(data.ratings.map(\.bugId))) {
            if let s = data.bugsById[bug]?.status, s == .stable || s == .resolved { continue }
            let mine = data.ratings.filter { $0.bugId == bug }
            var run: [RatingRecord] = []
            for r in mine.reversed() {
                guard r.intensity != .quiet else { break }
                run.insert(r, at: 0)
            }
            guard let start = run.first?.week else { continue }
            let applied = data.outcomes.filter { $0.bugId == bug && $0.outcome == .applied && $0.day >= start }.count
            runs.append(Run(bug: bug, ratings: run, applied: applied))
        }
        let longest = runs.max { a, b in
            a.ratings.count != b.ratings.count ? a.ratings.count < b.ratings.count : a.applied < b.applied
        }
        let status = DetectorStatus(patternType: patternType, name: name, have: longest?.ratings.count ?? 0,
                                    need: minimumDataPoints, unit: "weeks present or loud",
                                    detail: "\(min(longest?.applied ?? 0, Thresholds.plateauMinimumFixesApplied)) of \(Thresholds.plateauMinimumFixesApplied) fixes applied in those weeks")
        let qualifying = runs.filter {
            $0.ratings.count >= Thresholds.plateauMinimumWeeks && $0.applied >= Thresholds.plateauMinimumFixesApplied
        }
        guard let run = qualifying.max(by: { a, b in
            a.ratings.count != b.ratings.count ? a.ratings.count < b.ratings.count : a.applied < b.applied
        }) else { return DetectorResult(pattern: nil, status: status) }

        let weeks = run.ratings.count
        let strong = weeks >= Thresholds.plateauInsightWeeks && run.applied >= 2 * Thresholds.plateauMinimumFixesApplied
        let severity: PatternSeverity = strong ? .insight : .observation
        let louds = run.ratings.filter { $0.intensity == .loud }.count
        let title = "\(data.title(run.bug)) has been present or loud for \(weeks) rated weeks in a row."
        var body = PatternCopy.sentence(PatternCopy.word(run.applied)) + (run.applied == 1 ? " fix" : " fixes")
            + " about \(data.topic(run.bug)) applied in that time."
        body += louds > 0 ? " \(PatternCopy.sentence(PatternCopy.word(louds))) of those weeks were loud." : " None of those weeks were quiet."
        // "Has not moved" only when every week had the same rating: loud then present is a move,
        // just not to quiet.
        let moved = Set(run.ratings.map(\.intensity)).count > 1
        body += moved ? " The rating has not reached quiet." : " The rating has not moved."
        body += " Either the fixes are aimed slightly off, or this one is load-bearing."
        let basis = PatternCopy.basis("\(weeks) rated weeks and \(Plural.of(run.applied, "applied fix", "applied fixes"))", severity: nil)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body, related: [run.bug],
                                   dataPoints: weeks + run.applied, pValue: 1, basis: basis,
                                   key: [String(run.ratings.first?.week.ordinal ?? 0)])
        return DetectorResult(pattern: pattern, status: status)
    }
}
