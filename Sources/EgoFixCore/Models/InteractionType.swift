import Foundation

public enum InteractionType: String, Codable, Sendable, CaseIterable {
    case standard    // simple prompt
    case timed       // timer must complete
    case multiStep   // sequential steps
    case quiz        // multiple choice
    case scenario    // situation + response
    case counter     // track occurrences
}
