import Foundation

/// A counter's count and its unit in agreement, for the site's and the commands' copy: "once", "1 reply", "2 replies".
/// (A number and a noun with both forms given: `PatternCopy.count`.)
public enum Plural {
    /// A counter fix's count in its catalogue unit, which is plural ("times", "replies", "people"):
    /// 1 is "once" for times, else the unit made singular.
    public static func count(_ n: Int, unit: String) -> String {
        guard n == 1 else { return "\(n) \(unit)" }
        if unit == "times" { return "once" }
        return "1 " + singular(unit)
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
