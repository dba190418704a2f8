import Foundation

/// The local day an instant counted on where it was recorded. An event made at that instant
/// says (its weekday; see `AnalyticsEvent.localDay`), else the instant is read in the calendar.
/// A fix applied and a crash logged in Tokyo stay on Tokyo's days when the practice is read in
/// Los Angeles, as the openings of those mornings do: read in the reader's zone, an opening and
/// the outcome marked a minute later fell on two days. Only the instants whose recorded day
/// differs from the calendar's are kept, so a practice lived in one zone keeps none.
public struct RecordedDays: Sendable {
    let converter: LocalDay.Converter
    let moved: [Date: LocalDay]

    public init(events: [AnalyticsEvent], calendar: Calendar) {
        let converter = LocalDay.Converter(calendar)
        var moved: [Date: LocalDay] = [:]
        for e in events where e.deletedAt == nil {
            let recorded = e.localDay(or: calendar)
            if recorded != converter.day(e.timestamp) { moved[e.timestamp] = recorded }
        }
        self.converter = converter
        self.moved = moved
    }

    /// The day `instant` counted on.
    public func day(_ instant: Date) -> LocalDay {
        moved.isEmpty ? converter.day(instant) : (moved[instant] ?? converter.day(instant))
    }
}
