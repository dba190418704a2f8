import Foundation

/// Instants a user types or a file brings in: read strictly, and held to a sane range.
public enum InstantText {
    /// "09:12": an instant's local time of day, as a message names it. In the hour a clock going
    /// back repeats, with the offset ("01:30 UTC+1", then "01:30 UTC+0"), as the pages write it.
    public static func hourMinute(_ d: Date, calendar: Calendar) -> String {
        let t = calendar.dateComponents([.hour, .minute], from: d)
        return String(format: "%02d:%02d", t.hour ?? 0, t.minute ?? 0) + (offsetIfRepeated(d, calendar: calendar) ?? "")
    }

    /// " UTC+1" when the wall time of `d` comes twice that night (the hour a clock going back
    /// repeats), which tells the two passes apart; nil otherwise.
    public static func offsetIfRepeated(_ d: Date, calendar: Calendar) -> String? {
        guard LocalDay.wallTimeRepeats(d, calendar: calendar) else { return nil }
        let offset = calendar.timeZone.secondsFromGMT(for: d), minutes = abs(offset) / 60
        return " UTC" + (offset < 0 ? "-" : "+") + String(minutes / 60)
            + (minutes % 60 == 0 ? "" : ":" + (minutes % 60 < 10 ? "0" : "") + String(minutes % 60))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)` and nothing else: the day must
    /// exist in its month (2026-02-30 is refused, not read as March 2), the hour, minute and second
    /// must be in range, and nothing may follow the offset. Nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let u = Array(text.utf8)
        guard u.count >= 20, u.count <= 40, let whole = wholeSeconds(u) else { return nil }
        var i = 19
        var fraction = 0.0
        if u[i] == UInt8(ascii: ".") {
            var j = i + 1
            while j < u.count, u[j] >= 48, u[j] <= 57 { j += 1 }
            guard j > i + 1, j - i - 1 <= 9,
                  let f = Double("0." + String(decoding: u[(i + 1)..<j], as: UTF8.self)) else { return nil }
            fraction = f
            i = j
        }
        guard i < u.count else { return nil }
        var offset = 0
        switch u[i] {
        case UInt8(ascii: "Z"):
            guard i + 1 == u.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == u.count, u[i + 3] == UInt8(ascii: ":"),
                  let oh = digits(u, i + 1, 2), let om = digits(u, i + 4, 2), oh <= 14, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (u[i] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        return Date(timeIntervalSince1970: Double(whole - offset) + fraction)
    }

    /// The `YYYY-MM-DDTHH:MM:SS` at the start of `u`, checked (the day exists in its month, the
    /// hour, minute and second are in range), as seconds since 1970-01-01 read as UTC; nil for
    /// anything else. What follows it is the caller's to read (a fraction, an offset, "Z").
    public static func wholeSeconds(_ u: [UInt8]) -> Int? {
        guard u.count >= 19 else { return nil }
        guard u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
              let y = digits(u, 0, 4), let mo = digits(u, 5, 2), let d = digits(u, 8, 2),
              let h = digits(u, 11, 2), let mi = digits(u, 14, 2), let s = digits(u, 17, 2),
              (1...12).contains(mo), d >= 1, d <= daysIn(month: mo, year: y), h < 24, mi < 60, s < 60
        else { return nil }
        return LocalDay.daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s
    }

    /// The earliest clock EgoFix accepts from outside (`--now`, EGOFIX_NOW): nothing of a practice
    /// predates 2000.
    public static let earliest = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
    /// The earliest instant a record may carry (import, sync): the demo's longest history, 100
    /// years before a clock of 2000 or later, and the shipped catalogue's stamps (1970) lie after it.
    public static let earliestRecord = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01T00:00:00Z
    /// The latest clock a user may pin (`--now`, EGOFIX_NOW).
    public static let latestClock = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01T00:00:00Z

    /// Why a pinned clock is refused, or nil when it is in range.
    public static func clockProblem(_ date: Date) -> String? {
        if date < earliest { return "is before 2000-01-01" }
        if date >= latestClock { return "is after 2099-12-31" }
        return nil
    }

    /// Why an instant recorded by a practice is refused (before 1900, or after 2099, past any clock
    /// a command records at), or nil when it is in range. Whatever a command stored passes: a
    /// machine whose clock once ran a year ahead can still be exported, imported and synced.
    public static func recordProblem(_ date: Date) -> String? {
        if date < earliestRecord { return "is before 1900-01-01, earlier than any practice" }
        if date >= latestClock { return "is after 2099-12-31, later than any clock egofix records at" }
        return nil
    }

    /// The number written by the `n` ASCII digits of `u` from `a`; nil if any is not a digit or
    /// they run past the end.
    static func digits(_ u: [UInt8], _ a: Int, _ n: Int) -> Int? {
        guard a + n <= u.count else { return nil }
        var v = 0
        for i in a..<(a + n) {
            let c = u[i]
            guard c >= 48, c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month m: Int, year y: Int) -> Int {
        switch m {
        case 2: return isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

}
