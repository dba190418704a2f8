import EgoFixCore
import Foundation

/// What was marked and crashed per bug, summed day by day, so the rows of any range of days are
/// two reads a bug instead of a walk over its days.
struct BugTallies: Sendable {
    struct Tally: Equatable {
        var applied = 0, skipped = 0, failed = 0, crashes = 0
        var isEmpty: Bool { applied + skipped + failed + crashes == 0 }
    }

    private let first: LocalDay
    private let days: Int
    private let bugCount: Int
    /// Running totals: entry `(d * bugCount + bug) * 4 + kind` sums the days before day offset `d`.
    private let totals: [Int]

    init(_ index: SiteIndex) {
        let keys = Array(index.completionsByDay.keys) + Array(index.crashesByDay.keys)
        let first = keys.min() ?? index.first
        let days = (keys.max().map { $0.days(since: first) } ?? -1) + 1
        let bugCount = index.bugs.count
        var perDay = [Int](repeating: 0, count: max(0, days) * bugCount * 4)
        for (day, list) in index.completionsByDay {
            let d = day.days(since: first)
            for c in list {
                guard let b = index.fixFacts[c.fixId]?.bugIndex else { continue }
                let kind = c.outcome == .applied ? 0 : c.outcome == .skipped ? 1 : c.outcome == .failed ? 2 : -1
                if kind >= 0 { perDay[(d * bugCount + b) * 4 + kind] += 1 }
            }
        }
        for (day, list) in index.crashesByDay {
            let d = day.days(since: first)
            for c in list {
                guard let bugId = c.bugId, let b = index.bugPlace[bugId] else { continue }
                perDay[(d * bugCount + b) * 4 + 3] += 1
            }
        }
        let width = bugCount * 4
        var totals = [Int](repeating: 0, count: (max(0, days) + 1) * width)
        for d in 0..<max(0, days) {
            for k in 0..<width { totals[(d + 1) * width + k] = totals[d * width + k] + perDay[d * width + k] }
        }
        self.first = first
        self.days = max(0, days)
        self.bugCount = bugCount
        self.totals = totals
    }

    /// The tally of the bug at `bug` (its place in `index.bugs`) over the days from `from` through `through`.
    func tally(bug: Int, from: LocalDay, through: LocalDay) -> Tally {
        let lo = min(max(0, from.days(since: first)), days)
        let hi = min(max(0, through.days(since: first) + 1), days)
        guard hi > lo else { return Tally() }
        func sum(_ kind: Int) -> Int { totals[(hi * bugCount + bug) * 4 + kind] - totals[(lo * bugCount + bug) * 4 + kind] }
        return Tally(applied: sum(0), skipped: sum(1), failed: sum(2), crashes: sum(3))
    }
}
