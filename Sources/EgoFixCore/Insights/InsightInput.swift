import Foundation

/// Everything the insights read, as plain values. The calendar decides what a day is.
/// Soft-deleted records are ignored everywhere.
public struct InsightInput: Sendable {
    public var bugs: [Bug]
    public var fixes: [Fix]
    public var completions: [FixCompletion]
    public var crashes: [Crash]
    public var versions: [VersionEntry]
    public var events: [AnalyticsEvent]
    public var diagnostics: [WeeklyDiagnostic]
    public var calendar: Calendar

    public init(bugs: [Bug] = [], fixes: [Fix] = [], completions: [FixCompletion] = [], crashes: [Crash] = [],
                versions: [VersionEntry] = [], events: [AnalyticsEvent] = [], diagnostics: [WeeklyDiagnostic] = [],
                calendar: Calendar) {
        self.bugs = bugs
        self.fixes = fixes
        self.completions = completions
        self.crashes = crashes
        self.versions = versions
        self.events = events
        self.diagnostics = diagnostics
        self.calendar = calendar
    }

    /// The records not deleted, in time order, ties by id (records usually come in that order
    /// with none deleted: then the array itself).
    var liveCompletions: [FixCompletion] {
        RecordOrder.sorted(completions, keep: { $0.deletedAt == nil }, at: { $0.completedAt ?? $0.assignedAt }, id: { $0.id })
    }

    var liveCrashes: [Crash] {
        RecordOrder.sorted(crashes, keep: { $0.deletedAt == nil }, at: { $0.crashedAt }, id: { $0.id })
    }

    var liveEvents: [AnalyticsEvent] {
        RecordOrder.sorted(events, keep: { $0.deletedAt == nil }, at: { $0.timestamp }, id: { $0.id })
    }

    var liveDiagnostics: [WeeklyDiagnostic] {
        RecordOrder.sorted(diagnostics, keep: { $0.deletedAt == nil }, at: { $0.weekStarting }, id: { $0.id })
    }

    func fixIndex() -> [UUID: Fix] {
        var out: [UUID: Fix] = [:]
        for f in fixes { out[f.id] = f }
        return out
    }

    func bugIndex() -> [UUID: Bug] {
        var out: [UUID: Bug] = [:]
        for b in bugs { out[b.id] = b }
        return out
    }
}

/// The version in effect at any instant, from the changelog's version bumps.
///
/// A bump recorded at instant t takes effect after t: the fix whose application completed a
/// version (stamped with the same instant as its bump) still belongs to the version it completed.
public struct VersionTimeline: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public let version: String
        public let changeType: VersionChangeType
        public let at: Date
        public let entryId: UUID
    }

    /// Major and minor updates, oldest first.
    public let steps: [Step]
    public let initial: String

    public init(versions: [VersionEntry], initial: String = Version.initial.description) {
        self.initial = initial
        steps = RecordOrder.sorted(versions, keep: { $0.deletedAt == nil && ($0.changeType == .majorUpdate || $0.changeType == .minorUpdate) },
                                   at: { $0.createdAt }, id: { $0.id })
            .map { Step(version: $0.version, changeType: $0.changeType, at: $0.createdAt, entryId: $0.id) }
    }

    /// Index of the last step strictly before `instant`, or nil when none is.
    public func stepIndex(before instant: Date) -> Int? {
        var lo = 0, hi = steps.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if steps[mid].at < instant { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// The version running at `instant` (bumps at exactly `instant` not yet counted).
    public func version(at instant: Date) -> String {
        stepIndex(before: instant).map { steps[$0].version } ?? initial
    }

    /// Every version that existed: the initial one, then each bump.
    public var versions: [String] { [initial] + steps.map(\.version) }
}

/// Plain-English helpers for the insight copy.
enum InsightCopy {
    /// "one crash", "two crashes", "12 crashes"
    static func counted(_ n: Int, _ singular: String, _ plural: String) -> String {
        PatternCopy.word(n) + " " + (n == 1 ? singular : plural)
    }
}
