import EgoFixCore
import Foundation

/// What a build did beyond the files: share cards drawn or reused, and each card's key.
public struct SiteBuildStats: Sendable {
    public var cardsDrawn = 0
    public var cardsReused = 0
    /// The key of each share card PNG, by path: the same key means the same bytes.
    public var cardKeys: [String: String] = [:]
    /// The user's week and version notes that no page shows, one line each naming the file and
    /// why, in file order: for the build to report (the files stay where they are).
    public var notesNotOnTheSite: [String] = []

    public init() {}
}
