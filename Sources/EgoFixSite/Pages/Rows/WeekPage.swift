import EgoFixCore
import Foundation

/// A week page's values.
struct WeekPage: Sendable {
    let head: PeriodHead
    let toNext: String
    let note: RawHTML?
    let mirror: [String]
    let days: [DayRow]
    let diagnostic: [DiagnosticRow]?
    /// What the page says without a diagnostic: whether it can still be done, or was skipped.
    let noDiagnostic: String
    let pattern: PatternRow?
    let tidbit: String?

    /// The week's own fields, for the "week" template.
    var object: TemplateObject {
        var o = head.object
        o.fields += [
            ("toNext", .text(toNext)), ("note", .html(note)), ("days", .list(days.map(\.value))),
            ("diagnostic", diagnostic.map { ["rows": .list($0.map(\.value))] } ?? .null), ("noDiagnostic", .text(noDiagnostic)),
            ("mirror", .list(mirror.map { .text($0) })), ("hasMirror", .bool(!mirror.isEmpty)),
            ("pattern", pattern?.value ?? .null), ("tidbit", .text(tidbit)),
        ]
        return o
    }
}
