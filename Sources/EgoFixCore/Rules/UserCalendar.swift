import Foundation

public enum UserCalendar {
    /// A Gregorian calendar in the given zone; weeks start on Monday (ISO).
    public static func make(timeZone: TimeZone) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        c.firstWeekday = 2
        c.minimumDaysInFirstWeek = 4
        c.locale = Locale(identifier: "en_US_POSIX")
        return c
    }
}
