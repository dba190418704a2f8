import Foundation

/// Events are stamped with the weekday and hour of the user's time zone when they are made: the
/// detectors read those, never the zone again.
extension AnalyticsEvent {
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

    /// The local day the event was made on, in the zone it was made in, wherever it is read: of
    /// the UTC date of its instant, the day before, the day itself and the day after, the one
    /// with the event's weekday (a zone is at most 12 hours behind UTC and 14 ahead, so the local
    /// date is one of the three, and the three weekdays differ). An event whose weekday is not
    /// 1 to 7 is read in `calendar`.
    public func localDay(or calendar: Calendar) -> LocalDay {
        guard (1...7).contains(dayOfWeek) else { return LocalDay(timestamp, calendar: calendar) }
        let utc = LocalDay(ordinal: Int((timestamp.timeIntervalSince1970 / 86_400).rounded(.down)))
        switch LocalDay.mod(dayOfWeek - utc.weekday, 7) {
        case 0: return utc
        case 1: return utc.adding(days: 1)
        case 6: return utc.adding(days: -1)
        default: return LocalDay(timestamp, calendar: calendar)
        }
    }
}
