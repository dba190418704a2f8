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
        guard try await repos.users.get() != nil else { throw PracticeError.noProfile }
        // The bugs as they stand now: a stable bug gets the quieter cadence the day it is stable.
        let bugs = try await LifecycleService(repos: repos, calendar: calendar).current(at: now)
        let day = LocalDay(now, calendar: calendar)
        let diagnostic = try await DiagnosticService(repos: repos, calendar: calendar, skippedWeek: skippedDiagnosticWeek).isDue(at: now)
        var dayFix: (label: String, open: Bool)?
        if ReminderCadence.plan(bugs: bugs, day: day, calendar: calendar).dailyFix {
            let service = DailyFixService(repos: repos, calendar: calendar)
            if let assigned = try await service.todaysAssignment(at: now) {
                dayFix = (assigned.fix.label, assigned.completion.outcome == .pending)
            } else if let fix = try await service.wouldAssign(at: now, bugs: bugs) {
                dayFix = (fix.label, true)
            }
        }
        return ReminderCadence.due(now: now, bugs: bugs, remindAt: remindAt, dayFix: dayFix, diagnosticDue: diagnostic, calendar: calendar)
    }
}
