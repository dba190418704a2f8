import Foundation

public struct MicroEducation: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let bugSlug: String
    public let trigger: EducationTrigger    // when to show
    public var body: String                 // the insight text
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?

    public init(id: UUID = UUID(), bugSlug: String, trigger: EducationTrigger, body: String,
                createdAt: Date, updatedAt: Date? = nil, deletedAt: Date? = nil) {
        self.id = id
        self.bugSlug = bugSlug
        self.trigger = trigger
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.deletedAt = deletedAt
    }
}
