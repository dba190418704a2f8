import Foundation

public enum VersionChangeType: String, Codable, Sendable, CaseIterable {
    case majorUpdate  // 1.x -> 2.0
    case minorUpdate  // 1.0 -> 1.1
    case crash
    case reboot
}
