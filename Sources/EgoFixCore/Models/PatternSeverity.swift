import Foundation

public enum PatternSeverity: String, Codable, Sendable, CaseIterable, Comparable {
    case observation
    case insight
    case alert

    public var rank: Int {
        switch self {
        case .observation: return 0
        case .insight: return 1
        case .alert: return 2
        }
    }

    public static func < (lhs: PatternSeverity, rhs: PatternSeverity) -> Bool { lhs.rank < rhs.rank }
}
