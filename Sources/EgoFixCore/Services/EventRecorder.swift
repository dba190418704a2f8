import Foundation

/// Records events stamped in the user's time zone.
public struct EventRecorder: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public func record(_ type: EventType, userId: UUID, bugId: UUID? = nil, fixId: UUID? = nil,
                       context: EventContext? = nil, at now: Date) async throws {
        try await repos.events.save(AnalyticsEvent.make(userId: userId, type: type, bugId: bugId, fixId: fixId,
                                                        context: context, at: now, calendar: calendar))
    }
}
