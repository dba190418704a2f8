import Foundation

/// Context spike: more than 60 % of the loud ratings name the same context as where it was
/// loudest, at least 3; tested on every loud rating (when more than one bug has them) and on each
/// bug's own.
///
/// "Unsure" (`.unknown`) counts in the total but is never the spike. Confidence: Fisher's exact
/// test (a hypergeometric tail) of that context among the bug's loud ratings against its present
/// ones, so a bug that lives at work whatever its volume is not reported as loud at work; with no
/// present ratings to compare there is no evidence either way (p = 1). Bonferroni-corrected for
/// groups tested × 5 contexts.
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
        let status = DetectorStatus(patternType: patternType, name: name, have: loud.count, need: minimumDataPoints,
                                    unit: "loud ratings")
        // Groups: every loud rating (nil) when more than one bug has them, then each bug with enough.
        var groups: [(UUID?, [RatingRecord])] = []
        if bugIds.count > 1 && loud.count >= minimumDataPoints { groups.append((nil, loud)) }
        groups += perBug.filter { $0.1.count >= minimumDataPoints }.map { ($0.0, $0.1) }
        guard !groups.isEmpty else { return DetectorResult(pattern: nil, status: status) }
        let comparisons = groups.count * Self.known.count

        struct Candidate { let group: UUID?; let ctx: EventContext; let k: Int; let n: Int; let p: Double; let present: [RatingRecord]; let loud: [RatingRecord] }
        var best: Candidate?
        for (g, rs) in groups {
            let n = rs.count
            let present = data.ratings.filter { (g == nil || $0.bugId == g) && $0.intensity == .present && $0.context != nil }
            let loudWithContext = rs.filter { $0.context != nil }
            for ctx in Self.known {
                let k = rs.filter { $0.context == ctx }.count
                guard k >= minimumDataPoints, Double(k) / Double(n) > Thresholds.contextLoudShare else { continue }
                let raw = PatternStatistics.hypergeometricUpperTail(
                    k: k, population: loudWithContext.count + present.count,
                    successes: k + present.filter { $0.context == ctx }.count, draws: loudWithContext.count)
                let p = PatternStatistics.bonferroni(raw, comparisons: comparisons)
                let c = Candidate(group: g, ctx: ctx, k: k, n: n, p: p, present: present, loud: rs)
                if let b = best {
                    // Lower p first; then one bug over all of them; then more loud ratings.
                    let better = c.p != b.p ? c.p < b.p : (c.group != nil) != (b.group != nil) ? c.group != nil : c.k > b.k
                    if better { best = c }
                } else {
                    best = c
                }
            }
        }
        guard let c = best else { return DetectorResult(pattern: nil, status: status) }

        let severity = PatternStatistics.severity(forCorrectedP: c.p)
        let where_ = Self.phrase(c.ctx)
        let title: String, related: [UUID]
        if let g = c.group {
            title = "\(c.k) of your \(c.n) loud weeks about \(data.topic(g)) were loudest \(where_)."
            related = [g]
        } else {
            // Several bugs, one place: each rating is a bug's week, so a week can count twice.
            title = "\(c.k) of your \(c.n) loud ratings, across bugs, were loudest \(where_)."
            related = data.sortedBugIds(Set(c.loud.filter { $0.context == c.ctx }.map(\.bugId)))
        }
        var body = ""
        if c.present.count >= 3 {
            let unit = c.group == nil ? "ratings that were" : "weeks it was"
            body = "In the \(unit) only present, \(Self.noun(c.ctx)) came up \(c.present.filter { $0.context == c.ctx }.count) of \(c.present.count) times. "
        } else if c.present.isEmpty {
            // p = 1, said why: "6 of your 6 loud weeks ... could be chance" read as a contradiction,
            // and the closing line below draws the conclusion this cannot.
            body = "No \(c.group == nil ? "rating" : "week") was only present to set these against, so this cannot yet tell \(Self.noun(c.ctx)) from \(c.group == nil ? "the bugs themselves" : "the bug itself")."
        }
        if !c.present.isEmpty {
            body += c.group == nil ? "Different bugs, the same room. The room may be the common factor." : "The bug is the same everywhere. The volume is not."
        }
        let first = data.ratings.first { c.group == nil || $0.bugId == c.group }?.week ?? data.today
        let basis = PatternCopy.basis("\(Plural.of(c.n, c.group == nil ? "loud rating" : "loud week", c.group == nil ? "loud ratings" : "loud weeks")) over \(Plural.of(data.weeks(since: first), "week", "weeks"))",
                                      severity: severity)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body,
                                   related: related, dataPoints: c.n, pValue: c.p,
                                   basis: basis, key: [c.ctx.rawValue] + (c.group == nil ? ["all bugs"] : []))
        return DetectorResult(pattern: pattern, status: status)
    }
}
