import EgoFixCore
import Foundation

/// A period inside a period page, with its counts in a line.
struct ChildRow: Sendable {
    let href: String
    let label: String
    let summary: String

    var value: TemplateValue { ["href": .text(href), "label": .text(label), "summary": .text(summary)] }
}
