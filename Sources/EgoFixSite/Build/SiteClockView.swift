import EgoFixCore
import Foundation

/// What the pages show of the clock: the local date in the user's time zone, and whether the
/// weekly diagnostic's window is open (a week page says "Open now" from Sunday 18:00). Pages read
/// the build's instant otherwise only through its local day (`SiteIndex.today`: the dashboard's streak and
/// pending fix, "not yet" days, the footer's "as of", the graphs' last day, the detectors' window
/// and checkpoints, which start at midnight), so two builds on one local day from the same records
/// make the same pages, and the change check holds this rather than the instant: a second
/// `egofix build` a moment after the first finds nothing to do.
///
/// (The detectors also leave out records stamped after the instant itself; a store holds such a
/// record only when it was written with `--now` later than the clock it is built with.)
public struct SiteClockView: Sendable, Equatable {
    /// The local date and the zone, as the change check holds them.
    public let text: String

    public init(now: Date, calendar: Calendar) {
        let window = DiagnosticSchedule.reviewedWeek(now: now, calendar: calendar) == nil ? "" : ", diagnostic open"
        text = "day \(LocalDay(now, calendar: calendar)) in \(calendar.timeZone.identifier)" + window
    }
}
