import Foundation

public struct UserProfile: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public var currentVersion: String          // e.g. "1.3"
    public var primaryBugId: UUID?
    public var currentStreak: Int              // consecutive days of engagement
    public var longestStreak: Int
    public var lastEngagementDate: Date?
    /// The local day (ordinal) the last engagement counted for, in the time zone the user was in
    /// then: a move to another time zone does not move a day already counted.
    public var lastEngagementDay: Int?
    public var streakFreezeAvailable: Bool     // one free per week, resets Sunday
    /// The Sunday (local day ordinal) of the week whose freeze was consumed, if any.
    public var freezeUsedWeekStart: Int?
    /// The micro-education tidbit shown last, so the next one differs.
    public var lastTidbitId: UUID?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    // Sync-ready
    public var syncToken: String?
    public var lastSyncedAt: Date?

    public init(id: UUID = UUID(), currentVersion: String = "1.0", primaryBugId: UUID? = nil,
                currentStreak: Int = 0, longestStreak: Int = 0, lastEngagementDate: Date? = nil,
                streakFreezeAvailable: Bool = true, freezeUsedWeekStart: Int? = nil, lastTidbitId: UUID? = nil,
                createdAt: Date, updatedAt: Date? = nil, deletedAt: Date? = nil,
                syncToken: String? = nil, lastSyncedAt: Date? = nil, lastEngagementDay: Int? = nil) {
        self.id = id
        self.currentVersion = currentVersion
        self.primaryBugId = primaryBugId
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.lastEngagementDate = lastEngagementDate
        self.streakFreezeAvailable = streakFreezeAvailable
        self.freezeUsedWeekStart = freezeUsedWeekStart
        self.lastTidbitId = lastTidbitId
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
        self.lastSyncedAt = lastSyncedAt
        self.lastEngagementDay = lastEngagementDay
    }

    /// A profile as a brand-new user has it: v1.0, streak 0, freeze available.
    public static func new(id: UUID = UUID(), now: Date) -> UserProfile {
        UserProfile(id: id, createdAt: now)
    }
}
