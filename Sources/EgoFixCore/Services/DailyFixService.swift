import Foundation

public struct DailyFixService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// The fix to show now: a pending quick fix after a crash first, else today's daily fix,
    /// assigned on first request and the same for the rest of the local day. Nil on a rest day.
    public func current(at now: Date) async throws -> (completion: FixCompletion, fix: Fix)? {
        if let quick = try await pendingQuickFix(at: now) { return quick }
        return try await assignToday(at: now)
    }

    /// Yesterday's fix, unmarked, when its timer ran out today (`PendingFixRule.timedPastItsDay`).
    public func timedPastItsDay(at now: Date) async throws -> (completion: FixCompletion, fix: Fix)? {
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let day = LocalDay(now, calendar: calendar)
        return PendingFixRule.timedPastItsDay(in: try await PendingFixService.givenAround(repos, today: day, calendar: calendar), fixesById: byId,
                                              today: day, dayOf: { LocalDay($0, calendar: calendar) },
                                              timerEnds: try await OutcomeService.timerEnds(repos, today: day, calendar: calendar))
    }

    /// The earliest quick fix queued by a crash and not yet marked or expired.
    public func pendingQuickFix(at now: Date) async throws -> (completion: FixCompletion, fix: Fix)? {
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let pending = try await repos.completions.getPending(fixIds: fixes.filter { $0.type == .quickFix }.map(\.id))
        return PendingFixRule.pendingQuickFix(in: pending, fixesById: byId, today: LocalDay(now, calendar: calendar),
                                              dayOf: { LocalDay($0, calendar: calendar) })
    }

    /// Today's daily fix: the one already assigned on this local day (whatever its outcome), else
    /// one chosen now by `DailyFixRules` among the bugs as stored, and recorded: callers settle the
    /// bugs first (`LifecycleService.reconcile`). A pending quick fix does not hold it back: the
    /// quick fix comes first, and the day's fix still comes. Nil on a rest day.
    public func assignToday(at now: Date) async throws -> (completion: FixCompletion, fix: Fix)? {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        if let existing = try await todaysAssignment(at: now, fixesById: byId) { return existing }
        let day = LocalDay(now, calendar: calendar)
        guard case .fix(let fix, let reason) = try await choice(user: user, bugs: try await repos.bugs.getAll(), fixes: fixes, day: day)
        else { return nil }
        let completion = FixCompletion(fixId: fix.id, userId: user.id, assignedAt: now, day: day.ordinal)
        try await repos.completions.save(completion)
        if reason == .retest, var bug = try await repos.bugs.getById(fix.bugId) {
            bug.lastRetestAt = now
            try await repos.bugs.save(bug)
        }
        try await EventRecorder(repos: repos, calendar: calendar)
            .record(.fixAssigned, userId: user.id, bugId: fix.bugId, fixId: fix.id, at: now)
        return (completion, fix)
    }

    /// The fix `assignToday` would give at `now` when none is given yet, among `bugs` (by default
    /// every bug as the rules have it at `now`, `LifecycleService.current`): read only, since
    /// giving it counts as opening it. What `egofix remind` and `egofix status` name.
    public func wouldAssign(at now: Date, bugs settled: [Bug]? = nil) async throws -> Fix? {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let bugs: [Bug]
        if let settled { bugs = settled } else { bugs = try await LifecycleService(repos: repos, calendar: calendar).current(at: now) }
        return try await choice(user: user, bugs: bugs, fixes: try await repos.fixes.getAll(), day: LocalDay(now, calendar: calendar)).fix
    }

    /// `DailyFixRules.choose` over the store's fixes and completions on `day`, among `bugs`.
    private func choice(user: UserProfile, bugs: [Bug], fixes: [Fix], day: LocalDay) async throws -> DailyAssignment {
        let completions = try await repos.completions.getAppliedOrSince(DailyFixRules.cooldownStart(day: day, calendar: calendar))
        return DailyFixRules.choose(.init(userId: user.id, day: day, bugs: bugs, primaryBugId: user.primaryBugId,
                                          fixes: fixes, completions: completions, calendar: calendar))
    }

    /// The daily (or weekly) fix already assigned on this local day, whatever its outcome.
    public func todaysAssignment(at now: Date, fixesById: [UUID: Fix]? = nil) async throws -> (completion: FixCompletion, fix: Fix)? {
        let day = LocalDay(now, calendar: calendar)
        let byId: [UUID: Fix]
        if let fixesById { byId = fixesById } else {
            byId = Dictionary(uniqueKeysWithValues: try await repos.fixes.getAll().map { ($0.id, $0) })
        }
        return PendingFixRule.todaysDailyFix(in: try await PendingFixService.givenAround(repos, today: day, calendar: calendar), fixesById: byId,
                                             today: day, dayOf: { LocalDay($0, calendar: calendar) })
    }
}
