import EgoFixCore
import Foundation

/// A row of a week's diagnostic table.
struct DiagnosticRow: Sendable {
    let bugSlug: String
    let bugTitle: String
    let intensity: String
    let context: String
    let trend: String

    var value: TemplateValue {
        ["bugSlug": .text(bugSlug), "bugTitle": .text(bugTitle), "intensity": .text(intensity), "context": .text(context), "trend": .text(trend)]
    }
}
