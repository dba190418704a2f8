import Foundation

/// The rules `egofix sync` applies after it has merged several machines' records by id. They are
/// pure functions of the merged records, so every machine that holds the same records computes
/// the same result, whatever order the machines synced in. docs/sync.md states them in words.
public enum SyncRules {
    // MARK: - Which version of a record wins

    /// The `updatedAt` an edit stamps: the clock, unless the record's stored stamp is not before
    /// it (a clock pinned with `--now`, two edits within one tick, or a version merged from a
    /// machine whose clock runs ahead); then one millisecond after the stored stamp. An edit is
    /// therefore newer than every version of the record this machine has seen, so `newer` lets
    /// it win over them on every machine; without this, an edit at a tie on the clock could lose
    /// to a version this machine had already merged and will not read again, and two machines
    /// would keep different records.
    public static func editStamp(previous: Date?, now: Date) -> Date {
        guard let p = previous, p >= now else { return now }
        return p.addingTimeInterval(0.001)
    }

    /// Two versions of one record (same id): the later `updatedAt` wins; at the same instant a
    /// deleted version beats a live one, then the greater syncToken (the id of the machine that
    /// made the record), then the greater canonical encoding (`tieBreak`, bytes compared in order).
    /// A total order, so the merge is the same in any order.
    public static func newer(updatedAt a: Date, deleted ad: Bool, token at: String?,
                             than b: Date, deleted bd: Bool, token bt: String?,
                             tieBreak: () -> Bool) -> Bool {
        if a != b { return a > b }
        if ad != bd { return ad }
        let (x, y) = (at ?? "", bt ?? "")
        if x != y { return x > y }
        return tieBreak()
    }

    // MARK: - The same day's fix marked on two machines

    /// How a completion that lost the same-day rule is marked: soft-deleted at its own assignedAt.
    /// (A deletion by a command stamps the clock instead, which is never the assignment instant.)
    public static func isSuperseded(_ c: FixCompletion) -> Bool {
        c.deletedAt != nil && c.deletedAt == c.assignedAt
    }

    /// The start of each note kept from another machine inside the winning reflection.
    static let noteStart = "*Also written on another machine, marked "

    /// A reflection without the notes this rule appended to it: what its own machine recorded.
    public static func ownText(_ reflection: String?) -> String {
        guard let r = reflection else { return "" }
        if r.hasPrefix(noteStart) { return "" }
        if let range = r.range(of: "\n\n" + noteStart) { return String(r[..<range.lowerBound]) }
        return r
    }

    /// The note that keeps a losing completion's text: who it was, then the text.
    static func note(for c: FixCompletion, text: String) -> String {
        noteStart + c.outcome.rawValue + " (note " + String(c.id.uuidString.prefix(8)) + "):*\n\n" + text
    }

    /// One local day may hold one daily (or weekly) fix. When machines assigned or marked it
    /// separately, the day's completions (live ones, and those superseded before) are resolved:
    ///
    /// - the winner is the marked one over a pending one, then the latest `updatedAt`, then the
    ///   greater syncToken (machine id), then the greater id;
    /// - every other one is superseded (soft-deleted at its own assignedAt) and keeps its text;
    /// - the winner's reflection is its own text followed by each other one's own text as a note,
    ///   in (updatedAt, id) order, while the whole stays within `Thresholds.maxMarkdownBytes`
    ///   (a note over that is kept only in its own, superseded record).
    ///
    /// Quick fixes are not grouped by day (each crash queues its own), only with the versions of
    /// themselves: one quick fix marked on two machines keeps the other machine's text as a note,
    /// as a daily fix does (it was left only in its superseded record, on no page). Returns the
    /// completions changed.
    ///
    /// A fix given before egofix kept its day (a store from before schema v4) is grouped on the
    /// day its `fixAssigned` event was made where it was made (`RecordedDays`), as the history and
    /// the streak read it: read in the syncing machine's zone, a fix given at 07:00 in Tokyo fell
    /// on the day before and superseded that day's applied fix.
    public static func resolveSameDay(_ completions: [FixCompletion], fixTypes: [UUID: FixType],
                                      events: [AnalyticsEvent] = [], calendar: Calendar) -> [FixCompletion] {
        let recorded = completions.contains { $0.day == nil } ? RecordedDays(events: events, calendar: calendar) : nil
        var groups: [Int: [FixCompletion]] = [:]
        struct QuickKey: Hashable { let fix: UUID; let at: Date }
        var quick: [QuickKey: [FixCompletion]] = [:]
        for c in completions where c.deletedAt == nil || isSuperseded(c) {
            guard let type = fixTypes[c.fixId] else { continue }
            if type == .quickFix {
                quick[QuickKey(fix: c.fixId, at: c.assignedAt), default: []].append(c)
            } else {
                let day = c.givenDay { at in
                    recorded?.day(at, token: c.syncToken) { $0.type == .fixAssigned && $0.fixId == c.fixId } ?? LocalDay(at, calendar: calendar)
                }
                groups[day.ordinal, default: []].append(c)
            }
        }
        let quickKeys = quick.keys.sorted { $0.at != $1.at ? $0.at < $1.at : $0.fix.sortsBefore($1.fix) }
        return groups.keys.sorted().flatMap { resolve(groups[$0] ?? []) } + quickKeys.flatMap { resolve(quick[$0] ?? []) }
    }

    /// One group of the same-day rule: the winner, the others superseded, their text as notes.
    static func resolve(_ members: [FixCompletion]) -> [FixCompletion] {
        var changed: [FixCompletion] = []
        guard members.count > 1 else { return [] }
        let winner = members.max { a, b in
            let (am, bm) = (a.outcome != .pending, b.outcome != .pending)
            if am != bm { return bm }
            if a.updatedAt != b.updatedAt { return a.updatedAt < b.updatedAt }
            if (a.syncToken ?? "") != (b.syncToken ?? "") { return (a.syncToken ?? "") < (b.syncToken ?? "") }
            return a.id.uuidString < b.id.uuidString
        }
        guard let winner else { return [] }
        let others = members.filter { $0.id != winner.id }.sorted {
            $0.updatedAt != $1.updatedAt ? $0.updatedAt < $1.updatedAt : $0.id.uuidString < $1.id.uuidString
        }
        var parts: [String] = []
        let own = ownText(winner.reflection)
        if !own.isEmpty { parts.append(own) }
        var bytes = own.utf8.count
        for o in others {
            let text = ownText(o.reflection)
            guard !text.isEmpty else { continue }
            let n = note(for: o, text: text)
            let added = n.utf8.count + (parts.isEmpty ? 0 : 2)
            guard bytes + added <= Thresholds.maxMarkdownBytes else { continue }
            parts.append(n)
            bytes += added
        }
        var w = winner
        if !parts.isEmpty {
            w.reflection = parts.joined(separator: "\n\n")
        } else if winner.reflection?.hasPrefix(noteStart) == true {
            w.reflection = nil
        }
        w.deletedAt = nil
        if w != winner { changed.append(w) }
        for o in others {
            // A loser holds only its own text (notes it carried as an earlier winner go).
            var lost = o
            lost.deletedAt = o.assignedAt
            let text = ownText(o.reflection)
            if !text.isEmpty {
                lost.reflection = text
            } else if o.reflection?.hasPrefix(noteStart) == true {
                lost.reflection = nil
            }
            if lost != o { changed.append(lost) }
        }
        return changed
    }

    /// A quick fix waiting on two machines: the same crash logged on both queued the same quick fix
    /// on each, and a second crash about a bug whose quick fix waits queues nothing. Of the pending
    /// completions of one quick fix, the first given (then the smaller id) stays; the others are
    /// superseded as the same-day rule supersedes (soft-deleted at their own `assignedAt`). A
    /// marked one is never touched. Returns the completions changed.
    public static func resolveWaitingQuickFixes(_ completions: [FixCompletion], fixTypes: [UUID: FixType]) -> [FixCompletion] {
        keepingFirst(completions, by: { c in c.deletedAt == nil && c.outcome == .pending && fixTypes[c.fixId] == .quickFix ? c.fixId : nil },
                     at: \.assignedAt, id: \.id) { $0.deletedAt = $0.assignedAt }
    }

    /// Of each group of records (`key`; nil is in none), the first (by `at`, then id) stays and
    /// the others get `supersede`. Returns those, group by group in the order the groups appear.
    static func keepingFirst<R, K: Hashable>(_ records: [R], by key: (R) -> K?, at: (R) -> Date, id: (R) -> UUID,
                                             supersede: (inout R) -> Void) -> [R] {
        var groups: [K: [R]] = [:], order: [K] = []
        for r in records {
            guard let k = key(r) else { continue }
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(r)
        }
        var changed: [R] = []
        for k in order {
            guard let list = groups[k], list.count > 1 else { continue }
            for var r in list.sorted(by: { at($0) != at($1) ? at($0) < at($1) : id($0).sortsBefore(id($1)) }).dropFirst() {
                supersede(&r)
                changed.append(r)
            }
        }
        return changed
    }

    /// The outcome events of marks that lost the same-day rule: each machine recorded its own
    /// mark's event, and the detectors read outcomes from events, so the day counted two outcomes
    /// (a skip on one machine and an application on the other). An outcome event is deleted, at
    /// its own instant (the same on every machine), when a superseded completion, or a version of
    /// a completion that lost to another version of itself in the merge (`lostVersions`: one fix
    /// marked on two machines, the loser without text keeps no record), was marked with it (fix,
    /// outcome and instant) and no live completion was. Returns the events changed.
    public static func supersededOutcomeEvents(completions: [FixCompletion], lostVersions: [FixCompletion] = [],
                                               events: [AnalyticsEvent]) -> [AnalyticsEvent] {
        struct Mark: Hashable { let fix: UUID; let type: EventType; let at: Date }
        func mark(_ c: FixCompletion) -> Mark? {
            guard let t = EventType.marking(c.outcome), let at = c.completedAt else { return nil }
            return Mark(fix: c.fixId, type: t, at: at)
        }
        let live = Set(completions.filter { $0.deletedAt == nil }.compactMap(mark))
        let lost = Set((completions.filter(isSuperseded) + lostVersions).compactMap(mark)).subtracting(live)
        guard !lost.isEmpty else { return [] }
        return events.compactMap { e in
            guard e.deletedAt == nil, let fix = e.fixId, lost.contains(Mark(fix: fix, type: e.eventType, at: e.timestamp)) else { return nil }
            var gone = e
            gone.deletedAt = e.timestamp
            return gone
        }
    }

    /// One completion marked on two machines (both versions of the same record): the merge keeps
    /// the newer version, and the other version's text is kept as a superseded completion of its
    /// own, with an id derived from that version, so the same-day rule adds it as a note. Nil when
    /// the losing version holds no text of its own, or the same outcome and text. A version
    /// deleted by a command on its machine (`egofix amend` took that text back) is kept deleted
    /// as it was, in the store and the exports but not as a note: another machine's later mark of
    /// the same fix brought a reflection removed with `amend -m ""` back onto the pages.
    public static func keptVersion(winner: FixCompletion, loser: FixCompletion) -> FixCompletion? {
        let text = ownText(loser.reflection)
        guard loser.outcome != .pending, !text.isEmpty,
              loser.outcome != winner.outcome || text != ownText(winner.reflection) else { return nil }
        let id = derivedID(["completion-version", loser.id.uuidString, loser.outcome.rawValue,
                            String(loser.updatedAt.timeIntervalSinceReferenceDate), loser.syncToken ?? "", text])
        return FixCompletion(id: id, fixId: loser.fixId, userId: loser.userId, outcome: loser.outcome, reflection: text,
                             outcomeData: loser.outcomeData, assignedAt: loser.assignedAt, completedAt: loser.completedAt,
                             createdAt: loser.createdAt, updatedAt: loser.updatedAt,
                             deletedAt: loser.deletedAt != nil && !isSuperseded(loser) ? loser.deletedAt : loser.assignedAt,
                             syncToken: loser.syncToken, day: loser.day)
    }

    // MARK: - Version entries

    /// An entry for a version bump that lost to another machine's entry for the same version is
    /// soft-deleted at its own createdAt.
    public static func isSuperseded(_ e: VersionEntry) -> Bool {
        e.deletedAt != nil && e.deletedAt == e.createdAt
    }

    /// The changelog's version bumps follow from the applied fixes: the 7th applied fix (by
    /// completedAt, then id) reaches 1.1, and so on. For each version reached, one live entry,
    /// dated when that fix was marked: the machines' entry made then (the smallest id, if two), or,
    /// when no machine made one then, a new one with an id derived from the profile and the
    /// version. Entries for versions not reached, and entries made at another instant (a machine
    /// that counted its own 7th later, or a 7th amended away), are superseded. Crash and reboot
    /// entries are left alone. Returns the entries changed or made.
    public static func resolveVersions(entries: [VersionEntry], applied: [FixCompletion], userId: UUID) -> [VersionEntry] {
        let marked = applied.filter { $0.outcome == .applied && $0.deletedAt == nil }.sorted {
            let (a, b) = ($0.completedAt ?? $0.updatedAt, $1.completedAt ?? $1.updatedAt)
            return a != b ? a < b : $0.id.uuidString < $1.id.uuidString
        }
        var reached: [(Version, Int, Date)] = []
        var k = Thresholds.fixesPerMinorVersion
        while k <= marked.count {
            reached.append((VersionRules.version(forAppliedCount: k), k, marked[k - 1].completedAt ?? marked[k - 1].updatedAt))
            k += Thresholds.fixesPerMinorVersion
        }
        var byVersion: [String: [VersionEntry]] = [:]
        for e in entries where (e.changeType == .minorUpdate || e.changeType == .majorUpdate) && (e.deletedAt == nil || isSuperseded(e)) {
            byVersion[e.version, default: []].append(e)
        }
        var changed: [VersionEntry] = []
        var kept = Set<String>()
        for (version, count, at) in reached {
            let name = version.description
            kept.insert(name)
            // An entry made before the version was reached is stale: the fix that reached it then
            // was amended away (`egofix amend`), and the version was reached again later.
            // The entry made when the fix that reaches the version was marked: a machine that
            // counted its own 7th later (the merged 7th was another machine's) dated the version
            // after its 7th fix; then none matches and the derived one, dated at that fix, is made.
            let candidates = (byVersion[name] ?? []).filter { $0.createdAt == at }.sorted {
                $0.id.uuidString < $1.id.uuidString
            }
            for e in (byVersion[name] ?? []) where e.createdAt != at && e.deletedAt != e.createdAt {
                var stale = e
                stale.deletedAt = e.createdAt
                changed.append(stale)
            }
            guard let first = candidates.first else {
                let made = VersionRules.entriesAfterApplying(appliedCountBefore: count - 1, userId: userId, at: at,
                                                             id: derivedID(["version", userId.uuidString, name]))
                changed += made.map { e in
                    var e = e
                    e.syncToken = derivedToken
                    return e
                }
                continue
            }
            if first.deletedAt != nil {
                var e = first
                e.deletedAt = nil
                changed.append(e)
            }
            for e in candidates.dropFirst() where e.deletedAt != e.createdAt {
                var s = e
                s.deletedAt = e.createdAt
                changed.append(s)
            }
        }
        for name in byVersion.keys.sorted() where !kept.contains(name) {
            for e in byVersion[name] ?? [] where e.deletedAt != e.createdAt {
                var s = e
                s.deletedAt = e.createdAt
                changed.append(s)
            }
        }
        return changed
    }

    /// The syncToken of a record these rules made: every machine makes it alike.
    public static let derivedToken = "sync"

    /// One week may hold one diagnostic. When two machines each did the week's, the first done
    /// (then the smaller id) is kept and every other one is superseded: soft-deleted at its own
    /// completedAt, so every machine makes the same record. Its ratings leave the lifecycle and the
    /// detectors (a week is rated once); the day it was done still counts for the streak (its
    /// event stays). Returns the diagnostics changed.
    public static func resolveSameWeek(_ diagnostics: [WeeklyDiagnostic], calendar: Calendar) -> [WeeklyDiagnostic] {
        keepingFirst(diagnostics, by: { $0.deletedAt == nil ? $0.week(in: calendar) : nil }, at: \.completedAt, id: \.id) {
            $0.deletedAt = $0.completedAt
        }
    }

    /// Stable (or resolved) bugs whose state no longer stands on the week ratings the merge kept,
    /// put back for the lifecycle to decide again. A machine can make a bug stable or resolved on
    /// ratings other than the ones the merge keeps: before another machine's rating of the same
    /// weeks reached it (a present week it had not seen), on a rating a redo there replaced, or on
    /// a week rated on both machines whose other rating the merge keeps. Looked at: a bug with a
    /// rating of a week up to its stable (or resolved) date that the merge deleted or brought in
    /// (`arrived`: the diagnostics it took or changed; a week's rating can be made after the
    /// moment, in another zone or with `--anyway`). A stability that does not stand goes back to active; a
    /// resolution a noisy week within its 90 days does not allow goes back to stable. Stamped just
    /// after the bug's last change, as every machine does alike, so the put-back wins over the copy
    /// still in other machines' files.
    public static func unfoundedStability(bugs: [Bug], diagnostics: [WeeklyDiagnostic], arrived: Set<UUID>,
                                          calendar: Calendar) -> [Bug] {
        var out: [Bug] = []
        for bug in bugs where (bug.status == .stable || bug.status == .resolved) && bug.deletedAt == nil {
            guard let since = bug.stableSince else { continue }
            let fresh = BugLifecycle.activePeriodStart(of: bug)
            let until = bug.resolvedAt ?? since
            let moved = diagnostics.contains { d in
                (d.deletedAt != nil || arrived.contains(d.id)) && d.completedAt > fresh && d.weekStarting <= until
                    && d.responses.contains { $0.bugId == bug.id }
            }
            guard moved else { continue }
            let at = bug.updatedAt.addingTimeInterval(0.001)
            if !BugLifecycle.stabilityStands(bug, diagnostics: diagnostics) {
                out.append(BugLifecycle.unstabilised(bug, at: at))
            } else if !BugLifecycle.resolutionStands(bug, diagnostics: diagnostics, calendar: calendar) {
                out.append(BugLifecycle.unresolved(bug, at: at))
            }
        }
        return out
    }

    /// Active bugs that the ratings the merge kept made stable, put there: each machine saw only
    /// some of a run of 3 quiet weeks before a later week that was not quiet was rated, so none
    /// made the bug stable, and the lifecycle, which asks of the last 3 ratings, no longer would.
    /// On one machine that saw every week it is stable. Looked at: an active bug with a rating in
    /// its active period that the merge deleted or brought in. It is made stable from the moment
    /// the run first gave it (`BugLifecycle.firstStability`), then the lifecycle runs on to `now`
    /// (a later loud rating or crash sends it back, and a later run may make it stable again).
    /// Stamped as `unfoundedStability` stamps, just after the bug's last change.
    public static func overlookedStability(bugs: [Bug], crashes: [Crash], diagnostics: [WeeklyDiagnostic], arrived: Set<UUID>,
                                           now: Date, calendar: Calendar) -> [Bug] {
        var out: [Bug] = []
        for bug in bugs where bug.status == .active && bug.deletedAt == nil {
            let fresh = BugLifecycle.activePeriodStart(of: bug)
            let moved = diagnostics.contains { d in
                (d.deletedAt != nil || arrived.contains(d.id)) && d.completedAt > fresh && d.responses.contains { $0.bugId == bug.id }
            }
            guard moved else { continue }
            let stamp = bug.updatedAt.addingTimeInterval(0.001)
            var b = bug
            // Each pass moves the active period on (a regression comes after the stability it ends).
            for _ in 0...diagnostics.count {
                guard let at = BugLifecycle.firstStability(of: b, crashes: crashes, diagnostics: diagnostics, now: now, calendar: calendar)
                else { break }
                b = BugLifecycle.apply(.stabilised, to: b, at: stamp, effective: at)
                b = BugLifecycle.settle(b, crashes: crashes, diagnostics: diagnostics, retests: { _ in [] }, now: now, calendar: calendar).bug
            }
            guard b.status != .active || b.regressedAt != bug.regressedAt else { continue }
            b.updatedAt = stamp
            out.append(b)
        }
        return out
    }

    // MARK: - Streak

    /// One instant that counts a day for the streak, and the local day it counts.
    public struct Engagement: Equatable, Sendable {
        public let at: Date
        public let day: LocalDay
    }

    /// What counts a day for the streak, from the merged records: fixes assigned and marked,
    /// crashes, completed diagnostics, and the events of opening a fix or marking one. Each counts
    /// the day it counted where it happened (`RecordedDays`: an event's day from its weekday, and
    /// a record's from the event made with it, so a week in Berlin synced in Tokyo keeps Berlin's
    /// days); a fix's assignment is the day it was given for. A record with no event at its
    /// instant (made before events, or imported) is read in `calendar`.
    public static func engagements(completions: [FixCompletion], crashes: [Crash], diagnostics: [WeeklyDiagnostic],
                                   events: [AnalyticsEvent], calendar: Calendar) -> [Engagement] {
        let recorded = RecordedDays(events: events, calendar: calendar)
        var out: [Engagement] = []
        func add(_ at: Date, _ day: LocalDay) { out.append(Engagement(at: at, day: day)) }
        for c in completions where c.deletedAt == nil {
            add(c.assignedAt, c.day.map(LocalDay.init(ordinal:)) ?? recorded.day(c.assignedAt, token: c.syncToken) { $0.fixId == c.fixId })
            if let d = c.completedAt { add(d, recorded.day(d, token: c.syncToken) { $0.fixId == c.fixId }) }
        }
        for c in crashes where c.deletedAt == nil { add(c.crashedAt, recorded.day(of: c)) }
        for d in diagnostics where d.deletedAt == nil { add(d.completedAt, recorded.day(d.completedAt, madeWith: .weeklyCompleted, token: d.syncToken)) }
        let counted: Set<EventType> = [.appOpened, .fixAssigned, .fixApplied, .fixSkipped, .fixFailed, .crashLogged, .weeklyCompleted]
        for e in events where e.deletedAt == nil && counted.contains(e.eventType) { add(e.timestamp, recorded.day(of: e)) }
        return out.sorted { ($0.at, $0.day) < ($1.at, $1.day) }
    }

    /// The profile's derived fields (version, streak, freeze) recomputed from the merged records;
    /// the rest of the profile (primary bug, dates) is left as it is. The longest streak never
    /// goes down: it is the greater of the replayed one and the one the profile had.
    public static func derivedProfile(_ user: UserProfile, appliedCount: Int, engagements: [Engagement]) -> UserProfile {
        var u = user
        u.currentVersion = VersionRules.version(forAppliedCount: appliedCount).description
        var days: [(day: LocalDay, at: Date?)] = engagements.map { ($0.day, $0.at) }
        if let kept = user.lastEngagementDay { days.append((LocalDay(ordinal: kept), user.lastEngagementDate)) }
        let s = StreakRules.replay(days)
        u.currentStreak = s.current
        u.longestStreak = max(s.longest, user.longestStreak)
        u.lastEngagementDay = s.lastEngagedDay?.ordinal
        u.lastEngagementDate = max(engagements.last?.at, user.lastEngagementDate)
        u.freezeUsedWeekStart = s.freezeUsedWeek?.ordinal
        u.streakFreezeAvailable = s.lastEngagedDay.map { StreakRules.freezeAvailable(s, today: $0, now: s.lastEngagedAt) } ?? true
        return u
    }

    /// A UUID that is the same on every machine for the same names (FNV-1a, version 8 layout).
    public static func derivedID(_ names: [String]) -> UUID {
        let a = StableHash.fnv1a(["egofix-sync-a"] + names), b = StableHash.fnv1a(["egofix-sync-b"] + names)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (56 - 8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (56 - 8 * UInt64(i)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

private func max(_ a: Date?, _ b: Date?) -> Date? {
    switch (a, b) {
    case let (x?, y?): return Swift.max(x, y)
    case let (x?, nil): return x
    case let (nil, y): return y
    }
}
