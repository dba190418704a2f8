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
            case .opened: return "opened, no outcome"
            case .empty: return "no activity"
            }
        }
    }

    /// What the day held, whatever its colour: a day with a fix applied and a crash is coloured as
    /// a crash and still counts among the days with a fix applied.
    public struct Held: OptionSet, Sendable, Equatable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let applied = Held(rawValue: 1)
        public static let skipped = Held(rawValue: 2)
        public static let failed = Held(rawValue: 4)
        public static let crash = Held(rawValue: 8)

        /// What a cell of `kind` holds when nothing more is known: its colour's own.
        static func of(_ kind: Kind) -> Held {
            switch kind {
            case .applied: return .applied
            case .skipped: return .skipped
            case .failed: return .failed
            case .crash: return .crash
            case .opened, .empty: return []
            }
        }
    }

    public var day: LocalDay
    public var kind: Kind
    public var held: Held
    /// Depth of engagement, 0 (a tap) ... 4 (high severity, reflection written, crash with a note).
    /// Values outside the range are clamped.
    public var depth: Int
    /// Shown on hover and in the table ("2026-11-22: FIX #037 applied, reflection written").
    /// Empty means the day and the kind's words.
    public var label: String

    public init(day: LocalDay, kind: Kind, depth: Int = 0, label: String = "", held: Held? = nil) {
        self.day = day
        self.kind = kind
        self.held = held ?? Held.of(kind)
        self.depth = min(4, max(0, depth))
        self.label = label
    }

    var displayLabel: String { label.isEmpty ? "\(day): \(kind.text)" : label }

    /// A day in the range before the practice began: named so, not "no activity", which read as
    /// a day missed.
    static func beforeDayOne(_ day: LocalDay) -> GraphCell { GraphCell(day: day, kind: .empty, label: "\(day): before day one") }

    var isBeforeDayOne: Bool { kind == .empty && label.hasSuffix(": before day one") }
}
