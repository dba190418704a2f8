import Foundation

/// What `egofix bug activate`, `deactivate` and `primary` change: which bugs get fixes, and which
/// one a crash is about unless named. The lifecycle's own rules are `BugLifecycle`'s.
public struct BugService: Sendable {
    public let repos: Repositories

    public init(repos: Repositories) {
        self.repos = repos
    }

    public enum Activation: Equatable, Sendable {
        /// Active already: nothing changed.
        case alreadyActive
        /// Activated now; `again` when it had been active before (its severity restarts at low).
        case activated(again: Bool)
    }

    /// Starts the bug's fixes (`BugLifecycle.activate`: its clock starts again).
    public func activate(_ bug: Bug, at now: Date) async throws -> Activation {
        guard !bug.isActive else { return .alreadyActive }
        try await repos.bugs.save(BugLifecycle.activate(bug, at: now))
        return .activated(again: bug.activatedAt != nil)
    }

    /// Stops the bug's fixes; its history stays. False when it was not active (nothing changed).
    public func deactivate(_ bug: Bug, at now: Date) async throws -> Bool {
        guard bug.isActive else { return false }
        try await repos.bugs.save(BugLifecycle.deactivate(bug, at: now))
        return true
    }

    /// What `makePrimary` did.
    public struct PrimaryChange: Equatable, Sendable {
        /// The primary bug before (the same bug when it only needed activating), if any.
        public let before: Bug?
        /// Whether the bug was activated too (a primary bug gets fixes), and how.
        public let activation: Activation
        /// Primary and active already: nothing changed.
        public var unchanged: Bool { before?.id == after.id && activation == .alreadyActive }
        let after: Bug
    }

    /// Makes the bug the primary one (what a crash is about unless named, first in the day's
    /// turn), activating it when it is not active. The earlier primary bug stays active.
    public func makePrimary(_ bug: Bug, at now: Date) async throws -> PrimaryChange {
        guard var user = try await repos.users.get() else { throw PracticeError.noProfile }
        let before: Bug? = if let p = user.primaryBugId { try await repos.bugs.getById(p) } else { nil }
        if user.primaryBugId == bug.id && bug.isActive { return PrimaryChange(before: before, activation: .alreadyActive, after: bug) }
        let activation = try await activate(bug, at: now)
        user.primaryBugId = bug.id
        try await repos.users.save(user)
        return PrimaryChange(before: before, activation: activation, after: bug)
    }

    /// Whether the bug is the primary one.
    public func isPrimary(_ bug: Bug) async throws -> Bool {
        try await repos.users.get()?.primaryBugId == bug.id
    }
}
