import EgoFixCore
import Foundation

/// A practice to build a site from: its records, the clock and the calendar.
public struct SitePractice: Sendable {
    public var data: Practice
    public var now: Date
    public var calendar: Calendar
    /// See `SiteOptions.patternsAreDetection`.
    public var patternsAreDetection: Bool

    public init(data: Practice, now: Date, calendar: Calendar, patternsAreDetection: Bool = false) {
        self.data = data
        self.now = now
        self.calendar = calendar
        self.patternsAreDetection = patternsAreDetection
    }
}
