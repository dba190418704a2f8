import Foundation

/// What `egofix amend` changed: the mark as it was and as it is, and what followed from it.
public struct AmendResult: Sendable {
    public let before: FixCompletion
    public let after: FixCompletion
    public let fix: Fix
    /// The version before and after, when the amend moved it (an applied fix taken back, or given).
    public let version: (before: String, after: String)?
    /// Each bug that changed state (failing a retest sends a stable bug back to active).
    public let changed: [(bug: Bug, transition: BugLifecycle.Transition)]
}

/// Today's mark put right: `failed` typed for `skipped`, a wrong count, a typo in the reflection.
///
/// - Only a mark made today (the local day of `now`) can be amended: earlier days are closed.
/// - The mark is replaced, not edited in place: the first version is soft-deleted with its text
///   intact (nothing the user wrote is dropped), and a new record holds the amended one, with the
///   same fix, assignment, day and marking instant. A sync then takes the deletion over the other
///   machines' copies of the first version without keeping its text as a note from "another
///   machine" (`SyncRules.keptVersion` keeps a losing version only when its text or outcome
///   differs from the winner's, and the deleted version's are its own).
/// - What follows from the outcome follows the new one: the outcome's event (the detectors read
///   outcomes from events) is replaced at the same instant; the version entries and the
///   profile's version are recomputed from the applied fixes (`SyncRules.resolveVersions`, as a
///   sync does); the bug's lifecycle is settled again (a retest amended to failed regresses it).
/// - The streak does not move: the day still has its mark, at the same instant.
/// - A failed retest that sent its bug back to active cannot be amended to another outcome: the
///   bug's stable dates were cleared by the regression, and are not kept to restore. Its
///   reflection and answer can still be amended.
public struct AmendService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public enum AmendError: Error, Equatable, CustomStringConvertible {
        case nothingMarked
        case notToday(fix: String, day: String)
        case noMarkToday(fix: String)
        /// --fix with a number no fix of the catalogue has ("FIX #999 has no mark today").
        case noSuchFix(number: Int)
        /// `answer`: the option that records the fix's answer (`--count N` for a counter), nil for
        /// a fix that takes none.
        case unchanged(fix: String, outcome: FixOutcome, answer: String?)
        case retestRegressed(fix: String, bug: String)

        public var description: String {
            switch self {
            case .nothingMarked:
                return "nothing is marked yet. `egofix applied`, `skipped` or `failed` marks the pending fix."
            case .notToday(let fix, let day):
                return "the last mark, \(fix)'s, was made on \(day). A day's marks close with the day; `egofix amend` changes today's."
            case .noMarkToday(let fix):
                return "\(fix) has no mark today. `egofix amend` without --fix changes the latest of today's."
            case .noSuchFix(let n):
                return "no FIX #\(Fix.pad(n)) in the catalogue. Give the number on the card; `egofix amend` without --fix changes the latest of today's marks. Nothing recorded."
            case .unchanged(let fix, let outcome, let answer):
                // A standard fix has no answer to give ("and answer already" asked for one it lacks).
                return "nothing to amend: \(fix) is marked \(outcome.rawValue) already, with that reflection\(answer == nil ? "" : " and answer"). "
                    + "Give another outcome, -m or -e\(answer.map { ", or \($0)" } ?? ""). Nothing recorded."
            case .retestRegressed(let fix, let bug):
                return "\(fix) was a retest, and failing it sent \(bug) back to active. That stands: the outcome stays failed. "
                    + "-m or -e still changes the reflection. Nothing recorded."
            }
        }
    }

    /// The mark to amend: today's latest (by the instant it was marked, then id), or today's mark
    /// of the fix numbered `fixNumber`.
    public func target(at now: Date, fixNumber: Int? = nil) async throws -> (FixCompletion, Fix) {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(uniqueKeysWithValues: fixes.map { ($0.id, $0) })
        let marked = try await repos.completions.getAll()
            .filter { $0.userId == user.id && $0.outcome != .pending && $0.completedAt != nil && byId[$0.fixId] != nil }
            .sorted { a, b in
                let (x, y) = (a.completedAt ?? a.assignedAt, b.completedAt ?? b.assignedAt)
                return x != y ? x < y : a.id.uuidString < b.id.uuidString
            }
        let today = LocalDay(now, calendar: calendar)
        func isToday(_ c: FixCompletion) -> Bool { LocalDay(c.completedAt ?? c.assignedAt, calendar: calendar) == today }
        if let n = fixNumber, !fixes.contains(where: { $0.number == n }) { throw AmendError.noSuchFix(number: n) }
        let candidates = fixNumber.map { n in marked.filter { byId[$0.fixId]?.number == n } } ?? marked
        let anyToday = marked.last.map(isToday) ?? false
        guard let last = candidates.last, let fix = byId[last.fixId] else {
            if let n = fixNumber, anyToday { throw AmendError.noMarkToday(fix: "FIX #" + Fix.pad(n)) }
            if marked.isEmpty { throw AmendError.nothingMarked }
            return try await target(at: now, fixNumber: nil)
        }
        guard isToday(last) else {
            if fixNumber != nil, anyToday { throw AmendError.noMarkToday(fix: fix.label) }
            if fixNumber != nil { return try await target(at: now, fixNumber: nil) }
            throw AmendError.notToday(fix: fix.label, day: LocalDay(last.completedAt ?? last.assignedAt, calendar: calendar).description)
        }
        return (last, fix)
    }

    /// Replaces `old` (today's mark of `fix`) with the amended one, and settles what follows from
    /// it. Everything is checked before anything is written; the caller runs it in one transaction.
    public func amend(_ old: FixCompletion, fix: Fix, outcome: FixOutcome, reflection: String?, outcomeData: Data?,
                      at now: Date) async throws -> AmendResult {
        guard var user = try await repos.users.get() else { throw PracticeError.noProfile }
        guard outcome != .pending else { throw FixCompletion.TransitionError.notAnOutcome }
        if let reflection, reflection.utf8.count > Thresholds.maxMarkdownBytes {
            throw PracticeError.reflectionTooLong(bytes: reflection.utf8.count)
        }
        let trimmed = reflection?.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = trimmed?.isEmpty == false ? reflection : nil
        guard outcome != old.outcome || text != old.reflection || outcomeData != old.outcomeData else {
            let answer: String? = switch fix.interactionType {
            case .standard: nil
            case .timed: "--timer-done"
            case .multiStep: "--steps N"
            case .quiz, .scenario: "--option ID"
            case .counter: "--count N"
            }
            throw AmendError.unchanged(fix: fix.label, outcome: old.outcome, answer: answer)
        }
        let bug = try await repos.bugs.getById(fix.bugId)
        if outcome != old.outcome, old.outcome == .failed, let bug, let at = old.completedAt, bug.regressedAt == at {
            throw AmendError.retestRegressed(fix: fix.label, bug: bug.title)
        }
        let markedAt = old.completedAt ?? now
        var new = FixCompletion(fixId: old.fixId, userId: old.userId, assignedAt: old.assignedAt, createdAt: old.createdAt, day: old.day)
        try new.mark(outcome, at: markedAt, reflection: text, outcomeData: outcomeData)
        // The first version, deleted with its text intact. Never at its own assignment instant,
        // which is how a sync marks a completion that lost the same-day rule (`isSuperseded`).
        var first = old
        first.deletedAt = now == old.assignedAt ? now.addingTimeInterval(0.001) : now
        try await repos.completions.save(first)
        try await repos.completions.save(new)

        if outcome != old.outcome {
            try await replaceEvent(of: old, fix: fix, with: outcome, userId: user.id, at: markedAt)
        }
        var version: (before: String, after: String)?
        if outcome != old.outcome && (outcome == .applied || old.outcome == .applied) {
            let live = try await repos.completions.getAll().filter { $0.userId == user.id }
            for e in SyncRules.resolveVersions(entries: try await repos.versions.getAll().filter { $0.userId == user.id },
                                               applied: live, userId: user.id) {
                try await repos.versions.save(e)
            }
            let now = VersionRules.version(forAppliedCount: live.filter { $0.outcome == .applied }.count).description
            if now != user.currentVersion {
                version = (user.currentVersion, now)
                user.currentVersion = now
                try await repos.users.save(user)
            }
        }
        let changed = try await LifecycleService(repos: repos, calendar: calendar).reconcileEach(bugId: fix.bugId, at: now)
        return AmendResult(before: old, after: new, fix: fix, version: version, changed: changed)
    }

    /// The outcome's event, replaced by one of the new outcome at the same instant (the
    /// detectors read outcomes from events first). One is made when the mark has none (an
    /// imported record).
    private func replaceEvent(of old: FixCompletion, fix: Fix, with outcome: FixOutcome, userId: UUID, at markedAt: Date) async throws {
        guard let type = EventType.marking(outcome) else { return }
        let was = try await repos.events.getBetween(markedAt, markedAt.addingTimeInterval(0.001))
            .filter { $0.fixId == fix.id && $0.eventType == EventType.marking(old.outcome) && $0.timestamp == markedAt }
        for e in was {
            try await repos.events.delete(e.id)
            try await repos.events.save(AnalyticsEvent(userId: e.userId, eventType: type, bugId: e.bugId, fixId: e.fixId,
                                                       context: e.context, dayOfWeek: e.dayOfWeek, hourOfDay: e.hourOfDay, timestamp: e.timestamp))
        }
        if was.isEmpty {
            try await EventRecorder(repos: repos, calendar: calendar).record(type, userId: userId, bugId: fix.bugId, fixId: fix.id, at: markedAt)
        }
    }
}
