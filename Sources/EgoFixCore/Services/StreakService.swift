import Foundation

public struct StreakService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public func state(of user: UserProfile) -> StreakState {
        StreakState(of: user) { LocalDay($0, calendar: calendar) }
    }

    /// Any engagement (opening a fix, an outcome, a crash, a diagnostic) counts the day.
    /// Returns the profile as saved. A break is silent: there is nothing to announce.
    @discardableResult
    public func recordEngagement(at now: Date) async throws -> UserProfile {
        guard var user = try await repos.users.get() else { throw PracticeError.noProfile }
        let today = LocalDay(now, calendar: calendar)
        let before = state(of: user)
        var s = StreakRules.engage(before, on: today, at: now)
        // A day before the last one counted (the clock set back at midnight, a flight west): the
        // state machine alone leaves it out, and a streak the records keep stays broken. The
        // streak is replayed from every day the records count, with this one, as a sync replays it.
        if let last = before.lastEngagedDay, today < last {
            s = try await replayed(with: [(today, now), (last, before.lastEngagedAt)], longest: user.longestStreak)
        }
        if s == before { return user }
        user.currentStreak = s.current
        user.longestStreak = s.longest
        // The latest instant counted: the next day's gap is measured from it.
        user.lastEngagementDate = s.lastEngagedAt
        user.lastEngagementDay = s.lastEngagedDay?.ordinal
        user.freezeUsedWeekStart = s.freezeUsedWeek?.ordinal
        user.streakFreezeAvailable = StreakRules.freezeAvailable(s, today: today, now: now)
        try await repos.users.save(user)
        return user
    }

    /// The streak replayed from every day the records count (`SyncRules.engagements`, as a sync
    /// reads them) with `days` (the day counted now and the last the profile counted); the longest
    /// never goes below `longest`.
    func replayed(with days: [(day: LocalDay, at: Date?)], longest: Int) async throws -> StreakState {
        let engagements = SyncRules.engagements(completions: try await repos.completions.getAll(), crashes: try await repos.crashes.getAll(),
                                                diagnostics: try await repos.diagnostics.getAll(), events: try await repos.events.getAll(),
                                                calendar: calendar)
        var s = StreakRules.replay(engagements.map { ($0.day, $0.at) } + days)
        s.longest = max(s.longest, longest)
        return s
    }

    /// Brings the profile's stored streak and freeze flag up to `now` (a streak ended by missed
    /// days reads 0; the freeze flag is this week's), so what `export` and `status` read is not
    /// stale. Uses no freeze and counts no engagement. Returns the profile as saved.
    @discardableResult
    public func settle(at now: Date) async throws -> UserProfile {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let settled = settled(user, at: now)
        guard settled != user else { return user }
        try await repos.users.save(settled)
        return settled
    }

    /// The profile with its streak and freeze flag as they stand at `now` (nothing saved).
    public func settled(_ user: UserProfile, at now: Date) -> UserProfile {
        let today = LocalDay(now, calendar: calendar)
        let s = state(of: user)
        var u = user
        u.currentStreak = StreakRules.current(s, today: today, now: now)
        u.streakFreezeAvailable = StreakRules.freezeAvailable(s, today: today, now: now)
        return u
    }

    /// The streak shown today: 0 once a missed day was not covered by a freeze.
    public func currentStreak(at now: Date) async throws -> Int {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        return StreakRules.current(state(of: user), today: LocalDay(now, calendar: calendar), now: now)
    }

    public func freezeAvailable(at now: Date) async throws -> Bool {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        return StreakRules.freezeAvailable(state(of: user), today: LocalDay(now, calendar: calendar), now: now)
    }
}
