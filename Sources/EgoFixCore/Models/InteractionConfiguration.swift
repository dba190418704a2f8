import Foundation

public struct TimedConfig: Codable, Sendable, Equatable {
    public let durationSeconds: Int
    public let prompt: String?
    public init(durationSeconds: Int, prompt: String? = nil) {
        self.durationSeconds = durationSeconds
        self.prompt = prompt
    }
}

public struct MultiStepConfig: Codable, Sendable, Equatable {
    public let steps: [Step]
    public struct Step: Codable, Sendable, Equatable {
        public let id: String
        public let instruction: String
        public init(id: String, instruction: String) {
            self.id = id
            self.instruction = instruction
        }
    }
    public init(steps: [Step]) { self.steps = steps }
}

public struct QuizConfig: Codable, Sendable, Equatable {
    public let question: String
    public let options: [Option]
    public struct Option: Codable, Sendable, Equatable {
        public let id: String
        public let text: String
        public let weightModifier: Double
        public let insight: String?
        public init(id: String, text: String, weightModifier: Double, insight: String? = nil) {
            self.id = id
            self.text = text
            self.weightModifier = weightModifier
            self.insight = insight
        }
    }
    public init(question: String, options: [Option]) {
        self.question = question
        self.options = options
    }
}

public struct ScenarioConfig: Codable, Sendable, Equatable {
    public let situation: String
    public let options: [Option]
    public struct Option: Codable, Sendable, Equatable {
        public let id: String
        public let text: String
        public let insight: String?
        public init(id: String, text: String, insight: String? = nil) {
            self.id = id
            self.text = text
            self.insight = insight
        }
    }
    public init(situation: String, options: [Option]) {
        self.situation = situation
        self.options = options
    }
}

public struct CounterConfig: Codable, Sendable, Equatable {
    public let targetDescription: String
    public let unit: String?
    public init(targetDescription: String, unit: String? = nil) {
        self.targetDescription = targetDescription
        self.unit = unit
    }

    /// Whether the description names its unit ("times you say \"yes, but\"", unit "times"): then
    /// the unit is not said again beside it (22 of the catalogue's 42 counters do).
    public var describesItsUnit: Bool {
        guard let unit else { return false }
        return targetDescription.lowercased().split { !$0.isLetter }.contains(Substring(unit.lowercased()))
    }
}

/// A fix's configuration, decoded according to its interaction type.
public enum InteractionConfiguration: Sendable, Equatable {
    case standard
    case timed(TimedConfig)
    case multiStep(MultiStepConfig)
    case quiz(QuizConfig)
    case scenario(ScenarioConfig)
    case counter(CounterConfig)

    public struct Mismatch: Error, CustomStringConvertible, Equatable {
        public let interactionType: InteractionType
        public let reason: String
        public var description: String { "configuration for \(interactionType.rawValue): \(reason)" }
    }

    public var interactionType: InteractionType {
        switch self {
        case .standard: return .standard
        case .timed: return .timed
        case .multiStep: return .multiStep
        case .quiz: return .quiz
        case .scenario: return .scenario
        case .counter: return .counter
        }
    }

    public static func decode(type: InteractionType, data: Data?) throws -> InteractionConfiguration {
        if type == .standard { return .standard }
        guard let data else { throw Mismatch(interactionType: type, reason: "missing") }
        let decoder = JSONDecoder()
        do {
            switch type {
            case .standard: return .standard
            case .timed:
                let c = try decoder.decode(TimedConfig.self, from: data)
                guard c.durationSeconds > 0 else { throw Mismatch(interactionType: type, reason: "durationSeconds must be positive") }
                return .timed(c)
            case .multiStep:
                let c = try decoder.decode(MultiStepConfig.self, from: data)
                guard !c.steps.isEmpty else { throw Mismatch(interactionType: type, reason: "steps is empty") }
                return .multiStep(c)
            case .quiz:
                let c = try decoder.decode(QuizConfig.self, from: data)
                guard c.options.count >= 2 else { throw Mismatch(interactionType: type, reason: "needs at least 2 options") }
                return .quiz(c)
            case .scenario:
                let c = try decoder.decode(ScenarioConfig.self, from: data)
                guard c.options.count >= 2 else { throw Mismatch(interactionType: type, reason: "needs at least 2 options") }
                return .scenario(c)
            case .counter:
                return .counter(try decoder.decode(CounterConfig.self, from: data))
            }
        } catch let m as Mismatch {
            throw m
        } catch {
            throw Mismatch(interactionType: type, reason: "does not decode (\(Self.describe(error)))")
        }
    }

    public func encoded() throws -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        switch self {
        case .standard: return nil
        case .timed(let c): return try encoder.encode(c)
        case .multiStep(let c): return try encoder.encode(c)
        case .quiz(let c): return try encoder.encode(c)
        case .scenario(let c): return try encoder.encode(c)
        case .counter(let c): return try encoder.encode(c)
        }
    }

    static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): return "missing key \(key.stringValue)"
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx), .dataCorrupted(let ctx):
            let path = ctx.codingPath.map { $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? ctx.debugDescription : "\(path): \(ctx.debugDescription)"
        default: return "\(error)"
        }
    }
}

/// What the user recorded for an interactive fix, stored as FixCompletion.outcomeData.
public struct InteractionOutcome: Codable, Sendable, Equatable {
    public var count: Int?             // counter
    public var optionId: String?       // quiz or scenario
    public var timerCompleted: Bool?   // timed
    public var stepsCompleted: Int?    // multiStep
    public init(count: Int? = nil, optionId: String? = nil, timerCompleted: Bool? = nil, stepsCompleted: Int? = nil) {
        self.count = count
        self.optionId = optionId
        self.timerCompleted = timerCompleted
        self.stepsCompleted = stepsCompleted
    }

    /// As the store keeps it: JSON with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}
