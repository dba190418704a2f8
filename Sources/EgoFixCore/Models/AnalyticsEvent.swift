import Foundation

public struct AnalyticsEvent: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let userId: UUID
    public let eventType: EventType
    public let bugId: UUID?
    public let fixId: UUID?
    public let context: EventContext?
    public let dayOfWeek: Int      // 1-7, Sunday = 1, in the user's time zone
    public let hourOfDay: Int      // 0-23, in the user's time zone
    public let timestamp: Date
    public var deletedAt: Date?
    public var syncToken: String?

    public init(id: UUID = UUID(), userId: UUID, eventType: EventType, bugId: UUID? = nil,
                fixId: UUID? = nil, context: EventContext? = nil, dayOfWeek: Int, hourOfDay: Int,
                timestamp: Date, deletedAt: Date? = nil, syncToken: String? = nil) {
        self.id = id
        self.userId = userId
        self.eventType = eventType
        self.bugId = bugId
        self.fixId = fixId
        self.context = context
        self.dayOfWeek = dayOfWeek
        self.hourOfDay = hourOfDay
        self.timestamp = timestamp
        self.deletedAt = deletedAt
        self.syncToken = syncToken
    }
}
