import Foundation

public struct FixCompletion: Identifiable, Codable, Sendable, Equatable {
    public let id: UUID
    public let fixId: UUID
    public let userId: UUID
    public private(set) var outcome: FixOutcome
    public var reflection: String?       // optional private note (Markdown)
    public var outcomeData: Data?        // JSON-encoded InteractionOutcome
    public let assignedAt: Date
    public var completedAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    public var deletedAt: Date?
    public var syncToken: String?
    /// The local day it was given for (a day ordinal, in the time zone it was given in): the day
    /// stays the day it was after a flight or on a machine in another zone. Nil in records made
    /// before egofix kept it; their day is read from `assignedAt` in the current zone.
    public var day: Int?

    public init(id: UUID = UUID(), fixId: UUID, userId: UUID, outcome: FixOutcome = .pending,
                reflection: String? = nil, outcomeData: Data? = nil, assignedAt: Date,
                completedAt: Date? = nil, createdAt: Date? = nil, updatedAt: Date? = nil,
                deletedAt: Date? = nil, syncToken: String? = nil, day: Int? = nil) {
        self.id = id
        self.fixId = fixId
        self.userId = userId
        self.outcome = outcome
        self.reflection = reflection
        self.outcomeData = outcomeData
        self.assignedAt = assignedAt
        self.completedAt = completedAt
        self.createdAt = createdAt ?? assignedAt
        self.updatedAt = updatedAt ?? createdAt ?? assignedAt
        self.deletedAt = deletedAt
        self.syncToken = syncToken
        self.day = day
    }

    /// The instant whose local day the completion belongs to, everywhere a day is shown or counted:
    /// when it was marked, or, while pending, when it was given (a fix given on Sunday evening and
    /// marked on Monday morning is Monday's).
    public var dayInstant: Date { outcome == .pending ? assignedAt : (completedAt ?? assignedAt) }

    public enum TransitionError: Error, Equatable, CustomStringConvertible {
        case alreadyMarked(FixOutcome)
        case notAnOutcome

        public var description: String {
            switch self {
            case .alreadyMarked(let o): return "this fix is already marked \(o.rawValue); an outcome is recorded once"
            case .notAnOutcome: return "pending is not an outcome; use applied, skipped or failed"
            }
        }
    }

    /// pending → applied / skipped / failed, once. Anything else throws and changes nothing.
    public mutating func mark(_ newOutcome: FixOutcome, at now: Date, reflection: String? = nil,
                              outcomeData: Data? = nil) throws {
        guard outcome == .pending else { throw TransitionError.alreadyMarked(outcome) }
        guard newOutcome != .pending else { throw TransitionError.notAnOutcome }
        outcome = newOutcome
        completedAt = now
        updatedAt = now
        if let reflection { self.reflection = reflection }
        if let outcomeData { self.outcomeData = outcomeData }
    }
}
