import Foundation

/// A calendar date in the user's time zone, as a count of days since 1970-01-01.
/// Day arithmetic is plain integer arithmetic, so it cannot drift across DST changes.
public struct LocalDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let ordinal: Int

    public init(ordinal: Int) { self.ordinal = ordinal }

    public init(year: Int, month: Int, day: Int) {
        ordinal = LocalDay.daysFromCivil(year, month, day)
    }

    /// The local date of an instant in the calendar's time zone.
    public init(_ instant: Date, calendar: Calendar) {
        if let local = LocalDay.local(instant, calendar: calendar) {
            self.init(ordinal: local.day)
            return
        }
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        self.init(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)
    }

    /// The local wall-clock time of an instant: minutes since local midnight (0 ..< 1440).
    public static func minuteOfDay(_ instant: Date, calendar: Calendar) -> Int {
        if let local = local(instant, calendar: calendar) { return min(1439, max(0, Int(local.second) / 60)) }
        let c = calendar.dateComponents([.hour, .minute], from: instant)
        return (c.hour ?? 0) * 60 + (c.minute ?? 0)
    }

    /// Whether the wall-clock time of `instant` happens twice in the calendar's zone (the hour
    /// repeated when clocks go back): 02:45 before the change and 02:30 after it read as out of
    /// order without the offset beside them.
    public static func wallTimeRepeats(_ instant: Date, calendar: Calendar) -> Bool {
        let t = instant.timeIntervalSinceReferenceDate, zones = ZoneOffsets.shared, tz = calendar.timeZone
        let here = zones.offset(tz, at: t)
        for other in [zones.offset(tz, at: t - 7_200), zones.offset(tz, at: t + 7_200)] where other != here {
            // The instant the same wall time would be at with the other offset, if it has that offset.
            if zones.offset(tz, at: t + Double(here - other)) == other { return true }
        }
        return false
    }

    /// The local day (ordinal) and second of the day of an instant, for the Gregorian calendar
    /// from 1900 on: the instant plus the zone's offset at that instant, which is how Foundation's
    /// Gregorian calendar computes date components, at a fraction of the cost. Nil elsewhere
    /// (callers then ask the calendar).
    static func local(_ instant: Date, calendar: Calendar) -> (day: Int, second: Double)? {
        let t = instant.timeIntervalSinceReferenceDate
        guard t >= -3_187_296_000, t < 250_000_000_000, calendar.identifier == .gregorian else { return nil }
        let local = t + Double(ZoneOffsets.shared.offset(calendar.timeZone, at: t))
        let days = (local / 86_400).rounded(.down)
        // 2001-01-01, the reference date, is day 11 323 after 1970-01-01.
        return (Int(days) + 11_323, local - days * 86_400)
    }

    /// The instant of a local wall-clock time on this day, where the zone's offset is the same all
    /// around it (no transition within two days either side, so the time exists, once): the local
    /// time less that offset, which is what the calendar answers there. Nil elsewhere.
    func steadyInstant(seconds: Int, calendar: Calendar) -> Date? {
        guard calendar.identifier == .gregorian, (0..<86_400).contains(seconds), ordinal > -25_000, ordinal < 2_900_000 else { return nil }
        let local = Double(ordinal - 11_323) * 86_400 + Double(seconds)
        guard let offset = ZoneOffsets.shared.steadyOffset(calendar.timeZone, aroundLocal: local) else { return nil }
        return Date(timeIntervalSinceReferenceDate: local - Double(offset))
    }

    /// This day's wall-clock times as instants, the zone looked at once for the whole day: when its
    /// offset is the same from two days before the day to two days after it, every time of the day
    /// is what `steadyInstant` answers (its checks are a part of this one); elsewhere `at` is asked.
    /// The other way, instants in those days are read with that offset, as `LocalDay.local` would.
    struct Clock {
        let day: LocalDay
        let calendar: Calendar
        let offset: Int?
        /// The UTC days (since the reference date) all known to have `offset`.
        let steadyDays: ClosedRange<Int>

        init(_ day: LocalDay, calendar: Calendar) {
            self.day = day
            self.calendar = calendar
            if calendar.identifier == .gregorian, day.ordinal > -25_000, day.ordinal < 2_900_000,
               let steady = ZoneOffsets.shared.steadyOffset(calendar.timeZone, aroundLocalDay: Double(day.ordinal - 11_323) * 86_400) {
                offset = steady.offset
                steadyDays = steady.days
            } else {
                offset = nil
                steadyDays = 0...0
            }
        }

        /// `LocalDay.local(instant, calendar:)`.
        func local(_ instant: Date) -> (day: Int, second: Double)? {
            let t = instant.timeIntervalSinceReferenceDate
            guard let offset, t >= -3_187_296_000, t < 250_000_000_000,
                  steadyDays.contains(Int((t / 86_400).rounded(.down))) else { return LocalDay.local(instant, calendar: calendar) }
            let local = t + Double(offset)
            let days = (local / 86_400).rounded(.down)
            return (Int(days) + 11_323, local - days * 86_400)
        }

        /// `LocalDay(instant, calendar:)`.
        func day(of instant: Date) -> LocalDay {
            if let local = local(instant) { return LocalDay(ordinal: local.day) }
            return LocalDay(instant, calendar: calendar)
        }

        /// `day.at(hour:minute:in:)`.
        func at(hour: Int, minute: Int = 0) -> Date {
            if let offset, (0..<24).contains(hour), (0..<60).contains(minute) {
                let local = Double(day.ordinal - 11_323) * 86_400 + Double(hour * 3600 + minute * 60)
                return Date(timeIntervalSinceReferenceDate: local - Double(offset))
            }
            return day.at(hour: hour, minute: minute, in: calendar)
        }
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool { a.ordinal < b.ordinal }

    /// Many instants to local days in one calendar, the calendar's zone read once: the same days as
    /// `LocalDay(_:calendar:)`, for loops over many records.
    public struct Converter: Sendable {
        public let calendar: Calendar
        let zone: TimeZone
        let zoneId: String
        let gregorian: Bool

        /// The offsets the shared table knew when the converter was made, read without its lock.
        let known: ZoneOffsets.Snapshot

        public init(_ calendar: Calendar) {
            self.calendar = calendar
            zone = calendar.timeZone
            zoneId = zone.identifier
            gregorian = calendar.identifier == .gregorian
            known = ZoneOffsets.shared.snapshot(id: zoneId)
        }

        public func day(_ instant: Date) -> LocalDay {
            let t = instant.timeIntervalSinceReferenceDate
            guard gregorian, t >= -3_187_296_000, t < 250_000_000_000 else { return LocalDay(instant, calendar: calendar) }
            let offset = known.offset(utcDay: Int((t / 86_400).rounded(.down))) ?? ZoneOffsets.shared.offset(zone, id: zoneId, at: t)
            let local = t + Double(offset)
            return LocalDay(ordinal: Int((local / 86_400).rounded(.down)) + 11_323)
        }

        /// The hour of the day (0 to 23) of `instant` in the calendar's zone.
        public func hour(_ instant: Date) -> Int {
            let t = instant.timeIntervalSinceReferenceDate
            guard gregorian, t >= -3_187_296_000, t < 250_000_000_000 else { return calendar.component(.hour, from: instant) }
            let offset = known.offset(utcDay: Int((t / 86_400).rounded(.down))) ?? ZoneOffsets.shared.offset(zone, id: zoneId, at: t)
            let local = t + Double(offset)
            return Int((local - (local / 86_400).rounded(.down) * 86_400) / 3_600)
        }
    }

    public func adding(days n: Int) -> LocalDay { LocalDay(ordinal: ordinal + n) }
    public func days(since other: LocalDay) -> Int { ordinal - other.ordinal }

    public var components: (year: Int, month: Int, day: Int) { LocalDay.civilFromDays(ordinal) }
    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// 1 = Sunday ... 7 = Saturday, as Foundation's Gregorian weekday.
    public var weekday: Int { LocalDay.mod(ordinal + 4, 7) + 1 }
    /// 1 = Monday ... 7 = Sunday (ISO 8601).
    public var isoWeekday: Int { LocalDay.mod(ordinal + 3, 7) + 1 }

    /// The Monday that starts this day's ISO week.
    public var isoWeekStart: LocalDay { adding(days: 1 - isoWeekday) }
    /// The Sunday on or before this day (the streak-freeze week starts on Sunday).
    public var sundayOnOrBefore: LocalDay { adding(days: 1 - weekday) }

    /// ISO 8601 week-numbering year and week.
    public var isoWeek: (year: Int, week: Int) {
        let thursday = adding(days: 4 - isoWeekday)
        let y = thursday.year
        let jan1 = LocalDay(year: y, month: 1, day: 1)
        return (y, (thursday.ordinal - jan1.ordinal) / 7 + 1)
    }

    /// How many ISO weeks the ISO week-numbering year `year` has: 52 or 53 (the week of
    /// 28 December is always its last).
    public static func isoWeekCount(year: Int) -> Int { LocalDay(year: year, month: 12, day: 28).isoWeek.week }

    /// "2026-W47"
    public var isoWeekLabel: String {
        var t = ASCIIText()
        appendISOWeekLabel(to: &t)
        return t.string
    }

    /// `isoWeekLabel`, written into `t`.
    public func appendISOWeekLabel(to t: inout ASCIIText) {
        let w = isoWeek
        t.append(w.year)
        t.append("-W")
        t.append(w.week, width: 2)
    }

    /// "2026-11-22"
    public var description: String {
        // As "%04d-%02d-%02d" writes it, for any year (ASCIIText pads numbers as %0*d does).
        let c = components
        var t = ASCIIText()
        t.append(c.year, width: 4)
        t.append(byte: 0x2d)
        t.append(c.month, width: 2)
        t.append(byte: 0x2d)
        t.append(c.day, width: 2)
        return t.string
    }

    public init?(iso string: String) {
        let parts = string.split(separator: "-")
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        self.init(year: y, month: m, day: d)
        guard components == (y, m, d) else { return nil }
    }

    /// The first instant of this day in the calendar's time zone.
    public func start(in calendar: Calendar) -> Date {
        if let d = steadyInstant(seconds: 0, calendar: calendar) { return d }
        let c = components
        var dc = DateComponents()
        dc.year = c.year
        dc.month = c.month
        dc.day = c.day
        if let d = calendar.date(from: dc) { return d }
        // Unreachable for the Gregorian calendar; keep a total function anyway.
        return Date(timeIntervalSince1970: TimeInterval(ordinal) * 86_400)
    }

    /// An instant at a local wall-clock time on this day.
    public func at(hour: Int, minute: Int = 0, in calendar: Calendar) -> Date {
        if (0..<24).contains(hour), (0..<60).contains(minute), let d = steadyInstant(seconds: hour * 3600 + minute * 60, calendar: calendar) {
            return d
        }
        let c = components
        var dc = DateComponents()
        dc.year = c.year
        dc.month = c.month
        dc.day = c.day
        dc.hour = hour
        dc.minute = minute
        return calendar.date(from: dc) ?? start(in: calendar).addingTimeInterval(TimeInterval(hour * 3600 + minute * 60))
    }

    static func mod(_ a: Int, _ n: Int) -> Int { ((a % n) + n) % n }

    // Howard Hinnant's civil-date algorithms (proleptic Gregorian), for every reader and writer of
    // dates in the project (local days, instants in the export and in --now, the feed).
    /// Days since 1970-01-01 of a proleptic Gregorian date (days_from_civil).
    public static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (civil_from_days).
    public static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d)
    }
}
