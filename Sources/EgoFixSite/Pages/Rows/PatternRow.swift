import EgoFixCore
import Foundation

/// A detected pattern as a page shows it.
struct PatternRow: Sendable {
    let severity: String
    let severityText: String
    let type: String
    let basis: String
    let confidence: String
    let title: String
    let body: String
    /// Dismissed (`egofix patterns --dismiss TYPE`): the patterns page lists it last, and says so.
    var dismissed = false
    /// The day a week page's pattern was detected, its figures as they were then (the dashboard
    /// and the patterns page show the detectors' figures at the build).
    var detected: String?

    var value: TemplateValue {
        ["severity": .text(severity), "severityText": .text(severityText), "type": .text(type), "basis": .text(basis),
         "confidence": .text(confidence), "title": .text(title), "body": .text(body), "dismissed": .bool(dismissed),
         "detected": detected.map(TemplateValue.text) ?? .null]
    }
}
