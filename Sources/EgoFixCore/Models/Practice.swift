import Foundation

/// One user's whole practice: every record a store holds, as plain values. The store loads and
/// writes it, the demo generates it, the insights and the site read it.
public struct Practice: Sendable, Equatable {
    /// Nil before `egofix init` (an empty store).
    public var profile: UserProfile?
    public var bugs: [Bug]
    public var fixes: [Fix]
    public var completions: [FixCompletion]
    public var crashes: [Crash]
    public var versions: [VersionEntry]
    public var events: [AnalyticsEvent]
    public var diagnostics: [WeeklyDiagnostic]
    /// What the detectors found, strongest first.
    public var patterns: [DetectedPattern]
    public var education: [MicroEducation]

    public init(profile: UserProfile? = nil, bugs: [Bug] = [], fixes: [Fix] = [], completions: [FixCompletion] = [],
                crashes: [Crash] = [], versions: [VersionEntry] = [], events: [AnalyticsEvent] = [],
                diagnostics: [WeeklyDiagnostic] = [], patterns: [DetectedPattern] = [], education: [MicroEducation] = []) {
        self.profile = profile
        self.bugs = bugs
        self.fixes = fixes
        self.completions = completions
        self.crashes = crashes
        self.versions = versions
        self.events = events
        self.diagnostics = diagnostics
        self.patterns = patterns
        self.education = education
    }

    /// The fixes the live fixShared events name, each once, in the order they were first shared:
    /// the fixes the site draws share cards for.
    public var sharedFixIds: [UUID] { Practice.sharedFixIds(in: events) }

    /// The shared fixes with their bugs, in `sharedFixIds` order (those the catalogue still has).
    public static func sharedFixes(events: [AnalyticsEvent], fixes: [Fix], bugs: [Bug]) -> [(fix: Fix, bug: Bug)] {
        var fixById: [UUID: Fix] = [:], bugById: [UUID: Bug] = [:]
        for f in fixes { fixById[f.id] = f }
        for b in bugs { bugById[b.id] = b }
        return sharedFixIds(in: events).compactMap { id in
            guard let fix = fixById[id], let bug = bugById[fix.bugId] else { return nil }
            return (fix, bug)
        }
    }

    /// `sharedFixIds` of these events.
    public static func sharedFixIds(in events: [AnalyticsEvent]) -> [UUID] {
        var ids: [UUID] = []
        var seen = Set<UUID>()
        for e in events where e.deletedAt == nil && e.eventType == .fixShared {
            if let f = e.fixId, seen.insert(f).inserted { ids.append(f) }
        }
        return ids
    }
}
