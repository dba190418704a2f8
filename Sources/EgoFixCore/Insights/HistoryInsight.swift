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

/// The completions that fell in one version: the version running when each was marked
/// (or assigned, for an unmarked one).
public struct VersionHistoryGroup: Sendable, Equatable {
    public let version: String
    /// When this version began; nil for the first.
    public let startedAt: Date?
    /// When the next one began; nil for the version running now.
    public let endedAt: Date?
    /// By bug title.
    public let bugs: [BugCompletionRate]

    public var applied: Int { bugs.reduce(0) { $0 + $1.applied } }
    public var skipped: Int { bugs.reduce(0) { $0 + $1.skipped } }
    public var failed: Int { bugs.reduce(0) { $0 + $1.failed } }
    public var unmarked: Int { bugs.reduce(0) { $0 + $1.unmarked } }
}

/// The history page: completion rates by bug, overall and grouped by version, newest version first.
public struct HistoryInsight: Sendable, Equatable {
    public let groups: [VersionHistoryGroup]
    public let overall: [BugCompletionRate]

    public static func make(_ practice: Practice) -> HistoryInsight {
        let timeline = VersionTimeline(versions: practice.versions)
        let fixes = practice.fixIndex(), bugs = practice.bugIndex()
        let versions = timeline.versions
        var perVersion = [[UUID: BugCompletionRate]](repeating: [:], count: versions.count)
        var overall: [UUID: BugCompletionRate] = [:]
        func blank(_ id: UUID) -> BugCompletionRate {
            BugCompletionRate(bugId: id, title: bugs[id]?.title ?? "Unnamed bug", color: bugs[id]?.color ?? "#8a8f98")
        }
        func add(_ c: FixCompletion, to r: inout BugCompletionRate) {
            switch c.outcome {
            case .applied: r.applied += 1
            case .skipped: r.skipped += 1
            case .failed: r.failed += 1
            case .pending: r.unmarked += 1
            }
        }
        for c in practice.liveCompletions {
            guard let bug = fixes[c.fixId]?.bugId, bugs[bug]?.deletedAt == nil else { continue }
            let at = c.outcome == .pending ? c.assignedAt : (c.completedAt ?? c.assignedAt)
            let v = timeline.stepIndex(before: at).map { $0 + 1 } ?? 0
            var r = perVersion[v][bug] ?? blank(bug)
            add(c, to: &r)
            perVersion[v][bug] = r
            var o = overall[bug] ?? blank(bug)
            add(c, to: &o)
            overall[bug] = o
        }
        func sorted(_ d: [UUID: BugCompletionRate]) -> [BugCompletionRate] {
            d.values.sorted { $0.title != $1.title ? $0.title < $1.title : $0.bugId.uuidString < $1.bugId.uuidString }
        }
        var groups: [VersionHistoryGroup] = []
        for i in 0..<versions.count {
            groups.append(VersionHistoryGroup(
                version: versions[i],
                startedAt: i == 0 ? nil : timeline.steps[i - 1].at,
                endedAt: i < timeline.steps.count ? timeline.steps[i].at : nil,
                bugs: sorted(perVersion[i])))
        }
        return HistoryInsight(groups: groups.reversed(), overall: sorted(overall))
    }
}
