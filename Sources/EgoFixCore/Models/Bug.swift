import Foundation

public struct Bug: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let slug: String            // "need-to-be-right"
    public var title: String           // "Need to be right"
    public var description: String
    /// A colour from the muted syntax palette, as "#rrggbb".
    public var color: String
    public var isActive: Bool
    public var status: BugStatus
    public var activatedAt: Date?
    /// When the bug last became stable; the 30-day retest clock starts here.
    public var stableSince: Date?
    /// When a stable bug was last retested.
    public var lastRetestAt: Date?
    public var resolvedAt: Date?
    /// When the bug last regressed (stable or resolved → active). Stability again needs quiet
    /// ratings from after this.
    public var regressedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?
    public var syncToken: String?

    /// Whether it takes its turn for daily fixes: live, active, and in its active period (a
    /// stable bug is given retests only).
    public var takesTurns: Bool { deletedAt == nil && isActive && status == .active }

    public init(id: UUID = UUID(), slug: String, title: String, description: String,
                color: String = "#8a8f98", isActive: Bool = false, status: BugStatus = .identified,
                activatedAt: Date? = nil, stableSince: Date? = nil, lastRetestAt: Date? = nil,
                resolvedAt: Date? = nil, createdAt: Date, updatedAt: Date? = nil,
                deletedAt: Date? = nil, syncToken: String? = nil, regressedAt: Date? = nil) {
        self.id = id
        self.slug = slug
        self.title = title
        self.description = description
        self.color = color
        self.isActive = isActive
        self.status = status
        self.activatedAt = activatedAt
        self.stableSince = stableSince
        self.lastRetestAt = lastRetestAt
        self.resolvedAt = resolvedAt
        self.regressedAt = regressedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
    }

    public var isDeleted: Bool { deletedAt != nil }

    /// Soft delete: the record stays, hidden from every query.
    public mutating func softDelete(at now: Date) {
        deletedAt = now
        updatedAt = now
    }
}

extension Bug {
    /// The bug's state in one word or two, as `egofix bugs` and its page say it: the lifecycle
    /// status while it is active, else "inactive" (never activated), "deactivated", or the status
    /// with ", deactivated" ("active, not active" read as a contradiction).
    public var stateWords: String {
        if isActive { return status.rawValue }
        switch status {
        case .identified: return "inactive"
        case .active: return "deactivated"
        default: return status.rawValue + ", deactivated"
        }
    }
}
