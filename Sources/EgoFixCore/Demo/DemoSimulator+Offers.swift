import Foundation

/// What the daily rule reads, kept up to date as the simulation goes instead of rebuilt each day.
extension DemoSimulator {
    /// A completion as the daily rule's cooldowns read it.
    struct Recent {
        var index: Int
        /// The local day it was assigned on.
        var day: Int
        var fixId: UUID
        var outcome: FixOutcome
        /// The local day of its outcome (of its assignment while pending).
        var doneDay: Int
    }

    /// The fixes the daily rule may offer, by bug: for each bug (index into the simulation's bugs),
    /// catalogue indexes of its live daily fixes by severity (low, medium, high) and of its live
    /// weekly fixes, in catalogue order, less those applied.
    struct Offers: DailyFixRules.FixSource {
        let fixes: [Fix]
        var allFixes: [Fix] { fixes }
        var lists: [[[Int]]]
        /// The bugs' ids, as the lists are kept.
        let bugIds: [UUID]
        /// The catalogue indexes of each live, offerable fix id.
        let byId: [UUID: [Int]]

        init(fixes: [Fix], bugs: [Bug]) {
            self.fixes = fixes
            bugIds = bugs.map(\.id)
            var lists = [[[Int]]](repeating: [[], [], [], []], count: bugs.count)
            var byId: [UUID: [Int]] = [:]
            for k in fixes.indices where fixes[k].isOffered {
                guard let s = Offers.list(fixes[k].type, fixes[k].severity) else { continue }
                byId[fixes[k].id, default: []].append(k)
                for b in bugs.indices where bugs[b].id == fixes[k].bugId { lists[b][s].append(k) }
            }
            self.lists = lists
            self.byId = byId
        }

        /// Which list a fix of this type and severity is kept in; nil for a quick fix.
        static func list(_ type: FixType, _ severity: FixSeverity?) -> Int? {
            switch type {
            case .daily: return severity.map { DailyFixRules.slot($0) }
            case .weekly: return 3
            case .quickFix: return nil
            }
        }

        func best(_ excluded: DailyFixRules.Excluded, bugIndex: Int, bug: UUID, type: FixType, severity: FixSeverity?,
                  hash: DailyFixRules.DayHash) -> Fix? {
            if let s = Offers.list(type, severity) {
                return DailyFixRules.best(fixes, lists[bugIndex][s], excluded, bug: bug, type: type, severity: severity, hash: hash)
            }
            // Any other question: all the bug's offerable fixes, in catalogue order.
            return DailyFixRules.best(fixes, lists[bugIndex].joined().sorted(), excluded, bug: bug, type: type,
                                      severity: severity, hash: hash)
        }

        /// Leaves out every fix with this id.
        mutating func remove(_ id: UUID) {
            for k in byId[id] ?? [] {
                guard let s = Offers.list(fixes[k].type, fixes[k].severity) else { continue }
                for b in bugIds.indices where bugIds[b] == fixes[k].bugId { lists[b][s].removeAll { $0 == k } }
            }
        }
    }
}
