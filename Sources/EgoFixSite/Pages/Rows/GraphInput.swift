import EgoFixCore
import Foundation

/// What a contribution graph is drawn from.
struct GraphInput: Sendable {
    let cells: [GraphCell]
    let from: LocalDay
    let through: LocalDay
    let title: String
    /// Said instead of the counted summary (a period that has not begun).
    var summary: String?

    /// The graph as the templates are given it.
    var html: RawHTML { ContributionGraphSVG.html(cells, from: from, through: through, title: title, summary: summary) }
}
