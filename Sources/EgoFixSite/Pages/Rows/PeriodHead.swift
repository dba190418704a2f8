import EgoFixCore
import Foundation

/// What week, month, quarter and year pages have in common: the heading, the counts against the
/// period before, the questions and the pager.
struct PeriodHead: Sendable {
    let frame: PageFrame
    let range: String
    let versionStart: String
    let versionEnd: String
    let counts: [CountRow]
    /// Each with "text" and "date".
    let questions: [TemplateValue]
    let prev: PageLink?
    let next: PageLink?
    let up: PageLink

    /// The fields for the "week" and "period" templates, before each page's own.
    var object: TemplateObject {
        [
            "range": .text(range), "versionStart": .text(versionStart), "versionEnd": .text(versionEnd),
            "versionChanged": .bool(versionStart != versionEnd), "counts": .list(counts.map(\.pageValue)),
            "questions": .list(questions), "prev": prev?.value ?? .null, "next": next?.value ?? .null, "up": up.value,
        ]
    }
}
