import Foundation

/// A timed fix's timer, run by `egofix timer`: its completion is kept as a `timerCompleted` event
/// naming the fix, so the outcome marked afterwards records the timer as done without being told.
public struct TimerService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// Records that the timer of `fix` ran to the end at `now`.
    public func recordCompleted(_ fix: Fix, at now: Date) async throws {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        try await EventRecorder(repos: repos, calendar: calendar)
            .record(.timerCompleted, userId: user.id, bugId: fix.bugId, fixId: fix.id, at: now)
    }

    /// Whether the timer of `fix` ran to the end since `completion` was assigned.
    public func completed(_ completion: FixCompletion, fix: Fix) async throws -> Bool {
        TimerService.completed(in: try await repos.events.getSince(completion.assignedAt, orOfTypes: []),
                               completion: completion, fix: fix)
    }

    /// `completed`, over events at hand.
    public static func completed(in events: [AnalyticsEvent], completion: FixCompletion, fix: Fix) -> Bool {
        events.contains {
            $0.deletedAt == nil && $0.eventType == .timerCompleted && $0.fixId == fix.id && $0.timestamp >= completion.assignedAt
        }
    }
}
