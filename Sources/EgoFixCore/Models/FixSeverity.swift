import Foundation

public enum FixSeverity: String, Codable, Sendable, CaseIterable, Comparable {
    case low
    case medium
    case high

    public var rank: Int {
        switch self {
        case .low: return 0
        case .medium: return 1
        case .high: return 2
        }
    }

    public static func < (lhs: FixSeverity, rhs: FixSeverity) -> Bool { lhs.rank < rhs.rank }
}
