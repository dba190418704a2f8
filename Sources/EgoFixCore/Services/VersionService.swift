import Foundation

public struct VersionService: Sendable {
    public let repos: Repositories

    public init(repos: Repositories) { self.repos = repos }

    /// Called after a fix was marked applied: bumps the version when the count reaches a multiple of 7.
    @discardableResult
    public func recordApplied(at now: Date) async throws -> VersionEntry? {
        guard var user = try await repos.users.get() else { throw PracticeError.noProfile }
        let applied = try await repos.completions.count(outcome: .applied)
        let entries = VersionRules.entriesAfterApplying(appliedCountBefore: applied - 1, userId: user.id, at: now)
        for e in entries { try await repos.versions.save(e) }
        let v = VersionRules.version(forAppliedCount: applied).description
        if user.currentVersion != v {
            user.currentVersion = v
            try await repos.users.save(user)
        }
        return entries.first
    }
}
