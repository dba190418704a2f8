import EgoFixCore
import Foundation

/// Terminal styling: muted 24-bit colours on a terminal, plain text when NO_COLOR is set or
/// output is not a terminal.
struct Style: Sendable {
    let color: Bool

    static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
        if let v = environment["NO_COLOR"], !v.isEmpty { return Style(color: false) }
        if environment["TERM"] == "dumb" { return Style(color: false) }
        return Style(color: isatty(STDOUT_FILENO) == 1)
    }

    // The palette: a dark IDE's muted syntax colours.
    static let comment = "#7f848e"
    static let applied = "#98c379"
    static let skipped = "#e5c07b"
    static let crash = "#e06c75"
    static let failed = "#d19a66"
    static let heading = "#abb2bf"

    func paint(_ text: String, _ hex: String) -> String {
        guard color, let (r, g, b) = Style.rgb(hex) else { return text }
        return "\u{1B}[38;2;\(r);\(g);\(b)m" + text + "\u{1B}[0m"
    }

    func bold(_ text: String) -> String { color ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
    func dim(_ text: String) -> String { paint(text, Style.comment) }

    static func rgb(_ hex: String) -> (Int, Int, Int)? {
        guard hex.count == 7, hex.hasPrefix("#"), let v = Int(hex.dropFirst(), radix: 16) else { return nil }
        return ((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff)
    }

    func outcomeColor(_ o: FixOutcome) -> String {
        switch o {
        case .applied: return Style.applied
        case .skipped: return Style.skipped
        case .failed: return Style.failed
        case .pending: return Style.comment
        }
    }
}
