import Foundation

public struct VersionEntry: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let userId: UUID
    public let version: String
    public let changeType: VersionChangeType
    public let description: String
    public let createdAt: Date
    public var deletedAt: Date?
    public var syncToken: String?

    public init(id: UUID = UUID(), userId: UUID, version: String, changeType: VersionChangeType,
                description: String, createdAt: Date, deletedAt: Date? = nil, syncToken: String? = nil) {
        self.id = id
        self.userId = userId
        self.version = version
        self.changeType = changeType
        self.description = description
        self.createdAt = createdAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
    }
}
