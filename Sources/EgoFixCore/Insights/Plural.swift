import Foundation

/// A count and its noun in agreement, for the site's, the detectors' and the commands' copy:
/// "1 crash", "7 crashes", "once", "1 reply", "2 replies".
public enum Plural {
    /// "1 crash", "7 crashes": the number, then `one` or `many` (`one` + "s" when not given).
    public static func of(_ n: Int, _ one: String, _ many: String? = nil) -> String {
        "\(n) " + (n == 1 ? one : (many ?? one + "s"))
    }

    /// "one crash", "two crashes", "12 crashes": `of` with the number in words up to ten
    /// (`PatternCopy.word`).
    public static func inWords(_ n: Int, _ one: String, _ many: String? = nil) -> String {
        PatternCopy.word(n) + " " + (n == 1 ? one : (many ?? one + "s"))
    }

    /// A counter fix's count in its catalogue unit, which is plural ("times", "replies", "people"):
    /// 1 is "once" for times, else the unit made singular.
    public static func count(_ n: Int, unit: String) -> String {
        guard n == 1 else { return "\(n) \(unit)" }
        if unit == "times" { return "once" }
        return "1 " + singular(unit)
    }

    /// A timer's length as the terminal's fix card and the site both say it: "24 hours", "1 hour",
    /// "10 minutes", "90 seconds" (whole hours, else whole minutes, else seconds).
    public static func duration(seconds: Int) -> String {
        if seconds >= 3600 && seconds % 3600 == 0 { return of(seconds / 3600, "hour") }
        if seconds >= 60 && seconds % 60 == 0 { return of(seconds / 60, "minute") }
        return of(seconds, "second")
    }

    /// The singular of a plural English noun (of the last word of a phrase), for the units the
    /// catalogue uses and the regular rest: people, replies, near misses, checks.
    public static func singular(_ plural: String) -> String {
        if plural.hasSuffix("people") { return String(plural.dropLast(6)) + "person" }
        if plural.hasSuffix("ies") && plural.count > 3 { return String(plural.dropLast(3)) + "y" }
        for ending in ["sses", "shes", "ches", "xes", "zzes"] where plural.hasSuffix(ending) { return String(plural.dropLast(2)) }
        if plural.hasSuffix("s") && !plural.hasSuffix("ss") { return String(plural.dropLast()) }
        return plural
    }
}
