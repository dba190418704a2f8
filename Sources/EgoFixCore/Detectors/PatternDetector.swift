import Foundation

/// How close a detector is to having enough data, so silence reads as "not yet" rather than "nothing".
public struct DetectorStatus: Sendable, Equatable, Codable {
    public let patternType: PatternType
    /// "correlation check"
    public let name: String
    public let have: Int
    public let need: Int
    /// "weeks", "crashes", "skips on one bug"
    public let unit: String
    /// A second condition, when there is one: "3 of 6 fixes applied".
    public let detail: String?

    public init(patternType: PatternType, name: String, have: Int, need: Int, unit: String, detail: String? = nil) {
        self.patternType = patternType
        self.name = name
        self.have = max(0, have)
        self.need = need
        self.unit = unit
        self.detail = detail
    }

    public var isReady: Bool { have >= need }

    /// "correlation check: 4 of 6 weeks", or "correlation check: enough data (9 weeks)".
    public var line: String {
        var s = isReady ? "\(name): enough data (\(have) \(unit))" : "\(name): \(have) of \(need) \(unit)"
        if let detail { s += ", " + detail }
        return s
    }
}

/// A detector's answer: the pattern, if the data shows one, and how far along the data is.
public struct DetectorResult: Sendable, Equatable {
    public let pattern: DetectedPattern?
    public let status: DetectorStatus

    public init(pattern: DetectedPattern?, status: DetectorStatus) {
        self.pattern = pattern
        self.status = status
    }
}

/// The spec's detector protocol, with a context and a progress report added.
///
/// A detector fires only when the spec's trigger condition holds (the thresholds in `Thresholds`);
/// its severity then comes from a p-value corrected for the comparisons it made
/// (`PatternStatistics.severity`). Detectors describing a fact rather than a tendency
/// (plateau, regression) have no p-value (stored as 1) and a fixed severity, documented on each.
public protocol PatternDetector: Sendable {
    var patternType: PatternType { get }
    /// The smallest amount of data (in the detector's own unit) it needs before it can fire.
    var minimumDataPoints: Int { get }
    /// "avoidance check"
    var name: String { get }
    func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult
}

extension PatternDetector {
    /// The spec's signature: the context is derived from the data (see `DetectionContext.derived`).
    public func analyze(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic]) -> DetectedPattern? {
        evaluate(events: events, diagnostics: diagnostics,
                 context: .derived(events: events, diagnostics: diagnostics)).pattern
    }

    public func analyze(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectedPattern? {
        evaluate(events: events, diagnostics: diagnostics, context: context).pattern
    }

    public func status(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorStatus {
        evaluate(events: events, diagnostics: diagnostics, context: context).status
    }
}
