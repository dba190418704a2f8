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
