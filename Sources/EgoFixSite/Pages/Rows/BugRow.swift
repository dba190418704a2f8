import EgoFixCore
import Foundation

/// A bug's tally on a period page.
struct BugRow: Sendable {
    let slug: String
    let title: String
    let applied: Int
    let skipped: Int
    let failed: Int
    let crashes: Int

    var value: TemplateValue {
        ["slug": .text(slug), "title": .text(title), "applied": .text(String(applied)), "skipped": .text(String(skipped)),
         "failed": .text(String(failed)), "crashes": .text(String(crashes))]
    }
}
