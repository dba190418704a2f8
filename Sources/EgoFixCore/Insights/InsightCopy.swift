import Foundation

/// Plain-English helpers for the insight copy.
enum InsightCopy {
    /// "one crash", "two crashes", "12 crashes"
    static func counted(_ n: Int, _ singular: String, _ plural: String) -> String {
        PatternCopy.word(n) + " " + (n == 1 ? singular : plural)
    }
}
