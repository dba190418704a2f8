import Foundation

extension WeeklyDiagnostic {
    /// The Monday of the week this diagnostic reviewed, in `calendar`'s zone. The week is stored as
    /// the instant its Monday began where the user was; it is read from its middle (three and a half
    /// days on), so after a move to another zone, even across the date line, it is the same week.
    public func week(in calendar: Calendar) -> LocalDay {
        LocalDay(weekStarting.addingTimeInterval(84 * 3600), calendar: calendar).isoWeekStart
    }
}

/// The weekly diagnostic: due from Sunday 18:00 through the end of Monday in the user's time zone,
/// reviewing the ISO week (Monday to Sunday) that is ending or has just ended. Done once per week,
/// at most 3 bugs, the least recently asked first. Skipping records nothing and costs nothing.
public enum DiagnosticSchedule {
    /// The Monday of the week under review when `now` is inside the window, else nil.
    public static func reviewedWeek(now: Date, calendar: Calendar) -> LocalDay? {
        let day = LocalDay(now, calendar: calendar)
        let hour = LocalDay.minuteOfDay(now, calendar: calendar) / 60
        switch day.isoWeekday {
        case 7 where hour >= Thresholds.diagnosticOpensSundayHour: return day.isoWeekStart
        case 1: return day.adding(days: -7)
        default: return nil
        }
    }

    /// Whether the diagnostic is open and not done; never for a week that ended before the
    /// practice's first day (`practiceStart`): a practice begun on a Monday is not asked about the week before it.
    public static func isDue(now: Date, calendar: Calendar, completed: [WeeklyDiagnostic], practiceStart: LocalDay? = nil) -> Bool {
        guard let week = reviewedWeek(now: now, calendar: calendar) else { return false }
        if let start = practiceStart, week.adding(days: 6) < start { return false }
        return !completed.contains { $0.deletedAt == nil && $0.week(in: calendar) == week }
    }

    /// The bugs to ask about: active ones, never asked first, then the longest since asked,
    /// then the least often asked, then primary, activation date and slug. At most 3.
    public static func bugsToAsk(active: [Bug], primaryBugId: UUID?, completed: [WeeklyDiagnostic],
                                 max limit: Int = Thresholds.diagnosticMaxBugs) -> [Bug] {
        var lastAsked: [UUID: Date] = [:]
        var timesAsked: [UUID: Int] = [:]
        for d in completed where d.deletedAt == nil {
            for r in d.responses {
                lastAsked[r.bugId] = Swift.max(lastAsked[r.bugId] ?? .distantPast, d.completedAt)
                timesAsked[r.bugId, default: 0] += 1
            }
        }
        return bugsToAsk(active: active, primaryBugId: primaryBugId, lastAsked: lastAsked, timesAsked: timesAsked, max: limit)
    }

    /// `bugsToAsk`, given when each bug was last asked and how often (the only things it reads
    /// from the completed diagnostics).
    static func bugsToAsk(active: [Bug], primaryBugId: UUID?, lastAsked: [UUID: Date], timesAsked: [UUID: Int],
                          max limit: Int = Thresholds.diagnosticMaxBugs) -> [Bug] {
        // Indexes into `active`, in turn order, then the stable bugs by slug; no bug is copied to sort them.
        let order = DailyFixRules.turnOrderIndices(active, primaryBugId: primaryBugId)
            + active.indices.filter { active[$0].deletedAt == nil && active[$0].isActive && active[$0].status == .stable }
                .sorted { active[$0].slug < active[$1].slug }
        // Each bug's keys looked up once, not at every comparison.
        let last = order.map { lastAsked[active[$0].id] }
        let times = order.map { timesAsked[active[$0].id] ?? 0 }
        return order.indices.sorted { a, b in
            switch (last[a], last[b]) {
            case (nil, nil): return a < b
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?):
                if x != y { return x < y }
                return times[a] != times[b] ? times[a] < times[b] : a < b
            }
        }.prefix(limit).map { active[order[$0]] }
    }
}
