import EgoFixCore
import Foundation

/// What a build did: files, and how many were written, kept and removed; share cards; notes no
/// page shows; the time each step took.
public struct SiteBuildResult: Sendable {
    public var files = 0
    public var written = 0
    public var unchanged = 0
    public var removed = 0
    public var cardsDrawn = 0
    public var cardsReused = 0
    /// See `SiteBuildStats.notesNotOnTheSite`.
    public var notesNotOnTheSite: [String] = []
    /// The folder beside the site still holding the previous one, which could not be removed
    /// (`SiteWriteReport.previousLeftAt`).
    public var previousLeftAt: String?
    /// Each step run, with its seconds.
    public var stepTimes: [(step: String, seconds: Double)] = []
}
