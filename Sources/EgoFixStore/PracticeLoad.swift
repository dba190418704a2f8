import EgoFixCore
import Foundation

/// A whole practice to write at once (the demo history): the same checks and the same single
/// transaction as an import, so a generated history goes through the path a user's file does.
public struct PracticeRecords: Sendable {
    public var profile: UserProfile
    public var bugs: [Bug]
    public var fixes: [Fix]
    public var education: [MicroEducation]
    public var completions: [FixCompletion]
    public var crashes: [Crash]
    public var versions: [VersionEntry]
    public var events: [AnalyticsEvent]
    public var diagnostics: [WeeklyDiagnostic]
    public var patterns: [DetectedPattern]

    public init(profile: UserProfile, bugs: [Bug], fixes: [Fix], education: [MicroEducation], completions: [FixCompletion],
                crashes: [Crash], versions: [VersionEntry], events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic],
                patterns: [DetectedPattern]) {
        self.profile = profile
        self.bugs = bugs
        self.fixes = fixes
        self.education = education
        self.completions = completions
        self.crashes = crashes
        self.versions = versions
        self.events = events
        self.diagnostics = diagnostics
        self.patterns = patterns
    }
}

extension SQLiteStore {
    /// Writes a practice into a store that holds no user records yet (refused otherwise).
    @discardableResult
    public func loadPractice(_ p: PracticeRecords) throws -> ImportReport {
        let snapshot = Snapshot(formatVersion: Snapshot.currentFormat, bugs: p.bugs, fixes: p.fixes, completions: p.completions,
                                crashes: p.crashes, users: [p.profile], versions: p.versions, events: p.events,
                                patterns: p.patterns, diagnostics: p.diagnostics, education: p.education)
        let data: Data
        do { data = try Snapshot.encoder().encode(snapshot) } catch {
            throw StoreError.database(operation: "loading the practice", reason: "a record does not encode: \(error)")
        }
        return try importJSON(data, replace: false, backupPath: nil)
    }
}
