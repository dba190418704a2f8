import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a build did to the output folder. Paths are relative and sorted.
public struct SiteWriteReport: Sendable, Equatable {
    /// New files and files whose bytes changed.
    public var written: [String]
    /// Files with the same bytes as before; they keep their inode and modification time.
    public var unchanged: [String]
    /// Files of the previous site that the new one does not have.
    public var removed: [String]
    /// The folder beside the site still holding the previous one, when it could not be removed
    /// (its files belong to someone else); nil when it went.
    public var previousLeftAt: String?

    public init(written: [String] = [], unchanged: [String] = [], removed: [String] = []) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
    }

    /// "12 written, 140 unchanged, 1 removed"
    public var summary: String {
        "\(written.count) written, \(unchanged.count) unchanged, \(removed.count) removed"
    }
}
