import Foundation

/// A zone given by its abbreviation ("PST", "IST"): Foundation reads it as a place (PST as
/// America/Los_Angeles), the C library and systemd as UTC with that name, so `date`, the
/// reminder's timer and egofix disagreed by hours, and systemd refused the timer.
public enum ZoneAbbreviation {
    /// The zone name to give instead when `name` is such an abbreviation (a few letters that no
    /// zone file and no canonical zone is named, which Foundation still reads); nil otherwise.
    public static func zoneInstead(of name: String, zoneFolder: String = "/usr/share/zoneinfo") -> String?? {
        guard (2...6).contains(name.count), name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }),
              !["UTC", "GMT"].contains(name), TimeZone(identifier: name) != nil,
              !TimeZone.knownTimeZoneIdentifiers.contains(name),
              !FileManager.default.fileExists(atPath: zoneFolder + "/" + name) else { return nil }
        return .some(TimeZone(abbreviation: name).map(\.identifier).flatMap { TimeZone.knownTimeZoneIdentifiers.contains($0) ? $0 : nil })
    }

    /// The sentence that says so, for `what` ("time_zone 'PST'", "TZ 'PST'").
    public static func problem(_ what: String, instead: String?) -> String {
        "\(what) is an abbreviation, which the C library and systemd read as UTC; use the zone's name"
            + (instead.map { ", such as \($0)" } ?? ", the place's, such as Europe/Berlin")
    }
}
