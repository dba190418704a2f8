import EgoFixCore
import Foundation

/// A crash on a day of a week page.
struct CrashRow: Sendable {
    let bugSlug: String
    let bugTitle: String
    let time: String
    let rebooted: String?
    let note: RawHTML?

    var value: TemplateValue {
        ["bugSlug": .text(bugSlug), "bugTitle": .text(bugTitle), "time": .text(time), "rebooted": .text(rebooted), "note": .html(note)]
    }
}
