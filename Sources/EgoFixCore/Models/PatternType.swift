import Foundation

public enum PatternType: String, Codable, Sendable, CaseIterable {
    case avoidance
    case temporalCrash
    case contextualSpike
    case correlatedBugs
    case plateau
    case regression
    case improvement
}
