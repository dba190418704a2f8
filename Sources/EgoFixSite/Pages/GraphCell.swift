import EgoFixCore

/// One day of the contribution graph, as the page model computed it.
public struct GraphCell: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case applied, skipped, failed, crash, opened, empty

        /// Words for the kind, for labels, legends and the table.
        /// `rawValue`, as static text for the SVG writer.
        var name: StaticString {
            switch self {
            case .applied: return "applied"
            case .skipped: return "skipped"
            case .failed: return "failed"
            case .crash: return "crash"
            case .opened: return "opened"
            case .empty: return "empty"
            }
        }

        public var text: String {
            switch self {
            case .applied: return "fix applied"
            case .skipped: return "fix skipped"
            case .failed: return "fix failed"
            case .crash: return "crash logged"
            case .opened: return "opened, no action"
            case .empty: return "no activity"
            }
        }
    }

    public var day: LocalDay
    public var kind: Kind
    /// Depth of engagement, 0 (a tap) ... 4 (high severity, reflection written, crash with a note).
    /// Values outside the range are clamped.
    public var depth: Int
    /// Shown on hover and in the table ("2026-11-22: FIX #037 applied, reflection written").
    /// Empty means the day and the kind's words.
    public var label: String

    public init(day: LocalDay, kind: Kind, depth: Int = 0, label: String = "") {
        self.day = day
        self.kind = kind
        self.depth = min(4, max(0, depth))
        self.label = label
    }

    var displayLabel: String { label.isEmpty ? "\(day): \(kind.text)" : label }
}
