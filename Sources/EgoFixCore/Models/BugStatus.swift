import Foundation

/// Lifecycle of a bug: identified → active → stable → resolved, back to active on regression.
public enum BugStatus: String, Codable, Sendable, CaseIterable {
    case identified
    case active
    case stable
    case resolved
}
