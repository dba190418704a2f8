import Foundation

extension Practice {
    /// Every record the repositories hold (the site and the history read the whole practice).
    public static func load(_ repos: Repositories) async throws -> Practice {
        Practice(profile: try await repos.users.get(), bugs: try await repos.bugs.getAll(), fixes: try await repos.fixes.getAll(),
                 completions: try await repos.completions.getAll(), crashes: try await repos.crashes.getAll(),
                 versions: try await repos.versions.getAll(), events: try await repos.events.getAll(),
                 diagnostics: try await repos.diagnostics.getAll(), patterns: try await repos.patterns.getAll(),
                 education: try await repos.education.getAll())
    }
}
