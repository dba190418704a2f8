import Foundation

/// What `egofix remind` says now: `ReminderCadence.due` over the store. Reads only; the day's fix
/// is named as `DailyFixRules` would choose it, not assigned (assigning it counts as opening it).
public struct ReminderService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public func due(at now: Date, remindAt: ReminderTime, skippedDiagnosticWeek: LocalDay? = nil) async throws -> ReminderCadence.Now {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        // The bugs as they stand now: a stable bug gets the quieter cadence the day it is stable.
        let bugs = try await LifecycleService(repos: repos, calendar: calendar).current(at: now)
        let day = LocalDay(now, calendar: calendar)
        let diagnostic = try await DiagnosticService(repos: repos, calendar: calendar, skippedWeek: skippedDiagnosticWeek).isDue(at: now)
        var dayFix: (label: String, open: Bool)?
        if ReminderCadence.plan(bugs: bugs, day: day, calendar: calendar).dailyFix {
            let fixes = try await repos.fixes.getAll()
            let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            if let assigned = try await DailyFixService(repos: repos, calendar: calendar).todaysAssignment(at: now, fixesById: byId) {
                dayFix = (assigned.fix.label, assigned.completion.outcome == .pending)
            } else {
                let completions = try await repos.completions.getAppliedOrSince(DailyFixRules.cooldownStart(day: day, calendar: calendar))
                let choice = DailyFixRules.choose(.init(userId: user.id, day: day, bugs: bugs, primaryBugId: user.primaryBugId,
                                                        fixes: fixes, completions: completions, calendar: calendar))
                if let f = choice.fix { dayFix = (f.label, true) }
            }
        }
        return ReminderCadence.due(now: now, bugs: bugs, remindAt: remindAt, dayFix: dayFix, diagnosticDue: diagnostic, calendar: calendar)
    }
}
