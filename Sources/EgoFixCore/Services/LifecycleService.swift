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
        let bugs = try await repos.bugs.getAll().filter { bugId == nil || $0.id == bugId }
        let crashes = try await repos.crashes.getAll()
        let diagnostics = try await repos.diagnostics.getAll()
        let fixes = try await repos.fixes.getAll()
        var last: BugLifecycle.Transition?
        for bug in bugs {
            var retests: [FixCompletion] = []
            if let since = bug.lastRetestAt {
                let mine = Set(fixes.filter { $0.bugId == bug.id }.map(\.id))
                retests = BugLifecycle.retests(of: bug, among: try await repos.completions.getAssigned(from: since, to: .distantFuture),
                                               bugOf: { mine.contains($0) ? bug.id : nil })
            }
            if let t = BugLifecycle.evaluate(bug, crashes: crashes, diagnostics: diagnostics, retests: retests,
                                             now: now, calendar: calendar) {
                try await repos.bugs.save(BugLifecycle.apply(t, to: bug, at: now))
                last = t
            }
        }
        return last
    }
}
