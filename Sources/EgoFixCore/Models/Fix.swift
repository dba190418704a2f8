import Foundation

public struct Fix: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    /// Catalogue number, shown as "FIX #037".
    public let number: Int
    public let bugId: UUID
    public var type: FixType
    public var severity: FixSeverity
    public var interactionType: InteractionType
    public var prompt: String                 // the challenge text
    public var inlineComment: String?         // optional "// This is harder when..."
    public var validation: String?            // instruction for interaction completion
    public var configurationData: Data?       // JSON-encoded config for the interaction type
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?
    public var syncToken: String?
    /// Set when the catalogue retired the fix: old records still show it; it is never assigned again.
    public var retiredAt: Date?

    public init(id: UUID = UUID(), number: Int, bugId: UUID, type: FixType = .daily,
                severity: FixSeverity = .low, interactionType: InteractionType = .standard,
                prompt: String, inlineComment: String? = nil, validation: String? = nil,
                configurationData: Data? = nil, createdAt: Date, updatedAt: Date? = nil,
                deletedAt: Date? = nil, syncToken: String? = nil, retiredAt: Date? = nil) {
        self.id = id
        self.number = number
        self.bugId = bugId
        self.type = type
        self.severity = severity
        self.interactionType = interactionType
        self.prompt = prompt
        self.inlineComment = inlineComment
        self.validation = validation
        self.configurationData = configurationData
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
        self.retiredAt = retiredAt
    }

    /// Whether the daily rule and the crash rule may offer it: live and not retired.
    public var isOffered: Bool { deletedAt == nil && retiredAt == nil }

    /// "FIX #037"
    public var label: String { "FIX #" + Fix.pad(number) }

    public static func pad(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 3 ? s : String(repeating: "0", count: 3 - s.count) + s
    }

    /// The decoded interaction configuration, checked against the interaction type.
    public func configuration() throws -> InteractionConfiguration {
        try InteractionConfiguration.decode(type: interactionType, data: configurationData)
    }
}
