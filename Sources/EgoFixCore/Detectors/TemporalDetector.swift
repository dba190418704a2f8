import Foundation

/// The four parts of a day the time-of-day check uses, by the local hour a crash was logged.
public enum TimeBucket: Int, Sendable, CaseIterable, Codable {
    /// 00:00–05:59
    case night
    /// 06:00–11:59
    case morning
    /// 12:00–17:59
    case afternoon
    /// 18:00–23:59
    case evening

    public static func of(hour: Int) -> TimeBucket {
        switch LocalDay.mod(hour, 24) {
        case 0..<6: return .night
        case 6..<12: return .morning
        case 12..<18: return .afternoon
        default: return .evening
        }
    }

    /// "at night, between 00:00 and 06:00"
    public var phrase: String {
        switch self {
        case .night: return "at night, between 00:00 and 06:00"
        case .morning: return "in the morning, between 06:00 and 12:00"
        case .afternoon: return "in the afternoon, between 12:00 and 18:00"
        case .evening: return "in the evening, after 18:00"
        }
    }
}

/// Temporal crash clusters, by weekday or by time of day (two instances of one detector, both
/// reporting `.temporalCrash`).
///
/// - weekday: more than 40 % of the crashes on one weekday, at least 3.
/// - time of day: more than 50 % of the crashes in one `TimeBucket`, at least 3.
///
/// Tested on all crashes in the window and on each bug's crashes (bugs with at least 3).
/// Confidence: an exact binomial tail against a baseline — half the share of the user's other
/// events (opening, marking fixes, diagnostics) that fall on that weekday or in that bucket, with
/// add-one smoothing, and half the uniform share — so a crash cluster at 21:00 is only notable if
/// the user is not simply always here at 21:00. With fewer than 28 other events, the baseline is
/// uniform (1/7, 1/4). With the baseline, the crashes' share there must also be at least the share
/// of everything else (fewer crashes there than the user's own hours put there is no schedule),
/// and the copy says when it is no more than that.
/// Bonferroni-corrected for groups × weekdays (7) or buckets (4).
public struct TemporalDetector: DataDetector {
    public enum Dimension: String, Sendable, CaseIterable {
        case weekday
        case timeOfDay
    }

    public let dimension: Dimension

    public init(dimension: Dimension = .weekday) { self.dimension = dimension }

    public static let weekday = TemporalDetector(dimension: .weekday)
    public static let timeOfDay = TemporalDetector(dimension: .timeOfDay)

    public var patternType: PatternType { .temporalCrash }
    public var minimumDataPoints: Int {
        dimension == .weekday ? Thresholds.temporalWeekdayMinimumCrashes : Thresholds.temporalTimeMinimumCrashes
    }
    public var name: String { dimension == .weekday ? "weekday check" : "time-of-day check" }

    var categories: Int { dimension == .weekday ? 7 : 4 }
    var share: Double { dimension == .weekday ? Thresholds.temporalWeekdayShare : Thresholds.temporalTimeShare }

    /// 0-based category: weekday 1 (Sunday) … 7 → 0 … 6; bucket raw value.
    func category(weekday: Int, hour: Int) -> Int {
        dimension == .weekday ? LocalDay.mod(weekday - 1, 7) : TimeBucket.of(hour: hour).rawValue
    }

    public func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult {
        evaluate(DetectionData(events: events, diagnostics: diagnostics, context: context))
    }

    func evaluate(_ data: DetectionData) -> DetectorResult {
        let status = DetectorStatus(patternType: patternType, name: name, have: data.crashes.count,
                                    need: minimumDataPoints, unit: "crashes")
        // Groups: every crash (nil), then each bug with enough crashes.
        let bugIds = Set(data.crashes.compactMap(\.bugId))
        var groups: [UUID?] = []
        let singleBug = bugIds.count == 1 && !data.crashes.contains { $0.bugId == nil }
        if !singleBug && data.crashes.count >= minimumDataPoints { groups.append(nil) }
        for b in data.sortedBugIds(bugIds) where data.crashes.filter({ $0.bugId == b }).count >= minimumDataPoints {
            groups.append(b)
        }
        guard !groups.isEmpty else { return DetectorResult(pattern: nil, status: status) }

        // Baseline: when the user is around at all.
        var base = [Int](repeating: 0, count: categories)
        for e in data.baseline { base[category(weekday: e.weekday, hour: e.hour)] += 1 }
        let baseTotal = base.reduce(0, +)
        let useBaseline = baseTotal >= Thresholds.temporalBaselineMinimumEvents
        // Half the user's own rhythm, half uniform: other use of the tool is a proxy for when a
        // crash can be logged, not a measurement of it.
        func p0(_ c: Int) -> Double {
            let uniform = 1 / Double(categories)
            guard useBaseline else { return uniform }
            return 0.5 * Double(base[c] + 1) / Double(baseTotal + categories) + 0.5 * uniform
        }
        let comparisons = groups.count * categories

        struct Candidate { let group: UUID?; let cat: Int; let k: Int; let n: Int; let p: Double }
        var best: Candidate?
        for g in groups {
            let mine = data.crashes.filter { g == nil || $0.bugId == g }
            var counts = [Int](repeating: 0, count: categories)
            for c in mine { counts[category(weekday: c.weekday, hour: c.hour)] += 1 }
            let n = mine.count
            for cat in 0..<categories {
                let k = counts[cat]
                guard k >= minimumDataPoints, Double(k) / Double(n) > share else { continue }
                // Fewer crashes there than the user's own presence puts there is no schedule
                // ("That window holds 100% of everything else you do here, and 60% of the crashes").
                if useBaseline, Double(k) / Double(n) < Double(base[cat]) / Double(baseTotal) { continue }
                let p = PatternStatistics.bonferroni(PatternStatistics.binomialUpperTail(k: k, n: n, p: p0(cat)),
                                                     comparisons: comparisons)
                let c = Candidate(group: g, cat: cat, k: k, n: n, p: p)
                if let b = best {
                    // Lower p first; then a single bug over all crashes; then more crashes.
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
        let about = c.group.map { " about " + data.topic($0) } ?? ""
        let share = Double(c.k) / Double(c.n)
        // "2 of your 3 crashes", "All 3 of your crashes".
        let lead = c.k == c.n ? "All \(c.n) of your" : "\(c.k) of your \(c.n)"
        let title: String, body: String, key: String
        switch dimension {
        case .weekday:
            let day = PatternCopy.weekdayName(c.cat + 1)
            title = "\(lead) crashes\(about) happened on a \(day)."
            var b = "\(day) is one day in seven and has \(PatternCopy.percent(share)) of them."
            var more = true
            if useBaseline {
                let there = Double(base[c.cat]) / Double(baseTotal)
                b += " It has \(PatternCopy.percent(there)) of everything else you log here."
                more = share > there
            }
            body = b + (more ? " Something on \(day)s keeps calling this function." : " No more than your own week puts there.")
            key = "weekday-\(c.cat + 1)"
        case .timeOfDay:
            guard let bucket = TimeBucket(rawValue: c.cat) else { return DetectorResult(pattern: nil, status: status) }
            title = "\(lead) crashes\(about) were logged \(bucket.phrase)."
            if useBaseline {
                let there = Double(base[c.cat]) / Double(baseTotal)
                body = "That window holds \(PatternCopy.percent(there)) of everything else you do here, and \(PatternCopy.percent(share)) of the crashes. "
                    + (share > there ? "The bug keeps a schedule." : "No more than your own hours put there.")
            } else {
                body = "That is a quarter of the day, with \(PatternCopy.percent(share)) of the crashes. The bug keeps a schedule."
            }
            key = "bucket-\(c.cat)"
        }
        let first = data.crashes.first { c.group == nil || $0.bugId == c.group }?.day ?? data.today
        let basis = PatternCopy.basis("\(Plural.of(c.n, "crash", "crashes")) over \(Plural.of(data.weeks(since: first), "week", "weeks"))",
                                      severity: severity)
        let pattern = data.pattern(patternType, severity: severity, title: title, body: body,
                                   related: c.group.map { [$0] } ?? [], dataPoints: c.n, pValue: c.p, basis: basis,
                                   key: [dimension.rawValue, key])
        return DetectorResult(pattern: pattern, status: status)
    }
}
