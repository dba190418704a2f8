import EgoFixCore
import Foundation

/// The fix card, as the spec draws it.
enum FixCard {
    static func lines(fix: Fix, bug: Bug?, style: Style, heading: String? = nil, showCommands: Bool = true) -> [String] {
        var out: [String] = []
        if let heading { out.append(style.dim(heading)); out.append("") }
        var title = style.bold(fix.label)
        if let bug { title += "  " + style.paint(bug.title.lowercased(), bug.color) }
        out.append(title)
        var meta = "Severity: " + fix.severity.rawValue.capitalized
        if let note = fix.type.note { meta += "   " + note }
        out.append(meta)
        out.append("")
        out += Text.wrap(fix.prompt)
        if let c = fix.inlineComment {
            out.append("")
            out += Text.wrapComment(c).map { style.dim($0) }
        }
        let details = interactionLines(fix: fix)
        if !details.isEmpty {
            out.append("")
            out += details
        }
        if let v = fix.validation {
            out.append("")
            out += Text.wrap(v).map { style.dim($0) }
        }
        if showCommands {
            out.append("")
            let buttons = ["[ egofix applied ]", "[ egofix skipped ]", "[ egofix failed ]"]
            let row = buttons.joined(separator: "   ")
            // One under another on a terminal too narrow for the row.
            out += row.count <= Text.lineWidth ? [row] : buttons
        }
        return out
    }

    /// A kind of fix as the messages name it: "a multi-step fix", "a timed fix".
    static func kind(_ t: InteractionType) -> String {
        switch t {
        case .standard: return "a standard"
        case .timed: return "a timed"
        case .multiStep: return "a multi-step"
        case .quiz: return "a quiz"
        case .scenario: return "a scenario"
        case .counter: return "a counter"
        }
    }

    static func interactionLines(fix: Fix) -> [String] {
        guard let config = try? fix.configuration() else { return [] }
        switch config {
        case .standard:
            return []
        case .timed(let t):
            var out = ["timer: " + Plural.duration(seconds: t.durationSeconds)]
            if let p = t.prompt { out += Text.wrap(p, indent: "  ") }
            out.append("  (`egofix timer` runs it; --timer-done if you timed it yourself)")
            return out
        case .multiStep(let m):
            var out: [String] = []
            for (i, s) in m.steps.enumerated() {
                let lines = Text.wrap(s.instruction, width: Text.width - 4)
                out.append("\(i + 1). " + (lines.first ?? ""))
                out += lines.dropFirst().map { "   " + $0 }
            }
            out.append("  (--steps N: how many you did)")
            return out
        case .quiz(let q):
            var out = Text.wrap(q.question)
            for o in q.options { out += Text.wrap("\(o.id)) " + o.text, indent: "  ").enumerated().map { $0.offset == 0 ? $0.element : "   " + $0.element } }
            out.append("  (--option ID: your honest answer)")
            return out
        case .scenario(let s):
            var out = Text.wrap(s.situation)
            for o in s.options { out += Text.wrap("\(o.id)) " + o.text, indent: "  ").enumerated().map { $0.offset == 0 ? $0.element : "   " + $0.element } }
            out.append("  (--option ID: what you would actually do)")
            return out
        case .counter(let c):
            // The unit in brackets only when the description does not name it ("times you say
            // \"yes, but\" (times)" said it twice).
            let unit = c.describesItsUnit ? "" : c.unit.map { " (\($0))" } ?? ""
            return ["count: " + c.targetDescription + unit, "  (--count N at the end of the day)"]
        }
    }

}
