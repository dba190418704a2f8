import Foundation

/// Why a day is a rest day (`DailyFixRules`, rule 7), in the one wording `today` and `status` use.
public enum RestDay: String, Sendable, Equatable, Codable {
    /// No bug is active (the last one deactivated).
    case noBugInItsActivePeriod
    /// Every active bug is stable or resolved: a stable bug's fixes come back only at its retest.
    case everyActiveBugStable
    /// Every fix of the bugs in their active period had its turn lately (applied, or skipped or
    /// failed within its days).
    case everyFixHadItsTurn

    /// The reason, from the bugs as stored.
    public init(bugs: [Bug]) {
        if bugs.contains(where: \.takesTurns) {
            self = .everyFixHadItsTurn
        } else {
            self = bugs.contains { $0.deletedAt == nil && $0.isActive } ? .everyActiveBugStable : .noBugInItsActivePeriod
        }
    }

    public static let heading = "REST DAY"

    /// "No fix today. Every fix that fits has had its turn lately." ("no bug is in its active
    /// period" said the lifecycle's words, and the same of a bug switched off and a stable one.)
    public var reason: String {
        switch self {
        case .noBugInItsActivePeriod: return "No fix today: no bug is active."
        case .everyActiveBugStable: return "No fix today: every active bug is stable or resolved."
        case .everyFixHadItsTurn: return "No fix today. Every fix that fits has had its turn lately."
        }
    }

    /// What to run about it, when there is something: activating a bug starts one.
    public var hint: String? {
        switch self {
        case .noBugInItsActivePeriod: return "`egofix bug activate SLUG` starts one."
        case .everyActiveBugStable: return "A stable bug's fixes come back every \(Thresholds.retestIntervalDays) days, to check it holds; `egofix bug activate SLUG` adds another bug's."
        case .everyFixHadItsTurn: return nil
        }
    }
}
