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
