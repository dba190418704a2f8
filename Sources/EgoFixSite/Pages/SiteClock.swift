import EgoFixCore
import Foundation

/// Local dates and wall-clock times of instants in the user's calendar.
struct SiteClock: Sendable {
    let calendar: Calendar
    let days: LocalDay.Converter

    init(calendar: Calendar) {
        self.calendar = calendar
        days = LocalDay.Converter(calendar)
    }

    func day(_ d: Date) -> LocalDay { days.day(d) }

    /// "07:05"; in the hour repeated when clocks go back, with the offset ("02:45 UTC+2", then
    /// "02:30 UTC+1"), which tells the two passes apart. Written out here, not the zone's
    /// abbreviation, which differs with the machine's time zone data and locale.
    func time(_ d: Date) -> String {
        let m = LocalDay.minuteOfDay(d, calendar: calendar)
        let h = m / 60, mm = m % 60
        let text = String(decoding: [UInt8(0x30 + h / 10), UInt8(0x30 + h % 10), 0x3a, UInt8(0x30 + mm / 10), UInt8(0x30 + mm % 10)],
                          as: UTF8.self)
        return text + (InstantText.offsetIfRepeated(d, calendar: calendar) ?? "")
    }
}
