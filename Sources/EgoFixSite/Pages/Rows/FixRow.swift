import EgoFixCore
import Foundation

/// A fix as a page shows it.
struct FixRow: Sendable {
    let label: String
    let bugSlug: String
    let bugTitle: String
    let severity: String
    let typeNote: String?
    let when: String?
    let outcome: String
    let outcomeText: String
    let prompt: String
    let comment: String?
    let detail: String?
    let interaction: String?
    let reflection: RawHTML?

    var value: TemplateValue {
        [
            "label": .text(label), "bugSlug": .text(bugSlug), "bugTitle": .text(bugTitle), "severity": .text(severity),
            "typeNote": .text(typeNote), "when": .text(when), "outcome": .text(outcome), "outcomeText": .text(outcomeText),
            "prompt": .text(prompt), "comment": .text(comment), "detail": .text(detail), "interaction": .text(interaction),
            "reflection": .html(reflection),
        ]
    }
}
