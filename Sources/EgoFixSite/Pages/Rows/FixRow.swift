import EgoFixCore
import Foundation

/// What a fix asks beyond its prompt: a line ("Quiz: ...", "Timer, 10 minutes."), or its steps.
struct FixDetail: Sendable, Equatable {
    let text: String?
    var steps: [String] = []
}

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
    let detail: FixDetail?
    let interaction: String?
    let reflection: RawHTML?

    var value: TemplateValue {
        [
            "label": .text(label), "bugSlug": .text(bugSlug), "bugTitle": .text(bugTitle), "severity": .text(severity),
            "typeNote": .text(typeNote), "when": .text(when), "outcome": .text(outcome), "outcomeText": .text(outcomeText),
            "prompt": .text(prompt), "comment": .text(comment), "commentLines": FixRow.lines(comment),
            "detail": .text(detail?.text), "steps": .list((detail?.steps ?? []).map { .text($0) }), "hasSteps": .bool(!(detail?.steps.isEmpty ?? true)),
            "interaction": .text(interaction), "reflection": .html(reflection),
        ]
    }

    /// An inline comment a line at a time, so that a line the page wraps stays under its "//"
    /// (each is a block with a hanging indent); null when there is no comment.
    static func lines(_ comment: String?) -> TemplateValue {
        guard let comment, !comment.isEmpty else { return .null }
        return .list(comment.split(separator: "\n", omittingEmptySubsequences: false).map { .text(String($0)) })
    }
}
