import Foundation

/// The detectors' numbers, next to the rest of the practice's numbers. The spec's trigger
/// conditions are minimums; confidence (a corrected p-value) decides severity on top of them.
extension Thresholds {
    // Window
    /// Detectors look at this many days up to now. Patterns are about the recent you.
    public static let detectorLookbackDays = 182

    // Avoidance: more than half the fixes about one bug skipped, at least 4 skips.
    public static let avoidanceSkipShare = 0.5
    public static let avoidanceMinimumSkips = 4
    /// Skip rates on the other bugs count as the baseline only with at least this many outcomes.
    public static let avoidanceBaselineMinimumOutcomes = 10

    // Temporal: more than 40 % of crashes on one weekday, at least 3.
    public static let temporalWeekdayShare = 0.4
    public static let temporalWeekdayMinimumCrashes = 3
    // Temporal: more than 50 % of crashes in one time bucket, at least 3.
    public static let temporalTimeShare = 0.5
    public static let temporalTimeMinimumCrashes = 3
    /// Non-crash events needed before they replace the uniform baseline for weekdays and buckets.
    public static let temporalBaselineMinimumEvents = 28

    // Context spike: more than 60 % of loud responses in one context, at least 3.
    public static let contextLoudShare = 0.6
    public static let contextMinimumLoud = 3

    // Correlated bugs: Pearson r above 0.7 over at least 6 weeks.
    public static let correlationMinimumR = 0.7
    public static let correlationMinimumWeeks = 6

    // Plateau: at least 4 rated weeks present or loud in a row, despite at least 6 fixes applied.
    public static let plateauMinimumWeeks = 4
    public static let plateauMinimumFixesApplied = 6
    /// A plateau this long (and twice the fixes) is an insight rather than an observation.
    public static let plateauInsightWeeks = 8

    // Improvement: a downward trend over at least 4 rated weeks, ending in quiet.
    public static let improvementMinimumWeeks = 4
    /// ... and trending down: Kendall's tau of the ratings at most this.
    public static let improvementMaximumTau = -0.3

    // Surfacing
    /// The same pattern type is not shown again within this many days of its last viewing.
    public static let patternCooldownDays = 14
}
