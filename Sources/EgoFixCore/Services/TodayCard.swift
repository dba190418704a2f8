import Foundation

/// The fix on screen, with what a card needs.
public struct TodayCard: Equatable, Sendable {
    public let fix: Fix
    public let bug: Bug?
    public let completion: FixCompletion
    /// The fix was applied before (at least `Thresholds.rerunAfterDays` ago) and came back.
    public var isRerun: Bool = false
    /// Set on the day the bug's unseen daily fixes came down to `Thresholds.unseenFixesLowWarning`:
    /// how many are left. Said once, on that day's card.
    public var unseenLeft: Int?

    /// A stable bug's retest (`BugLifecycle.retests`): failing it sends the bug back to active.
    public var isRetest: Bool {
        guard let b = bug, b.status == .stable, let since = b.lastRetestAt else { return false }
        return completion.assignedAt >= since
    }

    public init(fix: Fix, bug: Bug?, completion: FixCompletion, isRerun: Bool = false, unseenLeft: Int? = nil) {
        self.fix = fix
        self.bug = bug
        self.completion = completion
        self.isRerun = isRerun
        self.unseenLeft = unseenLeft
    }

    public var isQuickFix: Bool { fix.type == .quickFix }
}
