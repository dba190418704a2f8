import Foundation

/// Lifecycle of a bug: identified → active → stable → resolved, back to active on regression.
public enum BugStatus: String, Codable, Sendable, CaseIterable {
    case identified
    case active
    case stable
    case resolved
}

public enum FixType: String, Codable, Sendable, CaseIterable {
    case daily
    case weekly      // "system overhaul"
    case quickFix    // after a crash
}

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

public enum InteractionType: String, Codable, Sendable, CaseIterable {
    case standard    // simple prompt
    case timed       // timer must complete
    case multiStep   // sequential steps
    case quiz        // multiple choice
    case scenario    // situation + response
    case counter     // track occurrences
}

public enum FixOutcome: String, Codable, Sendable, CaseIterable {
    case pending
    case applied
    case skipped
    case failed
}

public enum VersionChangeType: String, Codable, Sendable, CaseIterable {
    case majorUpdate  // 1.x -> 2.0
    case minorUpdate  // 1.0 -> 1.1
    case crash
    case reboot
}

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

public enum EventContext: String, Codable, Sendable, CaseIterable {
    case work
    case home
    case social
    case family
    case online
    case unknown
}

public enum PatternType: String, Codable, Sendable, CaseIterable {
    case avoidance
    case temporalCrash
    case contextualSpike
    case correlatedBugs
    case plateau
    case regression
    case improvement
}

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

public enum EducationTrigger: String, Codable, Sendable, CaseIterable {
    case afterApplied      // shown after marking fix as applied
    case afterSkipped
    case afterFailed
    case afterCrash
    case duringDiagnostic
    case restDay           // no fix assigned
}
