import EgoFixCore
import Foundation

/// The week a diagnostic reviews set against the week before, as that week's page sets them
/// (`Period.comparedDays`): for the diagnostic's summary in the terminal.
public enum WeekComparison {
    /// The days of the week before `monday`'s week that it is compared with at `today`; nil when
    /// there is none to compare (the practice began after that week's Monday, `practiceStart`).
    public static func daysBefore(week monday: LocalDay, today: LocalDay, practiceStart: LocalDay) -> ClosedRange<LocalDay>? {
        let week = Period.week(containing: monday)
        return week.comparedDays(of: Period.week(containing: monday.adding(days: -7)), today: today, practiceStart: practiceStart)
    }

    /// Whether `monday`'s week is still under way at `today` (compared with the same days of the
    /// week before, not all of it).
    public static func isUnderWay(week monday: LocalDay, today: LocalDay) -> Bool {
        Period.week(containing: monday).isUnderWay(today: today)
    }
}

