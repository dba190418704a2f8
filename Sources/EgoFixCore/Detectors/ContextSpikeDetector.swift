import Foundation

/// Context spike: more than 60 % of the loud ratings (of one bug, or of all bugs) name the same
/// context as where it was loudest, at least 3.
///
/// "Unsure" (`.unknown`) counts in the total but is never the spike. Confidence: an exact binomial
/// tail against the share of that context among the user's present (not loud) ratings, add-one
/// smoothed, so someone whose bugs all live at work is not told so as news. Bonferroni-corrected
/// for groups × 5 contexts.
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
        case .unknown: return "unsure"
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
        var groups: [(UUID?, [RatingRecord])] = []
        if bugIds.count > 1 && loud.count >= minimumDataPoints { groups.append((nil, loud)) }
        for (b, rs) in perBug where rs.count >= minimumDataPoints { groups.append((b, rs)) }
        guard !groups.isEmpty else { return DetectorResult(pattern: nil, status: status) }

        let present = data.ratings.filter { $0.intensity == .present && $0.context != nil }
        func presentCount(_ c: EventContext) -> Int { present.filter { $0.context == c }.count }
        func p0(_ c: EventContext) -> Double {
            Double(presentCount(c) + 1) / Double(present.count + EventContext.allCases.count)
        }
        let comparisons = groups.count * Self.known.count

        struct Candidate { let group: UUID?; let ctx: EventContext; let k: Int; let n: Int; let p: Double }
        var best: Candidate?
        for (g, rs) in groups {
            let n = rs.count
            for ctx in Self.known {
                let k = rs.filter { $0.context == ctx }.count
                guard k >= minimumDataPoints, Double(k) / Double(n) > Thresholds.contextLoudShare else { continue }
                let p = PatternStatistics.bonferroni(PatternStatistics.binomialUpperTail(k: k, n: n, p: p0(ctx)),
                                                     comparisons: comparisons)
                let c = Candidate(group: g, ctx: ctx, k: k, n: n, p: p)
                if let b = best {
                    let better = c.p != b.p ? c.p < b.p
                        : (c.group != nil) != (b.group != nil) ? c.group != nil : c.k > b.k
                    if better { best = c }
                } else {
                    best = c
                }
            }
        }
        guard let c = best else { return DetectorResult(pattern: nil, status: status) }

        let severity = PatternStatistics.severity(forCorrectedP: c.p)
        let where_ = Self.phrase(c.ctx)
        let about = c.group.map { " about " + data.topic($0) } ?? ""
        let title = "\(c.k) of your \(c.n) loud weeks\(about) were loudest \(where_)."
        var body = ""
        if present.count >= 3 {
            body = "In the weeks it was only present, \(Self.noun(c.ctx)) came up \(presentCount(c.ctx)) of \(present.count) times. "
        }
        body += "The bug is the same everywhere. The volume is not."
        let rated = c.group.map { g in data.ratings.filter { $0.bugId == g } } ?? data.ratings
        let first = rated.first?.week ?? data.today
        let basis = PatternCopy.basis("\(PatternCopy.count(c.n, "loud week", "loud weeks")) over \(PatternCopy.count(data.weeks(since: first), "week", "weeks"))",
                                      severity: severity)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body,
                                   related: c.group.map { [$0] } ?? [], dataPoints: c.n, pValue: c.p,
                                   basis: basis, key: [c.ctx.rawValue])
        return DetectorResult(pattern: pattern, status: status)
    }
}
