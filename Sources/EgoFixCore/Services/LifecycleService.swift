import Foundation

public struct LifecycleService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// Evaluates one bug (or every bug) and saves any transition (`BugLifecycle.settle`: each
    /// dated when it took effect, and every one that is due).
    @discardableResult
    public func reconcile(bugId: UUID? = nil, at now: Date) async throws -> BugLifecycle.Transition? {
        try await reconcileEach(bugId: bugId, at: now).last?.transition
    }

    /// `reconcile`, returning each bug that changed state with its last transition, in the order
    /// the bugs are stored: for the commands that say so (a crash or a loud diagnostic that sends a
    /// stable bug back to active said nothing of it).
    @discardableResult
    public func reconcileEach(bugId: UUID? = nil, at now: Date) async throws -> [(bug: Bug, transition: BugLifecycle.Transition)] {
        var changed: [(bug: Bug, transition: BugLifecycle.Transition)] = []
        for settled in try await evaluated(bugId: bugId, at: now) {
            guard let transition = settled.last else { continue }
            try await repos.bugs.save(settled.bug)
            changed.append((settled.bug, transition))
        }
        return changed
    }

    /// Every live bug as the rules have it at `now`, with the transitions `reconcile` would save
    /// applied and nothing written: for the commands that only read (`status`, `remind`), which
    /// also work on a store they cannot write.
    public func current(at now: Date) async throws -> [Bug] {
        try await evaluated(bugId: nil, at: now).map(\.bug)
    }

    /// Each bug (or the one) as the rules have it at `now`, with the last transition made, if any.
    private func evaluated(bugId: UUID?, at now: Date) async throws -> [(bug: Bug, last: BugLifecycle.Transition?)] {
        let bugs = try await repos.bugs.getAll().filter { bugId == nil || $0.id == bugId }
        let crashes = try await repos.crashes.getAll()
        let diagnostics = try await repos.diagnostics.getAll()
        let fixes = try await repos.fixes.getAll()
        var out: [(bug: Bug, last: BugLifecycle.Transition?)] = []
        for bug in bugs {
            var retests: [FixCompletion] = []
            if let since = bug.lastRetestAt {
                let mine = Set(fixes.filter { $0.bugId == bug.id }.map(\.id))
                retests = BugLifecycle.retests(of: bug, among: try await repos.completions.getAssigned(from: since, to: .distantFuture),
                                               bugOf: { mine.contains($0) ? bug.id : nil })
            }
            // A transition clears the retest it began with: only the bug as stored has one.
            let settled = BugLifecycle.settle(bug, crashes: crashes, diagnostics: diagnostics,
                                              retests: { $0.lastRetestAt == bug.lastRetestAt ? retests : [] }, now: now, calendar: calendar)
            out.append(settled)
        }
        return out
    }
}
