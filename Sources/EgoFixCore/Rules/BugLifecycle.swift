import Foundation

/// identified → active → stable → resolved, and back to active on regression.
///
/// - identified → active: the user activates the bug.
/// - active → stable: active for at least 28 days, the last 3 weekly diagnostics that asked about it
///   all said quiet, and no crash about it in the last 21 days. The active period starts again at a
///   regression or a new activation: only ratings made since count, and its 28 days count from it.
/// - stable → resolved: stable for 90 days with no crash about it, and no present or loud rating in
///   the last 90 days.
/// - stable or resolved → active (a regression): a crash about it, a loud rating, or a failed retest.
/// - A stable bug is retested every 30 days: its fix comes back as the day's fix.
public enum BugLifecycle {
    public enum Transition: Equatable, Sendable {
        case activated
        case stabilised
        case resolved
        case regressed(reason: String)

        public var newStatus: BugStatus {
            switch self {
            case .activated, .regressed: return .active
            case .stabilised: return .stable
            case .resolved: return .resolved
            }
        }
    }

    /// Activating a bug that is not active starts its clock again: the severity ramp and the 28
    /// active days before it can become stable count from this activation, not an earlier one. A
    /// stable or resolved bug taken up again is active: its stability is earned again (it kept
    /// "resolved" and its old stable date, and was only retested).
    public static func activate(_ bug: Bug, at now: Date) -> Bug {
        var b = bug
        if b.status == .identified { b.status = .active }
        if !b.isActive || b.activatedAt == nil {
            b.activatedAt = now
            if b.status != .active {
                b.status = .active
                b.stableSince = nil
                b.resolvedAt = nil
                b.lastRetestAt = nil
            }
        }
        b.isActive = true
        b.updatedAt = now
        return b
    }

    public static func deactivate(_ bug: Bug, at now: Date) -> Bug {
        var b = bug
        b.isActive = false
        b.updatedAt = now
        return b
    }

    /// What should happen to this bug now, given its crashes, diagnostics and retest outcomes.
    public static func evaluate(_ bug: Bug, crashes: [Crash], diagnostics: [WeeklyDiagnostic],
                                retests: [FixCompletion], now: Date, calendar: Calendar) -> Transition? {
        // Read only as far as the answer needs (this runs for every bug on every change), in place:
        // copying each diagnostic out would retain and release its text.
        func forEachRating(_ body: (_ completed: Date, _ intensity: BugIntensity, _ week: Date) -> Void) {
            for i in diagnostics.indices where diagnostics[i].deletedAt == nil {
                guard let r = diagnostics[i].responses.first(where: { $0.bugId == bug.id }) else { continue }
                body(diagnostics[i].completedAt, r.intensity, diagnostics[i].weekStarting)
            }
        }
        switch bug.status {
        case .identified:
            return nil
        case .active:
            // The ratings first: they are at hand, where the days ask the time zone (all must hold).
            // The last ratings by week all quiet: when the diagnostics come in week order (most
            // callers pass them so), the run of quiet ratings at the end is long enough.
            // The active period runs from the later of the last activation and the last
            // regression: only ratings made in it count, and it must be 28 days long.
            let fresh = activePeriodStart(of: bug)
            var quietRun = 0
            var lastWeek: Date?
            var inOrder = true
            forEachRating { completed, intensity, week in
                guard completed > fresh else { return }
                if let lastWeek, lastWeek > week { inOrder = false }
                lastWeek = week
                quietRun = intensity == .quiet ? quietRun + 1 : 0
            }
            if inOrder {
                guard quietRun >= Thresholds.stableQuietWeeks else { return nil }
            } else {
                let lastRatings = ratings(of: bug, in: diagnostics, after: fresh).suffix(Thresholds.stableQuietWeeks)
                guard lastRatings.count == Thresholds.stableQuietWeeks,
                      lastRatings.allSatisfy({ $0.intensity == .quiet }) else { return nil }
            }
            let today = LocalDay(now, calendar: calendar)
            guard bug.activatedAt != nil,
                  today.days(since: LocalDay(fresh, calendar: calendar)) >= Thresholds.stableMinimumActiveDays
            else { return nil }
            let recentCrash = crashes.contains {
                $0.deletedAt == nil && $0.bugId == bug.id
                    && today.days(since: LocalDay($0.crashedAt, calendar: calendar)) < Thresholds.stableCrashFreeDays
            }
            return recentCrash ? nil : .stabilised
        case .stable, .resolved:
            let since = (bug.status == .resolved ? bug.resolvedAt : nil) ?? bug.stableSince ?? bug.updatedAt
            if crashes.contains(where: { $0.deletedAt == nil && $0.bugId == bug.id && $0.crashedAt > since }) {
                return .regressed(reason: "crash logged")
            }
            // Order does not matter from here: one pass for both questions asked of the ratings.
            // A present rating holds resolution off for 90 days, not for good (one present week
            // two weeks into stability kept a bug from resolving for ever).
            var loud = false, noisy = false
            let stableSince = bug.stableSince
            let today = LocalDay(now, calendar: calendar)
            forEachRating { completed, intensity, _ in
                if completed > since && intensity == .loud { loud = true }
                if let stableSince, completed > stableSince, intensity != .quiet,
                   today.days(since: LocalDay(completed, calendar: calendar)) < Thresholds.resolvedAfterStableDays { noisy = true }
            }
            if loud {
                return .regressed(reason: "rated loud in the weekly diagnostic")
            }
            if retests.contains(where: { $0.deletedAt == nil && $0.outcome == .failed && ($0.completedAt ?? $0.assignedAt) > since }) {
                return .regressed(reason: "retest failed")
            }
            guard bug.status == .stable, let stable = bug.stableSince else { return nil }
            let days = LocalDay(now, calendar: calendar).days(since: LocalDay(stable, calendar: calendar))
            return days >= Thresholds.resolvedAfterStableDays && !noisy ? .resolved : nil
        }
    }

    /// When a transition `evaluate` gives at `now` took effect: the moment its conditions first
    /// held, not the moment a command or a build first looked. A bug that became stable by time
    /// alone reads "stable since" the same day whichever command, build or machine saw it first.
    /// - stable: the latest of its third quiet rating in a row, its 28th active day, and the 21st
    ///   day after its last crash;
    /// - resolved: its 90th stable day, or the 90th day after its last rating that was not quiet,
    ///   whichever is later;
    /// - a regression: its first crash, loud rating or failed retest since it became stable;
    /// - an activation: `now`.
    /// A day reached by counting is stamped at its local noon, not its midnight: read in a zone up
    /// to 12 hours away it is still that day (a midnight stamp read further west was the day
    /// before, one day short of the rule). Never after `now` (a record from a clock that ran ahead
    /// does not date a bug's change).
    public static func effective(_ t: Transition, of bug: Bug, crashes: [Crash], diagnostics: [WeeklyDiagnostic],
                                 retests: [FixCompletion], now: Date, calendar: Calendar) -> Date {
        func ratings(after start: Date) -> [(completed: Date, intensity: BugIntensity)] {
            BugLifecycle.ratings(of: bug, in: diagnostics, after: start).map { ($0.completed, $0.intensity) }
        }
        func noonOfDay(_ instant: Date, plus days: Int) -> Date { noon(of: instant, plus: days, calendar: calendar) }
        let mine = crashes.filter { $0.deletedAt == nil && $0.bugId == bug.id }
        var at: Date
        switch t {
        case .activated:
            return now
        case .stabilised:
            let fresh = activePeriodStart(of: bug)
            let rated = ratings(after: fresh)
            let quiet = rated.reversed().prefix { $0.intensity == .quiet }.reversed()
            at = quiet.prefix(Thresholds.stableQuietWeeks).map(\.completed).max() ?? now
            at = max(at, noonOfDay(fresh, plus: Thresholds.stableMinimumActiveDays))
            if let crash = mine.map(\.crashedAt).max() { at = max(at, noonOfDay(crash, plus: Thresholds.stableCrashFreeDays)) }
        case .resolved:
            guard let stable = bug.stableSince else { return now }
            at = noonOfDay(stable, plus: Thresholds.resolvedAfterStableDays)
            if let noisy = ratings(after: stable).filter({ $0.intensity != .quiet }).map(\.completed).max() {
                at = max(at, noonOfDay(noisy, plus: Thresholds.resolvedAfterStableDays))
            }
        case .regressed:
            let since = (bug.status == .resolved ? bug.resolvedAt : nil) ?? bug.stableSince ?? bug.updatedAt
            let causes = mine.map(\.crashedAt).filter { $0 > since }
                + ratings(after: since).filter { $0.intensity == .loud }.map(\.completed)
                + retests.filter { $0.deletedAt == nil && $0.outcome == .failed }.map { $0.completedAt ?? $0.assignedAt }.filter { $0 > since }
            at = causes.min() ?? now
        }
        return min(at, now)
    }

    /// The local noon `days` days after `instant`'s day: where a day reached by counting is stamped.
    static func noon(of instant: Date, plus days: Int, calendar: Calendar) -> Date {
        LocalDay(instant, calendar: calendar).adding(days: days).at(hour: 12, in: calendar)
    }

    /// When an active bug's ratings first made it stable, had it been looked at every day: the
    /// first run of 3 quiet weeks in a row (in week order) in its active period whose stability
    /// (dated as `effective` dates it: the run's third rating, the 28th active day, 21 days after a
    /// crash) fell on a day that began before the rating that ended the run, and by `now` (a
    /// command any time that day saw it; dated just before that rating when it came that morning,
    /// and never after `now`). Nil for a bug in any other
    /// state or with no such run. `evaluate` asks only whether the last 3 ratings are quiet now,
    /// which is the same question while every machine sees every week; a merge can bring in the
    /// weeks that complete a run after a later present week was rated.
    public static func firstStability(of bug: Bug, crashes: [Crash], diagnostics: [WeeklyDiagnostic],
                                      now: Date, calendar: Calendar) -> Date? {
        guard bug.status == .active, bug.activatedAt != nil else { return nil }
        let fresh = activePeriodStart(of: bug)
        let rated = ratings(of: bug, in: diagnostics, after: fresh)
        let crashed = crashes.filter { $0.deletedAt == nil && $0.bugId == bug.id }.map(\.crashedAt).sorted()
        let weeks = Thresholds.stableQuietWeeks
        var start = 0
        while start < rated.count {
            var end = start
            while end < rated.count && rated[end].intensity == .quiet { end += 1 }
            if end - start >= weeks {
                var at = max(rated[start..<start + weeks].map(\.completed).max() ?? now,
                             noon(of: fresh, plus: Thresholds.stableMinimumActiveDays, calendar: calendar))
                for crash in crashed {
                    guard crash <= at else { break }
                    if LocalDay(at, calendar: calendar).days(since: LocalDay(crash, calendar: calendar)) < Thresholds.stableCrashFreeDays {
                        at = noon(of: crash, plus: Thresholds.stableCrashFreeDays, calendar: calendar)
                    }
                }
                // Due from the start of its day (a command that day saw it; it is dated at noon):
                // before the week that ended the run, it held; dated just before that week when
                // the week was rated that morning.
                let dayStart = LocalDay(at, calendar: calendar).start(in: calendar)
                if dayStart <= now && (end == rated.count || dayStart < rated[end].completed) {
                    return min(at, now, end == rated.count ? at : rated[end].completed.addingTimeInterval(-0.001))
                }
            }
            start = end + 1
        }
        return nil
    }

    /// The bug's ratings made after `start`, by week (a stable sort, so the same as sorting the
    /// diagnostics first).
    static func ratings(of bug: Bug, in diagnostics: [WeeklyDiagnostic], after start: Date)
        -> [(completed: Date, intensity: BugIntensity, week: Date)] {
        var out: [(completed: Date, intensity: BugIntensity, week: Date)] = []
        for i in diagnostics.indices where diagnostics[i].deletedAt == nil && diagnostics[i].completedAt > start {
            if let r = diagnostics[i].responses.first(where: { $0.bugId == bug.id }) {
                out.append((diagnostics[i].completedAt, r.intensity, diagnostics[i].weekStarting))
            }
        }
        return out.indices.sorted { out[$0].week < out[$1].week }.map { out[$0] }
    }

    /// Whether a stable (or resolved) bug's stability stands on its ratings: 3 quiet weeks in a
    /// row in its active period, in week order, among the weeks up to its stable date (a bug in
    /// any other state: true). Not only the last 3: a stable bug stays stable through a present
    /// week, so a machine that saw the quiet run late dates it later, after that present week.
    public static func stabilityStands(_ bug: Bug, diagnostics: [WeeklyDiagnostic]) -> Bool {
        guard bug.status == .stable || bug.status == .resolved, let since = bug.stableSince else { return true }
        let fresh = activePeriodStart(of: bug)
        var run = 0
        for r in ratings(of: bug, in: diagnostics, after: fresh) where r.week <= since {
            run = r.intensity == .quiet ? run + 1 : 0
            if run >= Thresholds.stableQuietWeeks { return true }
        }
        return false
    }

    /// Whether a resolved bug's resolution stands on its ratings: none after its stable date that
    /// was not quiet fewer than 90 days before its resolution (a bug in any other state: true).
    public static func resolutionStands(_ bug: Bug, diagnostics: [WeeklyDiagnostic], calendar: Calendar) -> Bool {
        guard bug.status == .resolved, let since = bug.stableSince, let resolved = bug.resolvedAt else { return true }
        let day = LocalDay(resolved, calendar: calendar)
        return !ratings(of: bug, in: diagnostics, after: since).contains {
            $0.intensity != .quiet && $0.completed <= resolved
                && day.days(since: LocalDay($0.completed, calendar: calendar)) < Thresholds.resolvedAfterStableDays
        }
    }

    /// When the bug's active period began: the later of its last activation and its last
    /// regression. Only ratings made after it count towards stability.
    public static func activePeriodStart(of bug: Bug) -> Date {
        max(bug.regressedAt ?? .distantPast, bug.activatedAt ?? .distantPast)
    }

    /// A resolved bug put back to stable, its resolution taken back (a week that was not quiet
    /// inside its 90 days turned up after it).
    public static func unresolved(_ bug: Bug, at now: Date) -> Bug {
        var b = bug
        b.status = .stable
        b.resolvedAt = nil
        b.updatedAt = now
        return b
    }

    /// A stable or resolved bug put back to active, its stability taken back (the ratings it stood
    /// on changed): the lifecycle decides again from the ratings there are.
    public static func unstabilised(_ bug: Bug, at now: Date) -> Bug {
        var b = bug
        b.status = .active
        b.stableSince = nil
        b.resolvedAt = nil
        b.lastRetestAt = nil
        b.updatedAt = now
        return b
    }

    /// A bug's retests: the completions of its fixes assigned since its last retest began (none
    /// without one). `bugOf` names a fix's bug.
    public static func retests(of bug: Bug, among completions: [FixCompletion], bugOf: (UUID) -> UUID?) -> [FixCompletion] {
        guard let since = bug.lastRetestAt else { return [] }
        return completions.filter { $0.assignedAt >= since && bugOf($0.fixId) == bug.id }
    }

    /// The practice's bugs as the rules have them at `now`: each with the transition
    /// `LifecycleService.reconcile` would save, applied in memory. For what only reads (a build):
    /// a bug that became stable by time alone read as active until the next `egofix today`.
    public static func settled(_ p: Practice, at now: Date, calendar: Calendar) -> [Bug] {
        var bugOf: [UUID: UUID] = [:]
        if p.bugs.contains(where: { $0.lastRetestAt != nil }) {
            for f in p.fixes { bugOf[f.id] = f.bugId }
        }
        return p.bugs.map { bug in
            settle(bug, crashes: p.crashes, diagnostics: p.diagnostics, retests: { retests(of: $0, among: p.completions, bugOf: { bugOf[$0] }) },
                   now: now, calendar: calendar).bug
        }
    }

    /// A bug with every transition the rules give it at `now` applied, each dated when it took
    /// effect, and the last of them. Dated so, one change can make the next one due at once (a bug
    /// stable since March is resolved by July), so they are applied until none is left: whichever
    /// command or build looks, and however often, the bug reads the same. At most one of each
    /// kind (regressed, stable, resolved) follows another.
    public static func settle(_ bug: Bug, crashes: [Crash], diagnostics: [WeeklyDiagnostic], retests: (Bug) -> [FixCompletion],
                              now: Date, calendar: Calendar) -> (bug: Bug, last: Transition?) {
        var b = bug, last: Transition?
        for _ in 0..<3 {
            let r = retests(b)
            guard let t = evaluate(b, crashes: crashes, diagnostics: diagnostics, retests: r, now: now, calendar: calendar) else { break }
            let at = effective(t, of: b, crashes: crashes, diagnostics: diagnostics, retests: r, now: now, calendar: calendar)
            b = apply(t, to: b, at: now, effective: at)
            last = t
        }
        return (b, last)
    }

    /// Applies a transition, stamping the dates the lifecycle keeps with the moment it took
    /// effect (`effective`, else `now`); `now` is when the record changed.
    public static func apply(_ t: Transition, to bug: Bug, at now: Date, effective: Date? = nil) -> Bug {
        var b = bug
        let at = effective ?? now
        b.status = t.newStatus
        b.updatedAt = now
        switch t {
        case .activated:
            b.isActive = true
            if b.activatedAt == nil { b.activatedAt = at }
        case .stabilised:
            b.stableSince = at
            b.lastRetestAt = nil
        case .resolved:
            b.resolvedAt = at
        case .regressed:
            b.stableSince = nil
            b.resolvedAt = nil
            b.lastRetestAt = nil
            b.regressedAt = at
        }
        return b
    }
}
