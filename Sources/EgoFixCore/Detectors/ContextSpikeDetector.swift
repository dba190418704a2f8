import Foundation

/// Context spike: more than 60 % of one bug's loud ratings name the same context as where it was
/// loudest, at least 3.
///
/// "Unsure" (`.unknown`) counts in the total but is never the spike. Confidence: Fisher's exact
/// test (a hypergeometric tail) of that context among the bug's loud ratings against its present
/// ones, so a bug that lives at work whatever its volume is not reported as loud at work; with no
/// present ratings to compare there is no evidence either way (p = 1). Bonferroni-corrected for
/// bugs tested × 5 contexts.
public struct ContextSpikeDetector: DataDetector {
    public init() {}

    public var patternType: PatternType { .contextualSpike }
    public var minimumDataPoints: Int { Thresholds.contextMinimumLoud }
    public var name: String { "context check" }

    static let known: [EventContext] = [.work, .home, .social, .family, .online]

    /// "at work", "with family"
    public static func phrase(_ c: EventContext) -> String {
        switch c {
        case .work: return "at work"
        case .home: return "at home"
        case .social: return "in social settings"
        case .family: return "with family"
        case .online: return "online"
        case .unknown: return "somewhere unclear"
        }
    }

    /// "work", "family"
    public static func noun(_ c: EventContext) -> String {
        switch c {
        case .work: return "work"
        case .home: return "home"
        case .social: return "social settings"
        case .family: return "family"
        case .online: return "online"
        case .unknown: return EventContext.unknown.word
        }
    }

    public func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult {
        evaluate(DetectionData(events: events, diagnostics: diagnostics, context: context))
    }

    func evaluate(_ data: DetectionData) -> DetectorResult {
        let loud = data.ratings.filter { $0.intensity == .loud }
        let bugIds = Set(loud.map(\.bugId))
        let perBug = data.sortedBugIds(bugIds).map { b in (b, loud.filter { $0.bugId == b }) }
        let status = DetectorStatus(patternType: patternType, name: name,
                                    have: perBug.map { $0.1.count }.max() ?? 0, need: minimumDataPoints,
                                    unit: "loud weeks for one bug")
        let groups = perBug.filter { $0.1.count >= minimumDataPoints }
        guard !groups.isEmpty else { return DetectorResult(pattern: nil, status: status) }
        let comparisons = groups.count * Self.known.count

        struct Candidate { let group: UUID; let ctx: EventContext; let k: Int; let n: Int; let p: Double; let present: [RatingRecord] }
        var best: Candidate?
        for (g, rs) in groups {
            let n = rs.count
            let present = data.ratings.filter { $0.bugId == g && $0.intensity == .present && $0.context != nil }
            let loudWithContext = rs.filter { $0.context != nil }
            for ctx in Self.known {
                let k = rs.filter { $0.context == ctx }.count
                guard k >= minimumDataPoints, Double(k) / Double(n) > Thresholds.contextLoudShare else { continue }
                let raw = PatternStatistics.hypergeometricUpperTail(
                    k: k, population: loudWithContext.count + present.count,
                    successes: k + present.filter { $0.context == ctx }.count, draws: loudWithContext.count)
                let p = PatternStatistics.bonferroni(raw, comparisons: comparisons)
                let c = Candidate(group: g, ctx: ctx, k: k, n: n, p: p, present: present)
                if let b = best {
                    if c.p != b.p ? c.p < b.p : c.k > b.k { best = c }
                } else {
                    best = c
                }
            }
        }
        guard let c = best else { return DetectorResult(pattern: nil, status: status) }

        let severity = PatternStatistics.severity(forCorrectedP: c.p)
        let where_ = Self.phrase(c.ctx)
        let about = " about " + data.topic(c.group)
        let title = "\(c.k) of your \(c.n) loud weeks\(about) were loudest \(where_)."
        var body = ""
        if c.present.count >= 3 {
            body = "In the weeks it was only present, \(Self.noun(c.ctx)) came up \(c.present.filter { $0.context == c.ctx }.count) of \(c.present.count) times. "
        }
        body += "The bug is the same everywhere. The volume is not."
        let first = data.ratings.first { $0.bugId == c.group }?.week ?? data.today
        let basis = PatternCopy.basis("\(PatternCopy.count(c.n, "loud week", "loud weeks")) over \(PatternCopy.count(data.weeks(since: first), "week", "weeks"))",
                                      severity: severity)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body,
                                   related: [c.group], dataPoints: c.n, pValue: c.p,
                                   basis: basis, key: [c.ctx.rawValue])
        return DetectorResult(pattern: pattern, status: status)
    }
}
