import Foundation

/// What the detectors read from a store, and how: the lookback window's events plus the crashes
/// and failures of all time, and completions and crashes only when the events do not already tell
/// their story.
public enum DetectionReads {
    /// A detection run on the store as it is.
    public static func run(_ repos: Repositories, now: Date, calendar: Calendar) async throws -> PatternRun {
        try await read(repos, now: now, calendar: calendar).run()
    }

    /// Everything a detection run reads, read now: `run()` on it later gives the run of the store
    /// as it was, whatever is written meanwhile. (`today` ran the detectors on another core while
    /// it recorded the day's open and assignment: whether they read that event depended on which
    /// thread came first, and the stored p of a pattern changed from run to run.)
    public struct Reads: Sendable {
        let context: DetectionContext?
        let events: [AnalyticsEvent]
        let diagnostics: [WeeklyDiagnostic]

        /// The detectors on what was read (pure; on any thread).
        public func run() -> PatternRun {
            guard let context else { return PatternRun(patterns: [], statuses: []) }
            return PatternEngine.run(events: events, diagnostics: diagnostics, context: context)
        }
    }

    /// The reads of `run`, for running later.
    public static func read(_ repos: Repositories, now: Date, calendar: Calendar) async throws -> Reads {
        guard let user = try await repos.users.get() else { return Reads(context: nil, events: [], diagnostics: []) }
        let ctx = DetectionContext(userId: user.id, now: now, calendar: calendar, bugs: try await repos.bugs.getAll(),
                                   fixes: try await repos.fixes.getAll())
        let events = try await repos.events.getSince(ctx.windowStart, orOfTypes: DetectionContext.allTimeEventTypes)
        return try await reads(repos, ctx, events: events, diagnostics: try await repos.diagnostics.getAll())
    }

    /// `events` with the rest of what the engine reads: completions and crashes only when the
    /// events do not tell their story.
    static func reads(_ repos: Repositories, _ context: DetectionContext, events: [AnalyticsEvent],
                      diagnostics: [WeeklyDiagnostic]) async throws -> Reads {
        var ctx = context
        let needs = DetectionContext.needs(events: events)
        if needs.completions { ctx.completions = try await repos.completions.getAll() }
        if needs.crashes { ctx.crashes = try await repos.crashes.getAll() }
        return Reads(context: ctx, events: events, diagnostics: diagnostics)
    }

    /// What writing an outcome at `now` does not change (the user, the catalogue, the diagnostics,
    /// the events so far), so it can be read while the outcome is written.
    public struct Earlier: Sendable {
        let userId: UUID?
        let fixes: [Fix]
        let events: [AnalyticsEvent]
        let diagnostics: [WeeklyDiagnostic]
    }

    public static func earlier(_ repos: Repositories, now: Date, calendar: Calendar) async throws -> Earlier {
        guard let user = try await repos.users.get() else { return Earlier(userId: nil, fixes: [], events: [], diagnostics: []) }
        let window = DetectionContext(userId: user.id, now: now, calendar: calendar, bugs: [], fixes: []).windowStart
        return Earlier(userId: user.id, fixes: try await repos.fixes.getAll(),
                       events: try await repos.events.getSince(window, orOfTypes: DetectionContext.allTimeEventTypes),
                       diagnostics: try await repos.diagnostics.getAll())
    }

    /// The same result as `run` after an outcome was written at `now`: `earlier` (read before the
    /// write, or during it) plus what the write changed: the bugs (a transition), the events from
    /// `now` on, the completions and crashes.
    public static func run(_ repos: Repositories, now: Date, calendar: Calendar, after earlier: Earlier) async throws -> PatternRun {
        guard let userId = earlier.userId else { return try await run(repos, now: now, calendar: calendar) }
        let ctx = DetectionContext(userId: userId, now: now, calendar: calendar, bugs: try await repos.bugs.getAll(), fixes: earlier.fixes)
        var events = earlier.events
        let seen = Set(events.map(\.id))
        events += try await repos.events.getSince(now, orOfTypes: []).filter { !seen.contains($0.id) }
        return try await reads(repos, ctx, events: events, diagnostics: earlier.diagnostics).run()
    }
}
