import Foundation

public struct DiagnosticService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar
    /// The Monday of a week whose diagnostic was skipped here (`egofix diagnostic --skip`): it is
    /// not due again, so nothing keeps asking after "nothing owed".
    public let skippedWeek: LocalDay?

    public init(repos: Repositories, calendar: Calendar, skippedWeek: LocalDay? = nil) {
        self.repos = repos
        self.calendar = calendar
        self.skippedWeek = skippedWeek
    }

    public func isDue(at now: Date) async throws -> Bool {
        if let skippedWeek, DiagnosticSchedule.reviewedWeek(now: now, calendar: calendar) == skippedWeek { return false }
        var start: LocalDay?
        if let user = try await repos.users.get() {
            // Read on the day it began where it began, as the site reads it (the events at that
            // instant say; a practice begun just before midnight and read a zone further east).
            let made = try await repos.events.getBetween(user.createdAt, user.createdAt.addingTimeInterval(0.001))
            start = RecordedDays(events: made, calendar: calendar).practiceStart(of: user)
        }
        return DiagnosticSchedule.isDue(now: now, calendar: calendar, completed: try await repos.diagnostics.getAll(), practiceStart: start)
    }

    /// The bugs this week's diagnostic asks about (at most 3, rotating).
    public func bugsToAsk() async throws -> [Bug] {
        let user = try await repos.users.get()
        return DiagnosticSchedule.bugsToAsk(active: try await repos.bugs.getActive(), primaryBugId: user?.primaryBugId,
                                            completed: try await repos.diagnostics.getAll())
    }

    /// The Monday of the week a diagnostic completed now reviews: the window's week, else this ISO week.
    public func weekUnderReview(at now: Date) -> LocalDay {
        DiagnosticSchedule.reviewedWeek(now: now, calendar: calendar) ?? LocalDay(now, calendar: calendar).isoWeekStart
    }

    /// Records this week's diagnostic: each response rates a different active bug, at most 3 of them
    /// (`Thresholds.diagnosticMaxBugs`). Anything else is refused with nothing recorded.
    public func complete(_ responses: [BugDiagnosticResponse], at now: Date) async throws -> WeeklyDiagnostic {
        let d = try await record(responses, at: now)
        try await LifecycleService(repos: repos, calendar: calendar).reconcile(at: now)
        return d
    }

    /// `complete` but for the bugs' states, which the caller settles.
    private func record(_ responses: [BugDiagnosticResponse], at now: Date) async throws -> WeeklyDiagnostic {
        let user = try await checked(responses)
        let week = weekUnderReview(at: now)
        let start = week.start(in: calendar)
        if try await repos.diagnostics.getAll().contains(where: { $0.deletedAt == nil && $0.week(in: calendar) == week }) {
            throw PracticeError.diagnosticAlreadyDone(week: week.isoWeekLabel)
        }
        let d = WeeklyDiagnostic(userId: user.id, weekStarting: start, responses: responses, completedAt: now)
        try await repos.diagnostics.save(d)
        try await EventRecorder(repos: repos, calendar: calendar).record(.weeklyCompleted, userId: user.id, at: now)
        try await StreakService(repos: repos, calendar: calendar).recordEngagement(at: now)
        return d
    }

    /// The profile, once `responses` are found to rate different active bugs, at least one and at
    /// most 3 of them (`Thresholds.diagnosticMaxBugs`); anything else is refused.
    /// `allowing`: bugs rated though no longer active (a redo keeps the first ratings of bugs
    /// deactivated since).
    func checked(_ responses: [BugDiagnosticResponse], asked: [Bug]? = nil, allowing: Set<UUID> = []) async throws -> UserProfile {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        guard !responses.isEmpty else { throw PracticeError.diagnosticEmpty }
        let active = try await repos.bugs.getActive().filter { $0.deletedAt == nil }
        var rated = Set<UUID>()
        for r in responses {
            guard let bug = try await repos.bugs.getById(r.bugId) else { throw PracticeError.unknownBug(r.bugId.uuidString) }
            guard active.contains(where: { $0.id == bug.id }) || allowing.contains(bug.id) else {
                throw PracticeError.diagnosticBugNotActive(slug: bug.slug, active: active.map(\.slug).sorted())
            }
            guard rated.insert(bug.id).inserted else { throw PracticeError.diagnosticBugRatedTwice(slug: bug.slug) }
        }
        if responses.count > Thresholds.diagnosticMaxBugs {
            var thisWeek = asked ?? []
            if asked == nil { thisWeek = try await bugsToAsk() }
            throw PracticeError.diagnosticTooManyBugs(count: responses.count, thisWeek: thisWeek.map(\.slug))
        }
        return user
    }

    /// `complete`, with each bug that changed state at it (a loud week sends a stable bug back to
    /// active), for the command to say so.
    public func completeNamingChanges(_ responses: [BugDiagnosticResponse], at now: Date) async throws
        -> (diagnostic: WeeklyDiagnostic, changed: [(bug: Bug, transition: BugLifecycle.Transition)]) {
        // What time alone made due is saved first, as `today` does: a bug `status` showed as
        // stable that the answers send back is named as a regression, not left active unsaid.
        try await LifecycleService(repos: repos, calendar: calendar).reconcile(at: now)
        let d = try await record(responses, at: now)
        return (d, try await LifecycleService(repos: repos, calendar: calendar).reconcileEach(at: now))
    }
}
