import EgoFixCore
import Foundation

/// A day of a week page.
struct DayRow: Sendable {
    let weekday: String
    let date: String
    let fixes: [FixRow]
    let crashes: [CrashRow]
    /// The time of each reboot.
    let reboots: [String]
    /// What the day says when nothing was marked or crashed.
    let empty: String

    var value: TemplateValue {
        [
            "weekday": .text(weekday), "date": .text(date), "fixes": .list(fixes.map(\.value)), "crashes": .list(crashes.map(\.value)),
            "reboots": .list(reboots.map { ["time": .text($0)] }), "empty": .text(empty),
        ]
    }
}
