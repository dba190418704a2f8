import Foundation

public enum FixType: String, Codable, Sendable, CaseIterable {
    case daily
    case weekly      // "system overhaul"
    case quickFix    // after a crash
}
