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
