import Foundation

/// identified → active → stable → resolved, and back to active on regression.
///
/// - identified → active: the user activates the bug.
/// - active → stable: active for at least 28 days, the last 3 weekly diagnostics that asked about it
///   all said quiet, and no crash about it in the last 21 days.
/// - stable → resolved: stable for 90 days with no crash about it and no present or loud rating since.
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

    public static func activate(_ bug: Bug, at now: Date) -> Bug {
        var b = bug
        b.isActive = true
        if b.status == .identified { b.status = .active }
        if b.activatedAt == nil { b.activatedAt = now }
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
        // Read only as far as the answer needs (this runs for every bug on every change).
        var myRatings: [(Date, BugIntensity)] {
            var out: [(Date, BugIntensity)] = []
            out.reserveCapacity(diagnostics.count)
            var lastWeek: Date?
            var inOrder = true
            // Fields read in place: copying each diagnostic out would retain and release its text.
            for i in diagnostics.indices where diagnostics[i].deletedAt == nil {
                guard let r = diagnostics[i].responses.first(where: { $0.bugId == bug.id }) else { continue }
                let week = diagnostics[i].weekStarting
                if let lastWeek, lastWeek > week { inOrder = false }
                lastWeek = week
                out.append((diagnostics[i].completedAt, r.intensity))
            }
            // By week (a stable sort, so the same as sorting the diagnostics first); most callers pass them in order.
            guard !inOrder else { return out }
            var weeks: [Date] = []
            for i in diagnostics.indices where diagnostics[i].deletedAt == nil
                && diagnostics[i].responses.contains(where: { $0.bugId == bug.id }) {
                weeks.append(diagnostics[i].weekStarting)
            }
            return weeks.indices.sorted { weeks[$0] < weeks[$1] }.map { out[$0] }
        }

        switch bug.status {
        case .identified:
            return nil
        case .active:
            // The ratings first: they are at hand, where the days ask the time zone (all must hold).
            let lastRatings = myRatings.suffix(Thresholds.stableQuietWeeks)
            guard lastRatings.count == Thresholds.stableQuietWeeks,
                  lastRatings.allSatisfy({ $0.1 == .quiet }) else { return nil }
            let today = LocalDay(now, calendar: calendar)
            guard let activated = bug.activatedAt,
                  today.days(since: LocalDay(activated, calendar: calendar)) >= Thresholds.stableMinimumActiveDays
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
            let myRatings = myRatings
            if myRatings.contains(where: { $0.0 > since && $0.1 == .loud }) {
                return .regressed(reason: "rated loud in the weekly diagnostic")
            }
            if retests.contains(where: { $0.deletedAt == nil && $0.outcome == .failed && ($0.completedAt ?? $0.assignedAt) > since }) {
                return .regressed(reason: "retest failed")
            }
            guard bug.status == .stable, let stable = bug.stableSince else { return nil }
            let days = LocalDay(now, calendar: calendar).days(since: LocalDay(stable, calendar: calendar))
            let noisy = myRatings.contains { $0.0 > stable && $0.1 != .quiet }
            return days >= Thresholds.resolvedAfterStableDays && !noisy ? .resolved : nil
        }
    }

    /// Applies a transition, stamping the dates the lifecycle keeps.
    public static func apply(_ t: Transition, to bug: Bug, at now: Date) -> Bug {
        var b = bug
        b.status = t.newStatus
        b.updatedAt = now
        switch t {
        case .activated:
            b.isActive = true
            if b.activatedAt == nil { b.activatedAt = now }
        case .stabilised:
            b.stableSince = now
            b.lastRetestAt = nil
        case .resolved:
            b.resolvedAt = now
        case .regressed:
            b.stableSince = nil
            b.resolvedAt = nil
            b.lastRetestAt = nil
        }
        return b
    }
}
