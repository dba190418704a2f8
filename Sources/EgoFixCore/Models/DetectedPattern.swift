import Foundation

public struct DetectedPattern: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let userId: UUID
    public let patternType: PatternType
    public let severity: PatternSeverity
    public let title: String
    public let body: String
    public let relatedBugIds: [UUID]
    public let dataPoints: Int
    /// Probability that data with no real relationship would look at least this strong
    /// (corrected for the number of comparisons); lower is stronger. 1 when not applicable.
    public var pValue: Double
    /// Plain words for the data behind it: "based on 9 weeks".
    public var basis: String
    public let detectedAt: Date
    public var viewedAt: Date?
    public var dismissedAt: Date?
    public var deletedAt: Date?
    public var syncToken: String?

    public init(id: UUID = UUID(), userId: UUID, patternType: PatternType, severity: PatternSeverity,
                title: String, body: String, relatedBugIds: [UUID], dataPoints: Int,
                pValue: Double = 1, basis: String = "", detectedAt: Date, viewedAt: Date? = nil,
                dismissedAt: Date? = nil, deletedAt: Date? = nil, syncToken: String? = nil) {
        self.id = id
        self.userId = userId
        self.patternType = patternType
        self.severity = severity
        self.title = title
        self.body = body
        self.relatedBugIds = relatedBugIds
        self.dataPoints = dataPoints
        self.pValue = pValue
        self.basis = basis
        self.detectedAt = detectedAt
        self.viewedAt = viewedAt
        self.dismissedAt = dismissedAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
    }
}
