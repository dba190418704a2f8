import Foundation

/// Errors a user can cause through the services. Each says what happened and what to do.
public enum PracticeError: Error, Equatable, CustomStringConvertible {
    case noProfile
    /// A slug no bug has, with the nearest one there is (a typo, or capitals), when one is near.
    case unknownBug(String, nearest: String? = nil)
    case noPendingFix
    /// Nothing to mark, and yesterday's fix was left unmarked: the fix seen at 23:59 closed at
    /// midnight, which "no pending fix" alone did not say.
    case yesterdaysFixClosed(fix: String)
    case alreadyMarked(fix: String, outcome: FixOutcome)
    case reflectionTooLong(bytes: Int)
    case nothingToReboot
    case diagnosticAlreadyDone(week: String)
    case diagnosticEmpty
    case diagnosticBugRatedTwice(slug: String)
    case diagnosticBugNotActive(slug: String, active: [String])
    case diagnosticTooManyBugs(count: Int, thisWeek: [String])

    public var description: String {
        switch self {
        case .noProfile:
            return "no practice in this store. Run `egofix init` first, or `egofix init --from DIR` to join the practice your other machines sync there."
        case .unknownBug(let slug, let nearest):
            return "unknown bug '\(slug)'" + (nearest.map { " (\($0)?)" } ?? "") + ". Run `egofix bugs` to list the slugs."
        case .noPendingFix:
            return "no pending fix to mark. `egofix today` gives today's, if the day has one."
        case .yesterdaysFixClosed(let fix):
            return "no pending fix to mark: yesterday's, \(fix), closed unmarked at midnight. `egofix today` gives today's, if the day has one."
        case .alreadyMarked(let fix, let outcome):
            return "\(fix) is already marked \(outcome.rawValue). `egofix amend` changes today's mark: its outcome, reflection or answer."
        case .reflectionTooLong(let bytes):
            return "the text is \(bytes) bytes; the limit is \(Thresholds.maxMarkdownBytes / 1024) KiB (\(Thresholds.maxMarkdownBytes) bytes). Shorten it and run the command again."
        case .nothingToReboot:
            return "no crash waiting for a reboot. Nothing was changed."
        case .diagnosticAlreadyDone(let week):
            return "the diagnostic for \(week) is already done. --redo takes it again, its ratings replaced; the next one opens the coming Sunday at \(Thresholds.diagnosticOpensSundayHour):00."
        case .diagnosticEmpty:
            return "a diagnostic needs at least one bug rating. To skip, record nothing."
        case .diagnosticBugRatedTwice(let slug):
            return "\(slug) is rated twice. A diagnostic rates each bug once; nothing recorded."
        case .diagnosticBugNotActive(let slug, let active):
            let which = active.isEmpty ? "no bug is active" : "active: " + active.joined(separator: ", ")
            return "\(slug) is not active. The diagnostic asks about active bugs (\(which)); `egofix bug activate SLUG` activates one."
        case .diagnosticTooManyBugs(let count, let thisWeek):
            return "\(count) bugs rated; a diagnostic rates at most \(Thresholds.diagnosticMaxBugs) (this week's turn: "
                + thisWeek.joined(separator: ", ") + "). Nothing recorded."
        }
    }
}
