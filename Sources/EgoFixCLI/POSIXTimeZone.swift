import Foundation

/// A `TZ` value in POSIX's own form rather than a zone's name: `UTC+3`, `JST-9`, `<+0530>-5:30`,
/// `CET-1CEST,M3.5.0,M10.5.0/3`. The C library reads the offset as hours *west* of UTC, so
/// `TZ=UTC+3 date` is three hours behind UTC, where Foundation's `TimeZone(identifier: "UTC+3")`
/// is three hours ahead: read through Foundation alone, every day of such a user would start six
/// hours from where `date` starts it.
enum POSIXTimeZone: Equatable {
    /// No daylight saving: this many seconds east of UTC.
    case fixed(secondsEast: Int)
    /// A daylight-saving part follows the standard offset (`CET-1CEST…`), which egofix does not read.
    case withDaylightSaving

    /// The form of `text`, or nil when it is not `std offset [dst …]`.
    static func parse(_ text: String) -> POSIXTimeZone? {
        var rest = Substring(text)
        // std: three or more letters, or anything of letters, digits, + and - in angle brackets.
        if rest.first == "<" {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            guard name.count >= 3, name.unicodeScalars.allSatisfy({ isNameScalar($0) || $0 == "+" || $0 == "-" }) else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let name = rest.prefix { $0.isASCII && $0.isLetter }
            guard name.count >= 3 else { return nil }
            rest = rest.dropFirst(name.count)
        }
        // offset: [+-]hh[:mm[:ss]], hours 0 to 24, west of UTC when positive.
        var sign = 1
        if let s = rest.first, s == "+" || s == "-" {
            sign = s == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...2).contains(digits.count), let value = Int(digits) else { return nil }
            parts.append(value)
            rest = rest.dropFirst(digits.count)
            guard rest.first == ":" else { break }
            rest = rest.dropFirst()
        }
        guard parts[0] <= 24, parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        if !rest.isEmpty { return .withDaylightSaving }
        let west = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
        return .fixed(secondsEast: -sign * west)
    }

    /// The zone to name instead of a common daylight-saving rule, by its standard and summer
    /// abbreviations and offset (`EST5EDT...`: America/New_York); nil for any other rule.
    static func zoneName(forRule text: String) -> String? {
        let known: [(prefix: String, zone: String)] = [
            ("EST5EDT", "America/New_York"), ("CST6CDT", "America/Chicago"), ("MST7MDT", "America/Denver"),
            ("PST8PDT", "America/Los_Angeles"), ("AKST9AKDT", "America/Anchorage"), ("HST10HDT", "America/Adak"),
            ("NST3:30NDT", "America/St_Johns"), ("AST4ADT", "America/Halifax"),
            ("GMT0BST", "Europe/London"), ("WET0WEST", "Europe/Lisbon"), ("CET-1CEST", "Europe/Berlin"),
            ("EET-2EEST", "Europe/Helsinki"), ("IST-1GMT0", "Europe/Dublin"),
            ("AEST-10AEDT", "Australia/Sydney"), ("ACST-9:30ACDT", "Australia/Adelaide"), ("NZST-12NZDT", "Pacific/Auckland"),
        ]
        let upper = text.uppercased()
        return known.first { upper.hasPrefix($0.prefix.uppercased()) && (upper.count == $0.prefix.count || upper.dropFirst($0.prefix.count).first == ",") }?.zone
    }

    private static func isNameScalar(_ s: Unicode.Scalar) -> Bool {
        s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s))
    }

    /// The zone for a fixed offset: `Etc/GMT-3` for three hours east (a name systemd and the C
    /// library read the same way, for `remind --install`), else a zone of that many seconds.
    static func zone(secondsEast: Int) -> TimeZone? {
        if secondsEast == 0 { return TimeZone(identifier: "UTC") }
        if secondsEast % 3600 == 0, (-12...14).contains(secondsEast / 3600) {
            let hours = secondsEast / 3600
            if let tz = TimeZone(identifier: "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))") { return tz }
        }
        return TimeZone(secondsFromGMT: secondsEast)
    }
}
