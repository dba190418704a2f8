import Foundation

/// The pending fix: the one `egofix applied` (or skipped, failed) marks next. A quick fix queued
/// after a crash and not yet marked comes first (the earliest), until it expires 7 local days
/// after the crash (`Thresholds.quickFixExpiryDays`); else today's daily fix (the first one
/// assigned on the local day), while it is unmarked. An expired quick fix stays in the store as
/// it was (pending); the history shows it as expired.
/// A daily fix from an earlier day that was never marked is not pending: its day is over, and
/// the history shows it as not marked. Except yesterday's, when its timer (`egofix timer`) ran out
/// today, after midnight: it is pending after a quick fix and before today's fix, until it is
/// marked or today ends (`timedPastItsDay`). FIX #160's timer is 24 hours; it always ends the
/// next day, and the fix it timed could not be marked.
///
/// `egofix status`, the site's dashboard and the outcome commands all ask this rule.
public enum PendingFixRule {
    /// - Parameters:
    ///   - completions: any completions, among them the pending quick fixes and today's
    ///     assignments (deleted ones are ignored).
    ///   - fixesById: the catalogue; a completion of a fix it does not hold is not pending.
    ///   - today: the local day of now.
    ///   - dayOf: an instant's local day in the user's calendar.
    ///   - timerEnds: events among them the timers that ran out since yesterday began
    ///     (`timerCompleted`; other events are ignored).
    public static func pending(in completions: [FixCompletion], fixesById: [UUID: Fix], today: LocalDay,
                               dayOf: (Date) -> LocalDay, timerEnds: [AnalyticsEvent]) -> (completion: FixCompletion, fix: Fix)? {
        queue(in: completions, fixesById: fixesById, today: today, dayOf: dayOf, timerEnds: timerEnds).first
    }

    /// Every fix the outcome commands would mark, in the order they mark them: the pending quick
    /// fixes (the earliest first), yesterday's fix whose timer ran out today, today's fix while it
    /// is unmarked. The first is the pending fix. A second crash about another bug queues a second
    /// quick fix: `today` shows them all, and an outcome says which comes next.
    public static func queue(in completions: [FixCompletion], fixesById: [UUID: Fix], today: LocalDay,
                             dayOf: (Date) -> LocalDay, timerEnds: [AnalyticsEvent]) -> [(completion: FixCompletion, fix: Fix)] {
        var out = pendingQuickFixes(in: completions, fixesById: fixesById, today: today, dayOf: dayOf)
        if let timed = timedPastItsDay(in: completions, fixesById: fixesById, today: today, dayOf: dayOf, timerEnds: timerEnds) {
            out.append(timed)
        }
        if let daily = todaysDailyFix(in: completions, fixesById: fixesById, today: today, dayOf: dayOf),
           daily.completion.outcome == .pending {
            out.append(daily)
        }
        return out
    }

    /// The earliest quick fix still pending and not expired.
    public static func pendingQuickFix(in completions: [FixCompletion], fixesById: [UUID: Fix], today: LocalDay,
                                       dayOf: (Date) -> LocalDay) -> (completion: FixCompletion, fix: Fix)? {
        pendingQuickFixes(in: completions, fixesById: fixesById, today: today, dayOf: dayOf).first
    }

    /// The quick fixes still pending and not expired, the earliest first (the same instant by id).
    public static func pendingQuickFixes(in completions: [FixCompletion], fixesById: [UUID: Fix], today: LocalDay,
                                         dayOf: (Date) -> LocalDay) -> [(completion: FixCompletion, fix: Fix)] {
        completions.filter {
            $0.deletedAt == nil && $0.outcome == .pending && fixesById[$0.fixId]?.type == .quickFix
                && !isExpired($0, today: today, dayOf: dayOf)
        }
        .sorted { a, b in a.assignedAt != b.assignedAt ? a.assignedAt < b.assignedAt : a.id.sortsBefore(b.id) }
        // A quick fix given today is among the candidates twice (pending, and given today).
        .reduce(into: [FixCompletion]()) { out, c in if out.last?.id != c.id { out.append(c) } }
        .compactMap { c in fixesById[c.fixId].map { (c, $0) } }
    }

    /// A quick fix still pending `quickFixExpiryDays` local days after it was queued has expired.
    public static func isExpired(_ quick: FixCompletion, today: LocalDay, dayOf: (Date) -> LocalDay) -> Bool {
        quick.outcome == .pending && today.days(since: quick.givenDay(dayOf)) >= Thresholds.quickFixExpiryDays
    }

    /// Yesterday's daily fix, unmarked, when its timer ran out today: the countdown began on its
    /// day and ended after midnight.
    public static func timedPastItsDay(in completions: [FixCompletion], fixesById: [UUID: Fix], today: LocalDay,
                                       dayOf: (Date) -> LocalDay, timerEnds: [AnalyticsEvent]) -> (completion: FixCompletion, fix: Fix)? {
        guard let yesterday = todaysDailyFix(in: completions, fixesById: fixesById, today: today.adding(days: -1), dayOf: dayOf),
              yesterday.completion.outcome == .pending else { return nil }
        let ranOutToday = timerEnds.contains {
            $0.deletedAt == nil && $0.eventType == .timerCompleted && $0.fixId == yesterday.fix.id
                && $0.timestamp >= yesterday.completion.assignedAt && dayOf($0.timestamp) == today
        }
        return ranOutToday ? yesterday : nil
    }

    /// Today's daily (or weekly) fix, whatever its outcome: the first non-quick fix assigned on `today`.
    public static func todaysDailyFix(in completions: [FixCompletion], fixesById: [UUID: Fix], today: LocalDay,
                                      dayOf: (Date) -> LocalDay) -> (completion: FixCompletion, fix: Fix)? {
        let todays = completions.filter { c in
            guard c.deletedAt == nil, let fix = fixesById[c.fixId], fix.type != .quickFix else { return false }
            return c.givenDay(dayOf) == today
        }
        guard let c = earliest(todays), let fix = fixesById[c.fixId] else { return nil }
        return (c, fix)
    }

    /// The earliest assigned; the same instant is settled by id, so the answer never depends on order.
    static func earliest(_ completions: [FixCompletion]) -> FixCompletion? {
        completions.min { a, b in a.assignedAt != b.assignedAt ? a.assignedAt < b.assignedAt : a.id.sortsBefore(b.id) }
    }
}

extension FixCompletion {
    /// The local day it was given for: as kept when it was given (travel does not move it), else,
    /// for a record from before egofix kept it, `dayOf` its `assignedAt`.
    public func givenDay(_ dayOf: (Date) -> LocalDay) -> LocalDay {
        day.map { LocalDay(ordinal: $0) } ?? dayOf(assignedAt)
    }

    /// The local day it is listed and counted on, everywhere: once marked, the day it was marked
    /// (`dayOf` its `dayInstant`); while pending, the day it was given for, so a fix given in Tokyo
    /// and left unmarked stays that day's when the history is read in Los Angeles.
    public func shownDay(_ dayOf: (Date) -> LocalDay) -> LocalDay {
        outcome == .pending ? givenDay(dayOf) : dayOf(dayInstant)
    }
}

extension PendingFixRule {
    /// What a completion's outcome reads as in a history: its outcome, else for a quick fix
    /// "pending" through its days and "expired" after them, for any other fix "pending" on its day
    /// and "not marked" once its day is over.
    /// `stillPending`: the completion `timedPastItsDay` gives, if any (pending though its day is over).
    public static func outcomeText(_ c: FixCompletion, fix: Fix?, today: LocalDay, dayOf: (Date) -> LocalDay, stillPending: UUID?) -> String {
        guard c.outcome == .pending else { return c.outcome.rawValue }
        if c.id == stillPending { return "pending" }
        if fix?.type == .quickFix { return isExpired(c, today: today, dayOf: dayOf) ? "expired" : "pending" }
        return c.givenDay(dayOf) < today ? "not marked" : "pending"
    }

    /// The completions that are reruns: their fix had been applied by an earlier completion. Quick
    /// fixes are not: a bug's few come round after every few crashes, as `today` shows them.
    public static func reruns(in completions: [FixCompletion], fixes: [UUID: Fix]) -> Set<UUID> {
        var appliedBefore = Set<UUID>()
        var reruns = Set<UUID>()
        let ordered = completions.filter { $0.deletedAt == nil && fixes[$0.fixId]?.type != .quickFix }
            .sorted { $0.assignedAt != $1.assignedAt ? $0.assignedAt < $1.assignedAt : $0.id.sortsBefore($1.id) }
        for c in ordered {
            if appliedBefore.contains(c.fixId) { reruns.insert(c.id) }
            if c.outcome == .applied { appliedBefore.insert(c.fixId) }
        }
        return reruns
    }
}
