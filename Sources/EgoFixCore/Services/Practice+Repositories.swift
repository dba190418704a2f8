import Foundation

extension Practice {
    /// Every record the repositories hold (the site and the history read the whole practice).
    /// `onShared` is called with each shared fix and its bug as soon as the catalogue and the
    /// events are read, before the rest: the site starts drawing their share cards on another core
    /// while the practice loads.
    public static func load(_ repos: Repositories, onShared: ((Fix, Bug) -> Void)? = nil) async throws -> Practice {
        let profile = try await repos.users.get()
        let bugs = try await repos.bugs.getAll(), fixes = try await repos.fixes.getAll()
        let events = try await repos.events.getAll()
        if let onShared {
            for shared in sharedFixes(events: events, fixes: fixes, bugs: bugs) { onShared(shared.fix, shared.bug) }
        }
        return Practice(profile: profile, bugs: bugs, fixes: fixes, completions: try await repos.completions.getAll(),
                        crashes: try await repos.crashes.getAll(), versions: try await repos.versions.getAll(), events: events,
                        diagnostics: try await repos.diagnostics.getAll(), patterns: try await repos.patterns.getAll(),
                        education: try await repos.education.getAll())
    }
}
