import EgoFixCore
import Foundation

// The rows page models are made of, typed. Each gives its template an object (`value`).

/// A link with its label (the pager's earlier, up and later).
struct PageLink: Sendable {
    let href: String
    let label: String

    var value: TemplateValue { ["href": .text(href), "label": .text(label)] }
}
