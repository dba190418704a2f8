import EgoFixCore
import Foundation

/// What a contribution graph is drawn from.
struct GraphInput: Sendable {
    let cells: [GraphCell]
    let from: LocalDay
    let through: LocalDay
    let title: String
    /// False for a period whose first day is still to come: no graph, "Not yet." (as a week page
    /// says of its days to come).
    var begun = true

    /// The graph as the templates are given it.
    var html: RawHTML {
        begun ? ContributionGraphSVG.html(cells, from: from, through: through, title: title) : RawHTML(trusted: "<p class=\"muted\">Not yet.</p>")
    }

    /// The graph's table alternative (DESIGN: inline SVG with a table alternative), as the history
    /// page gives one per year; nil before the period has begun.
    var table: RawHTML? {
        begun ? ContributionGraphTable.html(cells, from: from, through: through, title: title) : nil
    }
}
