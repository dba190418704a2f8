import Foundation

/// Everything the detectors found, and how far along each one is.
public struct PatternRun: Sendable, Equatable {
    /// Strongest first: severity, then p-value, then type and id.
    public let patterns: [DetectedPattern]
    /// One per detector, in the detectors' order.
    public let statuses: [DetectorStatus]

    public init(patterns: [DetectedPattern], statuses: [DetectorStatus]) {
        self.patterns = patterns
        self.statuses = statuses
    }
}

/// Runs every detector over the same data.
public enum PatternEngine {
    /// The eight detectors behind the seven pattern types (temporal runs by weekday and by time of day).
    public static var detectors: [any PatternDetector] { builtIn }

    /// The same, typed for the shared `DetectionData` (no dynamic cast per detector per run).
    static let builtIn: [any DataDetector] = [
        AvoidanceDetector(), TemporalDetector.weekday, TemporalDetector.timeOfDay, ContextSpikeDetector(),
        CorrelatedBugsDetector(), PlateauDetector(), ImprovementDetector(), RegressionDetector(),
    ]

    /// Runs `detectors` (default: the eight built-in ones) over the same data.
    public static func run(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext,
                           detectors given: [any PatternDetector]? = nil) -> PatternRun {
        // The built-in list is used as it is typed: converting it to [any PatternDetector] is a
        // dynamic cast of every element (docs/performance.md has the figure).
        let count = given?.count ?? Self.builtIn.count
        let data = DetectionData(events: events, diagnostics: diagnostics, context: context)
        // The detectors are independent and pure: they run on every core, the slowest (the ones that
        // replay a bug's history or run permutation tests) handed out first; results are collected
        // in the detectors' order, so the run is the same on any number of cores.
        let slow = (0..<count).map { i in Self.isSlow(given?[i] ?? Self.builtIn[i]) }
        let slowFirst = (0..<count).sorted { a, b in slow[a] != slow[b] ? slow[a] : a < b }
        let computed = Parallel.map(slowFirst) { i -> DetectorResult in
            guard let d = given?[i] else { return Self.builtIn[i].evaluate(data) }
            if let dd = d as? any DataDetector { return dd.evaluate(data) }
            return d.evaluate(events: events, diagnostics: diagnostics, context: context)
        }
        var results = [DetectorResult?](repeating: nil, count: count)
        for (k, i) in slowFirst.enumerated() { results[i] = computed[k] }
        var patterns: [DetectedPattern] = []
        var statuses: [DetectorStatus] = []
        for result in results.compactMap({ $0 }) {
            statuses.append(result.status)
            if let p = result.pattern, !patterns.contains(where: { $0.id == p.id }) { patterns.append(p) }
        }
        return PatternRun(patterns: patterns.sorted(by: order), statuses: statuses)
    }

    static func isSlow(_ d: any PatternDetector) -> Bool {
        d.patternType == .regression || d.patternType == .correlatedBugs
    }

    /// Alert before insight before observation; then the lower p-value; then type, title and id.
    public static func order(_ a: DetectedPattern, _ b: DetectedPattern) -> Bool {
        if a.severity != b.severity { return a.severity > b.severity }
        if a.pValue != b.pValue { return a.pValue < b.pValue }
        if a.patternType != b.patternType { return a.patternType.rawValue < b.patternType.rawValue }
        if a.title != b.title { return a.title < b.title }
        return a.id.uuidString < b.id.uuidString
    }
}

/// Where a pattern may appear.
public enum SurfacingMoment: String, Sendable, CaseIterable, Codable {
    /// Before the day's fix: alerts only.
    case beforeDailyFix
    /// After an outcome is marked: insights (and an alert not yet shown).
    case afterOutcome
    /// The patterns page: everything, observations included.
    case patternsPage

    public var allowed: [PatternSeverity] {
        switch self {
        case .beforeDailyFix: return [.alert]
        case .afterOutcome: return [.alert, .insight]
        case .patternsPage: return [.alert, .insight, .observation]
        }
    }
}

/// What has already been shown in this session (one run of the tool, one page view).
public struct SurfacingSession: Sendable, Equatable {
    public var shownPatternIds: [UUID]

    public init(shownPatternIds: [UUID] = []) { self.shownPatternIds = shownPatternIds }
}

/// The surfacing rules, pure:
///
/// - at most one pattern per session, and at most one per local day across commands (the viewing
///   time is stored with the pattern);
/// - the same pattern type not within 14 days of its last viewing (viewedAt or dismissedAt);
/// - alert > insight > observation, then the lower p-value, then the newer;
/// - alerts before the daily fix, insights after an outcome, observations only on the patterns page;
/// - a dismissed or deleted pattern does not come back.
public enum PatternSurfacing {
    /// The one pattern to show at `moment`, or nil. `history` is every pattern stored so far
    /// (with viewedAt / dismissedAt); `candidates` may overlap it.
    public static func pick(from candidates: [DetectedPattern], history: [DetectedPattern], moment: SurfacingMoment,
                            session: SurfacingSession, now: Date, calendar: Calendar) -> DetectedPattern? {
        guard session.shownPatternIds.isEmpty else { return nil }
        // One per local day across commands: the store remembers what was viewed when.
        guard !surfacedToday(history, now: now, calendar: calendar) else { return nil }
        let dismissed = Set((history + candidates).filter { $0.dismissedAt != nil || $0.deletedAt != nil }.map(\.id))
        let eligible = candidates.filter { p in
            p.deletedAt == nil && p.dismissedAt == nil && !dismissed.contains(p.id)
                && moment.allowed.contains(p.severity)
                && !isCoolingDown(p.patternType, history: history + candidates, now: now, calendar: calendar)
        }
        return eligible.sorted(by: order).first
    }

    /// Whether a pattern was already surfaced (viewed) on the local day of `now`.
    public static func surfacedToday(_ history: [DetectedPattern], now: Date, calendar: Calendar) -> Bool {
        let today = LocalDay(now, calendar: calendar)
        return history.contains { p in p.deletedAt == nil && p.viewedAt.map { $0 <= now && LocalDay($0, calendar: calendar) == today } ?? false }
    }

    /// True while a pattern of this type was viewed (or dismissed) fewer than 14 local days ago.
    public static func isCoolingDown(_ type: PatternType, history: [DetectedPattern], now: Date, calendar: Calendar) -> Bool {
        let seen = history.filter { $0.patternType == type }.compactMap { p -> Date? in
            [p.viewedAt, p.dismissedAt].compactMap { $0 }.max()
        }.filter { $0 <= now }
        guard let last = seen.max() else { return false }
        return LocalDay(now, calendar: calendar).days(since: LocalDay(last, calendar: calendar)) < Thresholds.patternCooldownDays
    }

    /// The patterns page: every live pattern, strongest first, dismissed ones last.
    public static func page(_ patterns: [DetectedPattern]) -> [DetectedPattern] {
        patterns.filter { $0.deletedAt == nil }.sorted { a, b in
            let da = a.dismissedAt != nil, db = b.dismissedAt != nil
            return da != db ? !da : order(a, b)
        }
    }

    /// Strongest first; for equal strength the newer detection first.
    static func order(_ a: DetectedPattern, _ b: DetectedPattern) -> Bool {
        if a.severity != b.severity { return a.severity > b.severity }
        if a.pValue != b.pValue { return a.pValue < b.pValue }
        if a.detectedAt != b.detectedAt { return a.detectedAt > b.detectedAt }
        if a.patternType != b.patternType { return a.patternType.rawValue < b.patternType.rawValue }
        return a.id.uuidString < b.id.uuidString
    }
}
