import Foundation

public enum EventContext: String, Codable, Sendable, CaseIterable {
    case work
    case home
    case social
    case family
    case online
    case unknown
}
