import Foundation
import GRDB
import EgoFixCore

/// What `importJSON` wrote.
public struct ImportReport: Equatable, Sendable, CustomStringConvertible {
    public struct TableCount: Equatable, Sendable {
        public let table: String
        public let count: Int
    }

    /// Records written per table, in a fixed table order.
    public let tables: [TableCount]
    /// True when the store held a practice that this import replaced.
    public let replaced: Bool
    /// Where the copy of the previous store was written, if asked.
    public let backupPath: String?

    public func count(_ table: String) -> Int { tables.first { $0.table == table }?.count ?? 0 }
    public var total: Int { tables.reduce(0) { $0 + $1.count } }

    /// "5 bugs, 270 fixes, 12 completions, 1 profile, ...". Stored patterns only when there are
    /// some: patterns are found later, by `egofix patterns` and the build, and "0 patterns" after
    /// a demo that plants one of each read as if none were there.
    public var summary: String {
        tables.filter { $0.count > 0 || $0.table != DetectedPattern.table }
            .map { Snapshot.phrase($0.count, $0.table) }.joined(separator: ", ")
    }

    /// "imported 5 bugs, 270 fixes, ... (replaced the previous practice; backup at /x.sqlite)"
    public var description: String {
        var s = "imported " + summary
        var notes: [String] = []
        if replaced { notes.append("replaced the previous practice") }
        if let backupPath { notes.append("backup at \(backupPath)") }
        if !notes.isEmpty { s += " (" + notes.joined(separator: "; ") + ")" }
        return s
    }
}
