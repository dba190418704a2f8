import Foundation

/// What `egofix status` shows.
public struct StatusSnapshot: Equatable, Sendable, Codable {
    public struct BugLine: Equatable, Sendable, Codable {
        public let slug: String
        public let title: String
        public let color: String
        public let status: BugStatus
        public let isPrimary: Bool
        public let activatedAt: Date?
    }

    public let version: String
    public let appliedCount: Int
    public let fixesToNextVersion: Int
    public let streak: Int
    public let longestStreak: Int
    public let streakLine: String
    public let freezeAvailable: Bool
    public let activeBugs: [BugLine]
    public let pendingFix: String?
    /// The pending fix's number, as `today --json` gives it (`pendingFix` is its label, "FIX #042").
    public let pendingFixNumber: Int?
    public let pendingFixPrompt: String?
    /// Whether the pending fix is today's, not given yet: `egofix today` gives it (and shows it),
    /// and so does an outcome, which marks it (`OutcomeService.wouldMark`).
    public let pendingFixNotGivenYet: Bool
    /// Whether today is a rest day: no fix pending, none given today, and none `today` would give.
    public let restDay: Bool
    /// Why, on a rest day (`today` says the same).
    public let restDayReason: RestDay?
    public let openCrashes: Int
    public let diagnosticDue: Bool

    /// `givingTodaysFixFrom`: from when an outcome gives today's fix (see `OutcomeService.target`).
    public static func make(repos: Repositories, calendar: Calendar, at now: Date, skippedDiagnosticWeek: LocalDay? = nil,
                            givingTodaysFixFrom: ReminderTime? = nil) async throws -> StatusSnapshot {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let streakSvc = StreakService(repos: repos, calendar: calendar)
        let streak = try await streakSvc.currentStreak(at: now)
        let applied = try await repos.completions.count(outcome: .applied)
        // The bugs as they stand now (one stable after its quiet weeks, which `today` would save).
        let settled = try await LifecycleService(repos: repos, calendar: calendar).current(at: now)
        let bugs = settled.filter(\.isActive)
        let active = DailyFixRules.turnOrder(bugs, primaryBugId: user.primaryBugId)
            + bugs.filter { $0.status != .active }.sorted { $0.slug < $1.slug }
        // The fix `egofix applied` would mark: the pending one, else today's not given yet. Else
        // a rest day when none was given today and `today` would give none: "`egofix today` shows
        // today's" was untrue on such a day.
        let marked = try await OutcomeService(repos: repos, calendar: calendar)
            .wouldMark(at: now, givingTodaysFixFrom: givingTodaysFixFrom, bugs: settled)
        var rest: RestDay?
        if case .restDay = marked { rest = RestDay(bugs: settled) }
        return StatusSnapshot(
            version: user.currentVersion, appliedCount: applied,
            fixesToNextVersion: VersionRules.fixesToNextVersion(appliedCount: applied),
            streak: streak, longestStreak: user.longestStreak, streakLine: StreakRules.line(days: streak, longest: user.longestStreak),
            freezeAvailable: try await streakSvc.freezeAvailable(at: now),
            activeBugs: active.map { BugLine(slug: $0.slug, title: $0.title, color: $0.color, status: $0.status,
                                             isPrimary: $0.id == user.primaryBugId, activatedAt: $0.activatedAt) },
            pendingFix: marked.fix?.label, pendingFixNumber: marked.fix?.number, pendingFixPrompt: marked.fix?.prompt, pendingFixNotGivenYet: marked.givenNow,
            restDay: rest != nil, restDayReason: rest,
            openCrashes: try await repos.crashes.getUnrebooted().count,
            diagnosticDue: try await DiagnosticService(repos: repos, calendar: calendar, skippedWeek: skippedDiagnosticWeek).isDue(at: now))
    }
}
