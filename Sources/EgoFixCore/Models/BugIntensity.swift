import Foundation

public enum BugIntensity: String, Codable, Sendable, CaseIterable {
    case quiet
    case present
    case loud

    public var level: Int {
        switch self {
        case .quiet: return 0
        case .present: return 1
        case .loud: return 2
        }
    }
}
