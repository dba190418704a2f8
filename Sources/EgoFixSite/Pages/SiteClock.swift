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

    /// "07:05"
    func time(_ d: Date) -> String {
        let m = LocalDay.minuteOfDay(d, calendar: calendar)
        let h = m / 60, mm = m % 60
        return String(decoding: [UInt8(0x30 + h / 10), UInt8(0x30 + h % 10), 0x3a, UInt8(0x30 + mm / 10), UInt8(0x30 + mm % 10)],
                      as: UTF8.self)
    }
}
