import EgoFixCore
import Foundation

/// One of the six counts of a period ("applied 6 +3 vs before").
struct CountRow: Sendable {
    let label: String
    let value: String
    /// Against the period before; nil when there is none.
    let delta: String?

    var pageValue: TemplateValue { ["label": .text(label), "value": .text(value), "delta": .text(delta)] }
}
