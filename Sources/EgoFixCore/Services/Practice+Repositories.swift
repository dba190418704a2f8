import Foundation

extension Practice {
    /// Every record the repositories hold (the site and the history read the whole practice).
    /// `onShared` is called with each shared fix and its bug once the tables are read, before the
    /// practice is put together: the site starts drawing their share cards on another core.
    /// `events`, when given, is where the events come from instead of `repos` (a store reads them
    /// on a second connection beside the rest, `SQLiteStore.readPractice`); they are asked for last.
    public static func load(_ repos: Repositories, onShared: ((Fix, Bug) -> Void)? = nil,
                            events readEvents: (() async throws -> [AnalyticsEvent])? = nil) async throws -> Practice {
        let profile = try await repos.users.get()
        let bugs = try await repos.bugs.getAll(), fixes = try await repos.fixes.getAll()
        let completions = try await repos.completions.getAll(), crashes = try await repos.crashes.getAll()
        let versions = try await repos.versions.getAll(), diagnostics = try await repos.diagnostics.getAll()
        let patterns = try await repos.patterns.getAll(), education = try await repos.education.getAll()
        let events = if let readEvents { try await readEvents() } else { try await repos.events.getAll() }
        if let onShared {
            for shared in sharedFixes(events: events, fixes: fixes, bugs: bugs) { onShared(shared.fix, shared.bug) }
        }
        return Practice(profile: profile, bugs: bugs, fixes: fixes, completions: completions, crashes: crashes, versions: versions,
                        events: events, diagnostics: diagnostics, patterns: patterns, education: education)
    }
}
