import Foundation

public struct BugDiagnosticResponse: Codable, Sendable, Equatable {
    public let bugId: UUID
    public let intensity: BugIntensity
    public let primaryContext: EventContext?

    public init(bugId: UUID, intensity: BugIntensity, primaryContext: EventContext? = nil) {
        self.bugId = bugId
        self.intensity = intensity
        // "Where was it loudest?" is only asked when the bug was not quiet.
        self.primaryContext = intensity == .quiet ? nil : primaryContext
    }
}

public struct WeeklyDiagnostic: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let userId: UUID
    /// Local midnight of the Monday that starts the week reviewed.
    public let weekStarting: Date
    public let responses: [BugDiagnosticResponse]
    public let completedAt: Date
    public var deletedAt: Date?
    public var syncToken: String?

    public init(id: UUID = UUID(), userId: UUID, weekStarting: Date, responses: [BugDiagnosticResponse],
                completedAt: Date, deletedAt: Date? = nil, syncToken: String? = nil) {
        self.id = id
        self.userId = userId
        self.weekStarting = weekStarting
        self.responses = responses
        self.completedAt = completedAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
    }
}
