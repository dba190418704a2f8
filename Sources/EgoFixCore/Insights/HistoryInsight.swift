import Foundation

/// One bug's outcomes, and the share of marked fixes that were applied.
public struct BugCompletionRate: Sendable, Equatable {
    public let bugId: UUID
    public let title: String
    public let color: String
    public var applied = 0
    public var skipped = 0
    public var failed = 0
    /// Assigned and never marked.
    public var unmarked = 0

    public var marked: Int { applied + skipped + failed }
    /// applied ÷ (applied + skipped + failed); nil when nothing was marked.
    public var completionRate: Double? { marked == 0 ? nil : Double(applied) / Double(marked) }
    /// "5 of 8 applied (63%)", or "nothing marked".
    public var line: String {
        guard let r = completionRate else { return "nothing marked" }
        return "\(applied) of \(marked) applied (\(PatternCopy.percent(r)))"
    }
}

/// Completion rates by bug over the whole practice, by bug title: what `egofix history --json`
/// gives. (The history page's tables, overall and by version, are the site's: `PageContext.history`.)
public struct HistoryInsight: Sendable, Equatable {
    public let overall: [BugCompletionRate]

    public static func make(_ practice: Practice) -> HistoryInsight {
        let fixes = practice.fixIndex(), bugs = practice.bugIndex()
        var overall: [UUID: BugCompletionRate] = [:]
        for c in practice.liveCompletions {
            guard let bug = fixes[c.fixId]?.bugId, bugs[bug]?.deletedAt == nil else { continue }
            var r = overall[bug] ?? BugCompletionRate(bugId: bug, title: bugs[bug]?.title ?? "Unnamed bug", color: bugs[bug]?.color ?? "#8a8f98")
            switch c.outcome {
            case .applied: r.applied += 1
            case .skipped: r.skipped += 1
            case .failed: r.failed += 1
            case .pending: r.unmarked += 1
            }
            overall[bug] = r
        }
        return HistoryInsight(overall: overall.values.sorted { $0.title != $1.title ? $0.title < $1.title : $0.bugId.uuidString < $1.bugId.uuidString })
    }
}
