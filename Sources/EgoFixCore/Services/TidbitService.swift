import Foundation

/// The tidbit shown after an outcome or a crash: one of the bug's tidbits for that moment, never
/// the one shown last when there is another, and recorded as the last one shown.
public struct TidbitService: Sendable {
    public let repos: Repositories

    public init(repos: Repositories) {
        self.repos = repos
    }

    /// The tidbit to show about `bug` for `trigger`, drawn by the user's id and `key` (what the
    /// moment is: a completion's id, a crash's instant), saved as the profile's last one shown.
    /// Nil when the bug has none for the trigger, or there is no profile.
    public func show(about bug: Bug, trigger: EducationTrigger, key: String) async throws -> MicroEducation? {
        guard var user = try await repos.users.get() else { return nil }
        let pool = try await repos.education.getFor(bugSlug: bug.slug, trigger: trigger)
        guard let t = MicroEducationPicker.pick(from: pool, bugSlug: bug.slug, trigger: trigger, lastShownId: user.lastTidbitId,
                                                seed: StableHash.fnv1a([user.id.uuidString, key])) else { return nil }
        user.lastTidbitId = t.id
        try await repos.users.save(user)
        return t
    }
}
