import Foundation

public enum FixOutcome: String, Codable, Sendable, CaseIterable {
    case pending
    case applied
    case skipped
    case failed
}
