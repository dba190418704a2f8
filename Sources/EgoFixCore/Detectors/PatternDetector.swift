import Foundation

/// What a detector may know besides the spec's events and diagnostics. Everything is passed in:
/// the clock (`now`), the calendar (the user's time zone), the records, and a seed for the
/// permutation tests, so the same input always gives the same patterns.
public struct DetectionContext: Sendable {
    public var userId: UUID
    public var now: Date
    public var calendar: Calendar
    public var bugs: [Bug]
    public var fixes: [Fix]
    public var completions: [FixCompletion]
    public var crashes: [Crash]
    /// Detectors look at this many local days up to and including today.
    public var lookbackDays: Int
    /// Mixed into every permutation test's seed.
    public var seed: UInt64

    public init(userId: UUID, now: Date, calendar: Calendar, bugs: [Bug] = [], fixes: [Fix] = [],
                completions: [FixCompletion] = [], crashes: [Crash] = [],
                lookbackDays: Int = Thresholds.detectorLookbackDays, seed: UInt64 = 0) {
        self.userId = userId
        self.now = now
        self.calendar = calendar
        self.bugs = bugs
        self.fixes = fixes
        self.completions = completions
        self.crashes = crashes
        self.lookbackDays = lookbackDays
        self.seed = seed
    }

    /// A practice's records, read at `now`: the user is the practice's (the nil UUID without a profile).
    public init(practice: Practice, now: Date, calendar: Calendar, seed: UInt64 = 0) {
        self.init(userId: practice.profile?.id ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                  now: now, calendar: calendar, bugs: practice.bugs, fixes: practice.fixes,
                  completions: practice.completions, crashes: practice.crashes, seed: seed)
    }

    /// The first instant the detectors look at: the start of the first local day of the lookback.
    /// Before it they read only `allTimeEventTypes` (a regression needs a bug's whole story).
    public var windowStart: Date {
        LocalDay(now, calendar: calendar).adding(days: -(max(1, lookbackDays) - 1)).start(in: calendar)
    }

    /// The event types the detectors read from before `windowStart`.
    public static let allTimeEventTypes: [EventType] = [.crashLogged, .fixFailed]

    /// Which records the detectors will read besides `events`: completions only when no outcome
    /// was logged as an event, crashes only when no crash was (see `DetectionData`). A caller can
    /// skip reading the others.
    public static func needs(events: [AnalyticsEvent]) -> (completions: Bool, crashes: Bool) {
        var outcomes = false, crashes = false
        for e in events {
            switch e.eventType {
            case .fixApplied, .fixSkipped, .fixFailed: outcomes = true
            case .crashLogged: crashes = true
            default: break
            }
            if outcomes && crashes { break }
        }
        return (!outcomes, !crashes)
    }

    /// A context read off the data alone, for the spec's two-argument `analyze`: the user of the
    /// earliest record, `now` at the latest record, a UTC ISO calendar, no bug names.
    public static func derived(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic]) -> DetectionContext {
        let firstEvent = events.min { $0.timestamp != $1.timestamp ? $0.timestamp < $1.timestamp : $0.id.uuidString < $1.id.uuidString }
        let firstDiagnostic = diagnostics.min { $0.completedAt != $1.completedAt ? $0.completedAt < $1.completedAt : $0.id.uuidString < $1.id.uuidString }
        let user = firstEvent?.userId ?? firstDiagnostic?.userId ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let latest = (events.map(\.timestamp) + diagnostics.map(\.completedAt)).max() ?? Date(timeIntervalSince1970: 0)
        let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current
        return DetectionContext(userId: user, now: latest, calendar: UserCalendar.make(timeZone: utc))
    }
}

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

/// Deterministic identifiers: the same finding (user, type, key facts) always gets the same id,
/// so a store can merge a re-detected pattern with the one already saved and keep its viewedAt.
public enum StableUUID {
    public static func make(_ parts: [String]) -> UUID {
        let h1 = StableHash.fnv1a(parts + ["a"]), h2 = StableHash.fnv1a(parts + ["b"])
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            b[i] = UInt8((h1 >> (8 * UInt64(i))) & 0xff)
            b[8 + i] = UInt8((h2 >> (8 * UInt64(i))) & 0xff)
        }
        b[6] = (b[6] & 0x0f) | 0x50   // version 5 layout (name-based)
        b[8] = (b[8] & 0x3f) | 0x80   // RFC 4122 variant
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
