import Foundation

/// What `egofix diagnostic --redo` changed: the week's diagnostic as it was and as it is, and the
/// bugs whose state followed.
public struct DiagnosticRedo: Sendable {
    public let before: WeeklyDiagnostic
    public let after: WeeklyDiagnostic
    /// Bugs the first ratings had made stable (or resolved) that the new ones no longer hold there,
    /// as they were put back: stable again (from resolved) or active again.
    public let undone: [Bug]
    /// Each bug that changed state at the new ratings (a loud one sends a stable bug back).
    public let changed: [(bug: Bug, transition: BugLifecycle.Transition)]

    /// The loud rating in `first` that sent `bug` back to active (the regression is dated at its
    /// instant), if it did: it stands through a redo, as a failed retest does through `amend`;
    /// where it was loudest may change. The terminal does not ask about it; `redo` refuses a change.
    public static func standingLoud(of bug: Bug, in first: WeeklyDiagnostic) -> BugDiagnosticResponse? {
        guard bug.regressedAt == first.completedAt, let r = first.responses.first(where: { $0.bugId == bug.id }), r.intensity == .loud
        else { return nil }
        return r
    }

    public enum RedoError: Error, Equatable, CustomStringConvertible {
        /// `anyway`: the week is the current one, which only `--anyway` reviews.
        case nothingToRedo(week: String, anyway: Bool)
        case unchanged(week: String)
        /// `rating`: the loud rating as `--rate` takes it ("loud@work").
        case regressed(week: String, bug: String, slug: String, rating: String)

        public var description: String {
            switch self {
            case .nothingToRedo(let week, let anyway):
                return "\(week) has no diagnostic to take again. `egofix diagnostic\(anyway ? " --anyway" : "")` takes it. Nothing recorded."
            case .unchanged(let week):
                return "nothing to change: \(week)'s diagnostic has those ratings already. Nothing recorded."
            case .regressed(let week, let bug, let slug, let rating):
                return "\(week)'s loud rating sent \(bug) back to active. That stands: its stable dates went with the "
                    + "regression. --rate \(slug)=\(rating) keeps it while the others change. Nothing recorded."
            }
        }
    }
}

extension DiagnosticService {
    /// The live diagnostic of the week under review at `now` (the window's week, else this week).
    public func redoTarget(at now: Date) async throws -> WeeklyDiagnostic {
        let week = weekUnderReview(at: now)
        let live = try await repos.diagnostics.getAll()
            .filter { $0.deletedAt == nil && $0.week(in: calendar) == week }
            .sorted { $0.completedAt != $1.completedAt ? $0.completedAt < $1.completedAt : $0.id.sortsBefore($1.id) }
        guard let first = live.first else {
            throw DiagnosticRedo.RedoError.nothingToRedo(week: week.isoWeekLabel, anyway: DiagnosticSchedule.reviewedWeek(now: now, calendar: calendar) == nil)
        }
        return first
    }

    /// The bugs `first` rated, in its order: the ones a redo asks about again (those still active).
    public func bugsRated(in first: WeeklyDiagnostic) async throws -> [Bug] {
        var bugs: [Bug] = []
        for r in first.responses {
            if let b = try await repos.bugs.getById(r.bugId), b.deletedAt == nil { bugs.append(b) }
        }
        return bugs
    }

    /// The bugs `first` asked about, for a redo to ask again: those it rated, in its order, then
    /// those the week's turn asked and Enter skipped (the turn read without `first`; at most as
    /// many as the diagnostic asks). A skipped bug could not be rated by a redo in a terminal, and
    /// `--redo --rate` for it alone replaced the other ratings.
    public func bugsAsked(in first: WeeklyDiagnostic) async throws -> [Bug] {
        let rated = try await bugsRated(in: first)
        let user = try await repos.users.get()
        let others = try await repos.diagnostics.getAll().filter { $0.id != first.id }
        let turn = DiagnosticSchedule.bugsToAsk(active: try await repos.bugs.getActive(), primaryBugId: user?.primaryBugId, completed: others)
        let skipped = turn.filter { b in !rated.contains { $0.id == b.id } }
        return rated + skipped.prefix(max(0, Thresholds.diagnosticMaxBugs - rated.count))
    }

    /// The week's diagnostic taken again: a rating typed wrong put right while the diagnostic is
    /// still open (the same window as the first, or `--anyway`'s week).
    ///
    /// - The first is replaced, not edited: it is soft-deleted, and a new record holds the new
    ///   ratings with the same week and the same instant, so the streak, the day it counts on and
    ///   its event do not move. A sync takes the deletion to the other machines (deletions stick).
    /// - A bug the first ratings made stable (its stable date is at or after them) whose rating
    ///   changes is put back to active (a resolution since, back to stable): the new ratings decide
    ///   again. A loud rating that sent a bug back to active stands, as a failed retest does under
    ///   `amend`: the regression cleared the stable dates, which are not kept to restore.
    /// - Everything is checked before anything is written; the caller runs it in one transaction.
    public func redo(_ responses: [BugDiagnosticResponse], at now: Date) async throws -> DiagnosticRedo {
        let first = try await redoTarget(at: now)
        // A bug rated then and deactivated since may keep (or change) its rating.
        _ = try await checked(responses, asked: try await bugsRated(in: first), allowing: Set(first.responses.map(\.bugId)))
        let label = first.week(in: calendar).isoWeekLabel
        func rating(_ r: BugDiagnosticResponse?) -> String? { r.map { $0.intensity.rawValue + "@" + ($0.primaryContext?.rawValue ?? "") } }
        let was = Dictionary(first.responses.map { ($0.bugId, $0) }, uniquingKeysWith: { a, _ in a })
        let given = Dictionary(responses.map { ($0.bugId, $0) }, uniquingKeysWith: { a, _ in a })
        let touched = Set(was.keys).union(given.keys).filter { rating(was[$0]) != rating(given[$0]) }
        guard !touched.isEmpty else { throw DiagnosticRedo.RedoError.unchanged(week: label) }

        var undo: [Bug] = []
        // Only a change of intensity moves a bug's state: where it was loudest does not.
        let shifted = touched.filter { was[$0]?.intensity != given[$0]?.intensity }
        for bug in try await repos.bugs.getAll() where shifted.contains(bug.id) && bug.deletedAt == nil {
            // Where it was loudest may change; that it was loud may not.
            if let loud = DiagnosticRedo.standingLoud(of: bug, in: first), given[bug.id]?.intensity != .loud {
                throw DiagnosticRedo.RedoError.regressed(week: label, bug: bug.title, slug: bug.slug,
                                                         rating: "loud" + (loud.primaryContext.map { "@" + $0.word } ?? ""))
            }
            var b = bug
            if b.status == .resolved, let r = b.resolvedAt, r >= first.completedAt {
                b = BugLifecycle.unresolved(b, at: now)
            }
            if b.status == .stable, let s = b.stableSince, s >= first.completedAt {
                b = BugLifecycle.unstabilised(b, at: now)
            }
            if b.status != bug.status { undo.append(b) }
        }
        var old = first
        // Never at its own instant, which is how a sync marks a diagnostic that lost to another
        // machine's for the same week (`SyncRules.resolveSameWeek`).
        old.deletedAt = now == first.completedAt ? now.addingTimeInterval(0.001) : now
        let new = WeeklyDiagnostic(userId: first.userId, weekStarting: first.weekStarting, responses: responses,
                                   completedAt: first.completedAt)
        try await repos.diagnostics.save(old)
        try await repos.diagnostics.save(new)
        for b in undo { try await repos.bugs.save(b) }
        let changed = try await LifecycleService(repos: repos, calendar: calendar).reconcileEach(at: now)
        return DiagnosticRedo(before: first, after: new, undone: undo, changed: changed)
    }
}
