import Foundation

/// Why a day is a rest day (`DailyFixRules`, rule 7), in the one wording `today` and `status` use.
public enum RestDay: String, Sendable, Equatable, Codable {
    /// No bug is in its active period: none is active, or the active ones are stable or resolved.
    case noBugInItsActivePeriod
    /// Every fix of the bugs in their active period had its turn lately (applied, or skipped or
    /// failed within its days).
    case everyFixHadItsTurn

    /// The reason, from the bugs as stored.
    public init(bugs: [Bug]) {
        self = bugs.contains(where: \.takesTurns) ? .everyFixHadItsTurn : .noBugInItsActivePeriod
    }

    public static let heading = "REST DAY"

    /// "No fix today. Every fix that fits has had its turn lately."
    public var reason: String {
        switch self {
        case .noBugInItsActivePeriod: return "No fix today: no bug is in its active period."
        case .everyFixHadItsTurn: return "No fix today. Every fix that fits has had its turn lately."
        }
    }

    /// What to run about it, when there is something: activating a bug starts one.
    public var hint: String? {
        switch self {
        case .noBugInItsActivePeriod: return "`egofix bug activate SLUG` starts one."
        case .everyFixHadItsTurn: return nil
        }
    }
}
