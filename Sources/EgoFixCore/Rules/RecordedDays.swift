import Foundation

/// The local day a record counted on where it was recorded. The event made with it says (its
/// weekday; see `AnalyticsEvent.localDay`), else its instant is read in the calendar. A fix
/// applied and a crash logged in Tokyo stay on Tokyo's days when the practice is read in
/// Los Angeles, as the openings of those mornings do: read in the reader's zone, an opening and
/// the outcome marked a minute later fell on two days. Only the instants whose recorded day
/// differs from the calendar's are kept, so a practice lived in one zone keeps none.
///
/// Two machines in two zones can act in the same second (New York still on Monday, Sydney
/// already on Tuesday): at such an instant each record finds its day from its own event, the one
/// about the same fix (a completion), the same bug (a crash) or of its kind (a reboot, a
/// diagnostic), made on the same machine (the same syncToken, once both have synced), not from
/// whichever event was read last.
public struct RecordedDays: Sendable {
    /// What an event at an instant with two days was about, and the day it was made on.
    struct Stamp: Sendable {
        let type: EventType
        let fixId: UUID?
        let bugId: UUID?
        let token: String?
        let day: LocalDay
    }

    let converter: LocalDay.Converter
    let calendar: Calendar
    let moved: [Date: LocalDay]
    /// Instants at which live events were made on different local days.
    let split: [Date: [Stamp]]
    /// Instants of live events made at another hour of the day than the calendar's (in another
    /// zone); none for a practice lived in one zone.
    let otherHour: Set<Date>

    public init(events: [AnalyticsEvent], calendar: Calendar) {
        let converter = LocalDay.Converter(calendar)
        var moved: [Date: LocalDay] = [:], otherHour: Set<Date> = []
        for e in events where e.deletedAt == nil {
            let recorded = e.localDay(or: calendar)
            if recorded != converter.day(e.timestamp) { moved[e.timestamp] = recorded }
            if e.hourOfDay != converter.hour(e.timestamp) { otherHour.insert(e.timestamp) }
        }
        var split: [Date: [Stamp]] = [:]
        if !moved.isEmpty {
            // Every live event at an instant where one moved, in the events' order.
            var at: [Date: [Stamp]] = [:]
            for e in events where e.deletedAt == nil && moved[e.timestamp] != nil {
                at[e.timestamp, default: []].append(Stamp(type: e.eventType, fixId: e.fixId, bugId: e.bugId, token: e.syncToken,
                                                          day: e.localDay(or: calendar)))
            }
            for (instant, stamps) in at where stamps.contains(where: { $0.day != stamps[0].day }) {
                split[instant] = stamps
            }
        }
        self.converter = converter
        self.calendar = calendar
        self.moved = moved
        self.split = split
        self.otherHour = otherHour
    }

    /// Whether the events at `instant` were made at the hour the calendar gives it: the clock
    /// time read in the calendar's zone is the one that was on the clock where it was made.
    public func keepsItsHour(_ instant: Date) -> Bool { otherHour.isEmpty || !otherHour.contains(instant) }

    /// The day `instant` counted on, for a record with no event of its own to tell it apart.
    public func day(_ instant: Date) -> LocalDay {
        moved.isEmpty ? converter.day(instant) : (moved[instant] ?? converter.day(instant))
    }

    /// The practice's first day: the day its profile was made, where it was made (`egofix init`
    /// opens the first fix at that instant, and its events say the day). The diagnostic's
    /// schedule, the site's pages, `history` and the diagnostic's summary all start from it.
    public func practiceStart(of profile: UserProfile) -> LocalDay { day(profile.createdAt) }

    /// The day an event was made on, where it was made.
    public func day(of event: AnalyticsEvent) -> LocalDay {
        moved.isEmpty ? converter.day(event.timestamp) : event.localDay(or: calendar)
    }

    /// The day a completion is listed and counted on (`FixCompletion.shownDay`), read from the
    /// events about its fix.
    public func day(of completion: FixCompletion) -> LocalDay {
        completion.shownDay { day($0, token: completion.syncToken) { $0.fixId == completion.fixId } }
    }

    /// The day a crash was logged on, read from the crash event about its bug.
    public func day(of crash: Crash) -> LocalDay {
        day(crash.crashedAt, token: crash.syncToken) { $0.type == .crashLogged && $0.bugId == crash.bugId }
    }

    /// The day of a record made with an event of `type` and no fix or bug (a reboot, a diagnostic);
    /// `token`: the record's syncToken.
    public func day(_ instant: Date, madeWith type: EventType, token: String?) -> LocalDay {
        day(instant, token: token) { $0.type == type }
    }

    /// The day of the event at `instant` that `about` picks, made on the machine of `token` when
    /// one was, else the first, when events at that instant were made on two days; else
    /// `day(instant)`.
    func day(_ instant: Date, token: String?, about: (Stamp) -> Bool) -> LocalDay {
        if !split.isEmpty, let stamps = split[instant] {
            let mine = stamps.filter(about)
            if let s = mine.first(where: { token != nil && $0.token == token }) ?? mine.first { return s.day }
        }
        return day(instant)
    }
}
