import EgoFixCore
import Foundation

/// A catalogue fix with its bug's slug and title, looked up once per build: a page reads them
/// with one lookup and no copy of the fix.
final class FixFacts: Sendable {
    let fix: Fix
    let bugSlug: String
    let bugTitle: String
    /// Where the fix's bug is in `SiteIndex.bugs`; nil when the bug is not live.
    let bugIndex: Int?

    /// What a page says for a fix or crash without a (live) bug.
    static let noBugSlug = "none", noBugTitle = "no bug named"

    init(fix: Fix, bug: Bug?, bugIndex: Int?) {
        self.fix = fix
        bugSlug = bug?.slug ?? FixFacts.noBugSlug
        bugTitle = bug?.title ?? FixFacts.noBugTitle
        self.bugIndex = bugIndex
    }
}
