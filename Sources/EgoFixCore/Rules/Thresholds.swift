import Foundation

/// Every number the practice runs on, in one place. The README and the site's
/// "how the numbers work" page are generated from these.
public enum Thresholds {
    // Version
    public static let fixesPerMinorVersion = 7
    public static let minorVersionsPerMajor = 10

    // Daily fix
    /// A skipped fix (or one left pending) is not offered again for this many days.
    public static let skippedCooldownDays = 21
    /// A failed fix is not offered again for this many days.
    public static let failedCooldownDays = 7
    /// Days a bug has been active before medium-severity fixes are the target.
    public static let mediumSeverityAfterDays = 14
    /// Days a bug has been active before high-severity fixes are the target.
    public static let highSeverityAfterDays = 42
    /// An applied daily fix may come back as a rerun once this many days have passed since it was
    /// applied, and only when no unseen fix is left.
    public static let rerunAfterDays = 90
    /// When a bug's unseen daily fixes come down to this many, the day's card says so, once.
    public static let unseenFixesLowWarning = 7
    /// A quick fix left unmarked this many days after the crash expires: it is no longer pending,
    /// and the history shows it as expired.
    public static let quickFixExpiryDays = 7
    /// Weekly "system overhaul" fixes are assigned on Mondays once the bug has been active this long.
    public static let weeklyOverhaulAfterDays = 14

    // Bug lifecycle
    /// An active bug must have been active this long before it can become stable.
    public static let stableMinimumActiveDays = 28
    /// This many consecutive weekly diagnostics must rate the bug quiet to call it stable.
    public static let stableQuietWeeks = 3
    /// And no crash about it for this many days.
    public static let stableCrashFreeDays = 21
    /// A stable bug is retested (given a fix again) every this many days.
    public static let retestIntervalDays = 30
    /// A stable bug with no crash and no present or loud rating for this long is resolved.
    public static let resolvedAfterStableDays = 90

    // Weekly diagnostic
    /// The diagnostic opens at this local hour on Sunday and stays open through Monday.
    public static let diagnosticOpensSundayHour = 18
    public static let diagnosticMaxBugs = 3

    // Streak
    /// Streak freezes per week; the week for freezes starts on Sunday.
    public static let streakFreezesPerWeek = 1

    // Reflections and notes
    /// Longest reflection, crash note or Markdown document accepted, in UTF-8 bytes.
    public static let maxMarkdownBytes = 64 * 1024
}
