import Foundation

public struct Crash: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let userId: UUID
    public let bugId: UUID?
    public var note: String?
    public let crashedAt: Date
    public var rebootedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?
    public var syncToken: String?

    public init(id: UUID = UUID(), userId: UUID, bugId: UUID?, note: String? = nil, crashedAt: Date,
                rebootedAt: Date? = nil, createdAt: Date? = nil, updatedAt: Date? = nil,
                deletedAt: Date? = nil, syncToken: String? = nil) {
        self.id = id
        self.userId = userId
        self.bugId = bugId
        self.note = note
        self.crashedAt = crashedAt
        self.rebootedAt = rebootedAt
        self.createdAt = createdAt ?? crashedAt
        self.updatedAt = updatedAt ?? createdAt ?? crashedAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
    }

    public var isRebooted: Bool { rebootedAt != nil }

    /// Rebooting closes the crash: rebootedAt is set once and kept.
    public mutating func reboot(at now: Date) {
        guard rebootedAt == nil else { return }
        rebootedAt = now
        updatedAt = now
    }
}
