import EgoFixCore
import Foundation

/// The records a site shows: those on days up to two days after today (a flight west over the
/// date line leaves "tomorrow" holding records), as `history` reads them. A record from a clock
/// that ran ahead waits for its day: it is on no page, in no count, no changelog entry and no
/// feed until then, and the build says so (one such record used to make week pages up to 2099,
/// and a version from 2029 stood in the changelog of 2026).
enum SiteHorizon {
    /// Days after today whose records a site still shows.
    static let daysAfterToday = 2

    /// `p` without the records on days after the horizon (each on the day it counted where it was
    /// made, `RecordedDays`, as the ledger places it), and how many days held them, with the
    /// latest. With nothing ahead (the usual case) `p` itself, found by one look at the instants.
    static func clip(_ p: Practice, now: Date, calendar: Calendar) -> (Practice, ahead: (count: Int, latest: LocalDay)?) {
        let horizon = LocalDay(now, calendar: calendar).adding(days: daysAfterToday)
        // A record's day, where it was made or here, is at most the day after its UTC date (no
        // zone is more than 14 hours ahead of UTC), so a record on a day after the horizon was made
        // on the horizon's UTC date or later.
        let soonest = Date(timeIntervalSince1970: Double(horizon.ordinal) * 86_400)
        let anyAhead = p.completions.contains { $0.dayInstant >= soonest || $0.assignedAt >= soonest }
            || p.crashes.contains { $0.crashedAt >= soonest } || p.versions.contains { $0.createdAt >= soonest }
            || p.events.contains { $0.timestamp >= soonest } || p.diagnostics.contains { $0.completedAt >= soonest }
            || p.patterns.contains { $0.detectedAt >= soonest }
        guard anyAhead else { return (p, nil) }

        let toDay = RecordedDays(events: p.events.filter { $0.deletedAt == nil }, calendar: calendar)
        var days = Set<LocalDay>()
        func keep(_ day: LocalDay, live: Bool) -> Bool {
            guard day > horizon else { return true }
            if live { days.insert(day) }
            return false
        }
        var q = p
        q.completions = p.completions.filter { keep(toDay.day(of: $0), live: $0.deletedAt == nil) }
        q.crashes = p.crashes.filter { keep(toDay.day(of: $0), live: $0.deletedAt == nil) }.map { c in
            // A crash kept, rebooted on a day not shown yet: not rebooted as far as the site goes.
            guard let r = c.rebootedAt, r >= soonest, toDay.day(r, madeWith: .crashRebooted, token: c.syncToken) > horizon else { return c }
            var kept = c
            kept.rebootedAt = nil
            return kept
        }
        q.versions = p.versions.filter { v in
            keep(v.changeType == .reboot ? toDay.day(v.createdAt, madeWith: .crashRebooted, token: v.syncToken) : toDay.day(v.createdAt),
                 live: v.deletedAt == nil)
        }
        q.events = p.events.filter { keep(toDay.day(of: $0), live: $0.deletedAt == nil) }
        q.diagnostics = p.diagnostics.filter { keep(toDay.day($0.completedAt, madeWith: .weeklyCompleted, token: $0.syncToken), live: $0.deletedAt == nil) }
        q.patterns = p.patterns.filter { LocalDay($0.detectedAt, calendar: calendar) <= horizon }
        // The version and the streak the profile stands at are the ones the records kept reach,
        // replayed as a sync replays them (the stored ones counted the records left out).
        if let profile = q.profile, !days.isEmpty {
            var bare = profile
            bare.longestStreak = 0
            bare.lastEngagementDay = nil
            bare.lastEngagementDate = nil
            let applied = q.completions.filter { $0.deletedAt == nil && $0.outcome == .applied }.count
            q.profile = SyncRules.derivedProfile(bare, appliedCount: applied, engagements: SyncRules.engagements(
                completions: q.completions, crashes: q.crashes, diagnostics: q.diagnostics, events: q.events, calendar: calendar))
        }
        return (q, days.max().map { (days.count, $0) })
    }
}
