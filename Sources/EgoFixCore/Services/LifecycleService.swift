import Foundation

public struct LifecycleService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// Evaluates one bug (or every bug) and saves any transition.
    @discardableResult
    public func reconcile(bugId: UUID? = nil, at now: Date) async throws -> BugLifecycle.Transition? {
        var last: BugLifecycle.Transition?
        for (bug, change) in try await evaluated(bugId: bugId, at: now) {
            guard let change else { continue }
            try await repos.bugs.save(BugLifecycle.apply(change.transition, to: bug, at: now, effective: change.effective))
            last = change.transition
        }
        return last
    }

    /// Every live bug as the rules have it at `now`, with the transition `reconcile` would save
    /// applied and nothing written: for the commands that only read (`status`, `remind`), which
    /// also work on a store they cannot write.
    public func current(at now: Date) async throws -> [Bug] {
        try await evaluated(bugId: nil, at: now).map { bug, change in
            change.map { BugLifecycle.apply($0.transition, to: bug, at: now, effective: $0.effective) } ?? bug
        }
    }

    /// Each bug (or the one), with the transition the rules give it at `now`, if any, and the
    /// moment it took effect.
    private func evaluated(bugId: UUID?, at now: Date) async throws
        -> [(Bug, (transition: BugLifecycle.Transition, effective: Date)?)] {
        let bugs = try await repos.bugs.getAll().filter { bugId == nil || $0.id == bugId }
        let crashes = try await repos.crashes.getAll()
        let diagnostics = try await repos.diagnostics.getAll()
        let fixes = try await repos.fixes.getAll()
        var out: [(Bug, (transition: BugLifecycle.Transition, effective: Date)?)] = []
        for bug in bugs {
            var retests: [FixCompletion] = []
            if let since = bug.lastRetestAt {
                let mine = Set(fixes.filter { $0.bugId == bug.id }.map(\.id))
                retests = BugLifecycle.retests(of: bug, among: try await repos.completions.getAssigned(from: since, to: .distantFuture),
                                               bugOf: { mine.contains($0) ? bug.id : nil })
            }
            let change = BugLifecycle.evaluate(bug, crashes: crashes, diagnostics: diagnostics, retests: retests,
                                               now: now, calendar: calendar).map { t in
                (t, BugLifecycle.effective(t, of: bug, crashes: crashes, diagnostics: diagnostics, retests: retests,
                                           now: now, calendar: calendar))
            }
            out.append((bug, change))
        }
        return out
    }
}
