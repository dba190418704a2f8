import Foundation

/// The English names of days and months, for every page, command and unit file that writes one.
extension LocalDay {
    /// "Monday" to "Sunday", in ISO order: a day's is at `isoWeekday - 1`.
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// "January" to "December": a month's is at `month - 1`.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]
    /// "Mon" to "Sun", in ISO order: the graph's rows, the terminal's history, systemd's calendar.
    public static let shortWeekdayNames = weekdayNames.map { String($0.prefix(3)) }
    /// "Jan" to "Dec".
    public static let shortMonthNames = monthNames.map { String($0.prefix(3)) }
}
