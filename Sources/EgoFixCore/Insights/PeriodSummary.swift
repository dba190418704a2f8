import Foundation

/// One bug's line in a diagnostic, with names for the page.
public struct RatingLine: Sendable, Equatable {
    public let bugId: UUID
    public let title: String
    public let intensity: BugIntensity
    public let context: EventContext?
}

public struct DiagnosticSummary: Sendable, Equatable {
    public let weekStarting: LocalDay
    public let completedAt: Date
    public let ratings: [RatingLine]
}

/// One bug's numbers in a period.
public struct BugPeriodLine: Sendable, Equatable {
    public let bugId: UUID
    public let title: String
    public let color: String
    public var applied = 0
    public var skipped = 0
    public var failed = 0
    public var crashes = 0
    public var ratings: [BugIntensity] = []
}

/// A week, month, quarter or year in numbers: the report pages' data.
public struct PeriodSummary: Sendable, Equatable {
    public let period: ReportPeriod
    public let applied: Int
    public let skipped: Int
    public let failed: Int
    public let unmarked: Int
    public let crashes: Int
    public let reboots: Int
    public let reflections: Int
    /// Days with any engagement.
    public let activeDays: Int
    /// The streak as it stood when the period began, when it ended, and the highest it reached inside.
    public let streakAtStart: Int
    public let streakAtEnd: Int
    public let longestStreak: Int
    public let versionAtStart: String
    public let versionAtEnd: String
    /// Diagnostics for weeks starting inside the period, oldest first.
    public let diagnostics: [DiagnosticSummary]
    /// Bugs with anything in the period, by title.
    public let bugs: [BugPeriodLine]

    public var isEmpty: Bool { applied + skipped + failed + unmarked + crashes + reboots == 0 && diagnostics.isEmpty && activeDays == 0 }

    /// "1.2 → 1.4", or "1.3" when it did not change.
    public var versionRange: String { versionAtStart == versionAtEnd ? versionAtStart : versionAtStart + " → " + versionAtEnd }
}
