import Foundation

public enum FixType: String, Codable, Sendable, CaseIterable {
    case daily
    case weekly      // "system overhaul"
    case quickFix    // after a crash

    /// What a fix card and a page's fix line call a fix of this type beside its severity: "quick
    /// fix", "system overhaul"; nil for a daily fix.
    public var note: String? {
        switch self {
        case .daily: return nil
        case .weekly: return "system overhaul"
        case .quickFix: return "quick fix"
        }
    }
}
