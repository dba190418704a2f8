import Foundation

public enum EventType: String, Codable, Sendable, CaseIterable {
    case fixAssigned
    case fixApplied
    case fixSkipped
    case fixFailed
    case crashLogged
    case crashRebooted
    case appOpened
    case weeklyCompleted
    case patternViewed
    case patternDismissed
    case fixShared   // forwarded a fix to someone
    case timerCompleted  // a timed fix's timer ran to the end (`egofix timer`)
}

extension EventType {
    /// The event an outcome is recorded with (`fixApplied`, `fixSkipped`, `fixFailed`); nil for pending.
    public static func marking(_ outcome: FixOutcome) -> EventType? {
        switch outcome {
        case .applied: return .fixApplied
        case .skipped: return .fixSkipped
        case .failed: return .fixFailed
        case .pending: return nil
        }
    }
}
