import Foundation

/// What a command does with a detection run: surface one pattern (stored as viewed) or dismiss a
/// type. A pattern is stored as it was first found, by its derived id; only when it was viewed or
/// dismissed is added, never its figures: the other machines merge only those instants.
public struct PatternService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// What `dismiss` did.
    public enum Dismissal: Equatable, Sendable {
        /// The type was dismissed before, on that instant (the earliest): nothing recorded again.
        case dismissedEarlier(Date)
        /// No pattern of the type is detected now: nothing dismissed.
        case noneDetected
        case dismissed
    }

    /// The pattern to show at `moment`, from `run` (one a day at most, none dismissed, the
    /// cooldowns of `PatternSurfacing`), recorded as viewed at `now` with a patternViewed event.
    /// Returned with today's figures.
    public func surface(_ run: PatternRun, moment: SurfacingMoment, at now: Date) async throws -> DetectedPattern? {
        guard let user = try await repos.users.get() else { return nil }
        let history = try await repos.patterns.getAll()
        guard let p = PatternSurfacing.pick(from: run.patterns, history: history, moment: moment, session: SurfacingSession(),
                                            now: now, calendar: calendar) else { return nil }
        var record = Self.asStored(p, history)
        // The later of the two: merged from a machine whose clock is ahead, a later viewedAt
        // overwritten with this clock's earlier one left the two stores different for good (the
        // merge takes the latest only when it reads the other machine's file again).
        record.viewedAt = max(record.viewedAt ?? now, now)
        try await repos.patterns.save(record)
        try await EventRecorder(repos: repos, calendar: calendar).record(.patternViewed, userId: user.id, bugId: p.relatedBugIds.first, at: now)
        return p
    }

    /// Dismisses every pattern of `type` that `run` found: none of the type is surfaced again.
    public func dismiss(_ type: PatternType, run: PatternRun, at now: Date) async throws -> Dismissal {
        let stored = try await repos.patterns.getAll()
        if let earlier = stored.filter({ $0.patternType == type && $0.deletedAt == nil }).compactMap(\.dismissedAt).min() {
            return .dismissedEarlier(earlier)
        }
        let found = run.patterns.filter { $0.patternType == type }
        guard !found.isEmpty else { return .noneDetected }
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        for f in found {
            var p = Self.asStored(f, stored)
            p.dismissedAt = now
            try await repos.patterns.save(p)
            try await EventRecorder(repos: repos, calendar: calendar).record(.patternDismissed, userId: user.id, bugId: p.relatedBugIds.first, at: now)
        }
        return .dismissed
    }

    /// A finding as first stored (with when it was viewed or dismissed), else as found now.
    static func asStored(_ p: DetectedPattern, _ stored: [DetectedPattern]) -> DetectedPattern {
        stored.first { $0.id == p.id && $0.deletedAt == nil } ?? p
    }
}
