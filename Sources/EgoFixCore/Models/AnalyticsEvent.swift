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

    /// An event stamped with weekday and hour in the calendar's time zone.
    public static func make(id: UUID = UUID(), userId: UUID, type: EventType, bugId: UUID? = nil,
                            fixId: UUID? = nil, context: EventContext? = nil, at instant: Date,
                            calendar: Calendar) -> AnalyticsEvent {
        make(id: id, userId: userId, type: type, bugId: bugId, fixId: fixId, context: context, at: instant,
             local: LocalDay.local(instant, calendar: calendar), calendar: calendar)
    }

    /// `make`, with `LocalDay.local(instant, calendar:)` already at hand.
    static func make(id: UUID, userId: UUID, type: EventType, bugId: UUID?, fixId: UUID?, context: EventContext?,
                     at instant: Date, local: (day: Int, second: Double)?, calendar: Calendar) -> AnalyticsEvent {
        let weekday: Int, hour: Int
        if let local {
            // The calendar's answer, without its component machinery (see LocalDay.local).
            weekday = LocalDay(ordinal: local.day).weekday
            hour = min(23, max(0, Int(local.second) / 3600))
        } else {
            let c = calendar.dateComponents([.weekday, .hour], from: instant)
            weekday = c.weekday ?? 1
            hour = c.hour ?? 0
        }
        return AnalyticsEvent(id: id, userId: userId, eventType: type, bugId: bugId, fixId: fixId,
                              context: context, dayOfWeek: weekday, hourOfDay: hour, timestamp: instant)
    }
}
