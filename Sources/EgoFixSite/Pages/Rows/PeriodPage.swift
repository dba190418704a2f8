import EgoFixCore
import Foundation

/// A month, quarter or year page's values.
struct PeriodPage: Sendable {
    let head: PeriodHead
    let graph: GraphInput
    let bugRows: [BugRow]
    let children: [ChildRow]

    /// The period's own fields, for the "period" template.
    var object: TemplateObject {
        var o = head.object
        o.fields += [("graph", .html(graph.html)), ("graphTable", .html(graph.table)), ("bugRows", .list(bugRows.map(\.value))), ("children", .list(children.map(\.value)))]
        return o
    }
}
