import Foundation
import GRDB
import EgoFixCore

/// A record that carries the stamps the last-writer-wins merge compares.
protocol SyncStamped: SQLRecord {
    var updatedAt: Date { get }
    var syncToken: String? { get }
}

extension FixCompletion: SyncStamped {}
extension Crash: SyncStamped {}
extension UserProfile: SyncStamped {}

/// The user tables of a store in memory, by id, while a sync merges other machines' files into them.
struct SyncState {
    var users: [UUID: UserProfile] = [:]
    var completions: [UUID: FixCompletion] = [:]
    var crashes: [UUID: Crash] = [:]
    var versions: [UUID: VersionEntry] = [:]
    var events: [UUID: AnalyticsEvent] = [:]
    var patterns: [UUID: DetectedPattern] = [:]
    var diagnostics: [UUID: WeeklyDiagnostic] = [:]
    var bugs: [UUID: Bug] = [:]
    var fixTypes: [UUID: FixType] = [:]
    /// Marked versions of completions that lost to another version of themselves in this merge:
    /// their outcome events go (`SyncRules.supersededOutcomeEvents`).
    var lostMarks: [FixCompletion] = []

    /// Ids changed in memory, per table: written back at the end.
    var changed: [String: Set<UUID>] = [:]

    /// The tables a device file carries, in the order they are written.
    static let tables = [UserProfile.table, FixCompletion.table, Crash.table, VersionEntry.table,
                         AnalyticsEvent.table, DetectedPattern.table, WeeklyDiagnostic.table]

    static func load(_ db: Database) throws -> SyncState {
        var s = SyncState()
        func byId<R: SQLRecord>(_ type: R.Type) throws -> [UUID: R] {
            var out: [UUID: R] = [:]
            for r in try TableOps.everything(db, R.self) { out[r.id] = r }
            return out
        }
        s.users = try byId(UserProfile.self)
        s.completions = try byId(FixCompletion.self)
        s.crashes = try byId(Crash.self)
        s.versions = try byId(VersionEntry.self)
        s.events = try byId(AnalyticsEvent.self)
        s.patterns = try byId(DetectedPattern.self)
        s.diagnostics = try byId(WeeklyDiagnostic.self)
        s.bugs = try byId(Bug.self)
        let rows = try Row.fetchAll(db, sql: "SELECT id, type FROM fixes")
        for row in rows {
            if let id = UUIDText.parse(row["id"] as String? ?? ""), let t = FixType(rawValue: row["type"] as String? ?? "") {
                s.fixTypes[id] = t
            }
        }
        return s
    }

    var changedCount: Int { changed.values.reduce(0) { $0 + $1.count } }

    mutating func mark(_ table: String, _ id: UUID) { changed[table, default: []].insert(id) }

    /// Merges one machine's file; returns how many of its records wait for catalogue entries
    /// this store does not have (those are left for a later sync).
    mutating func merge(_ f: DeviceFile) -> Int {
        var waiting = 0
        let fixTypes = self.fixTypes, bugIds = Set(bugs.keys)
        var touched = Set<UUID>()
        func take(_ table: String) {
            changed[table, default: []].formUnion(touched)
            touched = []
        }
        waiting += Self.lww(&users, f.users, &touched); take(UserProfile.table)
        var kept: [FixCompletion] = []
        var lostMarks: [FixCompletion] = []
        // A completion's day is set once, when it is given, and never changes: a copy without one
        // (from an egofix before the day was kept) takes the other copy's. A copy without it won
        // ties by its shorter bytes, the day was lost everywhere, and two days given in Tokyo
        // were grouped as one Berlin day (one fix superseded, the version down).
        let incoming = f.completions.map { c -> FixCompletion in
            guard c.day == nil, let day = completions[c.id]?.day else { return c }
            var c = c
            c.day = day
            return c
        }
        waiting += Self.lww(&completions, incoming, &touched, resolvable: { fixTypes[$0.fixId] != nil },
                            tieBreak: SyncState.ownBytes(_:greaterThan:),
                            lost: { winner, loser in
                                if let k = SyncRules.keptVersion(winner: winner, loser: loser) { kept.append(k) }
                                if loser.outcome != .pending { lostMarks.append(loser) }
                            })
        self.lostMarks += lostMarks
        for k in kept where completions[k.id] == nil {
            completions[k.id] = k
            touched.insert(k.id)
        }
        for c in f.completions {
            guard let day = c.day, var local = completions[c.id], local.day == nil else { continue }
            local.day = day
            completions[c.id] = local
            touched.insert(c.id)
        }
        take(FixCompletion.table)
        waiting += Self.lww(&crashes, f.crashes, &touched) { c in c.bugId.map { bugIds.contains($0) } ?? true }; take(Crash.table)
        for r in f.versions { Self.sticky(&versions, r, &touched) { a, b in a.deletedAt = SyncState.earliest(a.deletedAt, b.deletedAt) } }
        take(VersionEntry.table)
        for r in f.events { Self.sticky(&events, r, &touched) { a, b in a.deletedAt = SyncState.earliest(a.deletedAt, b.deletedAt) } }
        take(AnalyticsEvent.table)
        for r in f.diagnostics { Self.sticky(&diagnostics, r, &touched) { a, b in a.deletedAt = SyncState.earliest(a.deletedAt, b.deletedAt) } }
        take(WeeklyDiagnostic.table)
        for r in f.patterns {
            Self.sticky(&patterns, r, &touched) { a, b in
                // Viewing is "when it was last shown", what surfacing spaces patterns by.
                a.deletedAt = SyncState.earliest(a.deletedAt, b.deletedAt)
                a.viewedAt = SyncState.latest(a.viewedAt, b.viewedAt)
                a.dismissedAt = SyncState.latest(a.dismissedAt, b.dismissedAt)
            }
        }
        take(DetectedPattern.table)
        for state in f.bugStates {
            guard let local = bugs[state.id] else {
                waiting += 1
                continue
            }
            let mine = BugState(local)
            guard mine != state else { continue }
            // A bug the practice never touched is stamped when the catalogue was loaded: any state
            // the practice gave it beats that, whatever the stamps say.
            let newer = state.isUntouched != mine.isUntouched ? mine.isUntouched
                : SyncRules.newer(updatedAt: state.updatedAt, deleted: false, token: nil,
                                  than: mine.updatedAt, deleted: false, token: nil,
                                  tieBreak: { SyncState.bytes(state, greaterThan: mine) })
            if newer {
                bugs[state.id] = state.applied(to: local)
                mark(Bug.table, state.id)
            }
        }
        return waiting
    }

    /// Last writer wins (`SyncRules.newer`); records failing `resolvable` are not taken and counted.
    /// `tieBreak(r, l)`: whether `r` wins a tie on everything else (by default its canonical bytes).
    private static func lww<R: SyncStamped>(_ local: inout [UUID: R], _ incoming: [R], _ touched: inout Set<UUID>,
                                            resolvable: (R) -> Bool = { _ in true },
                                            tieBreak: (R, R) -> Bool = { r, l in SyncState.bytes(r, greaterThan: l) },
                                            lost: (_ winner: R, _ loser: R) -> Void = { _, _ in }) -> Int {
        var waiting = 0
        for r in incoming {
            guard resolvable(r) else {
                waiting += 1
                continue
            }
            if let l = local[r.id] {
                if SyncState.same(l, r) { continue }
                let newer = SyncRules.newer(updatedAt: r.updatedAt, deleted: r.deletedAt != nil, token: r.syncToken,
                                            than: l.updatedAt, deleted: l.deletedAt != nil, token: l.syncToken,
                                            tieBreak: { tieBreak(r, l) })
                guard newer else {
                    lost(l, r)
                    continue
                }
                lost(r, l)
            }
            local[r.id] = r
            touched.insert(r.id)
        }
        return waiting
    }

    /// Records whose content never changes after they are made: their deletion takes the earliest
    /// instant known (and a pattern's viewed and dismissed instants the latest). Two machines that made the
    /// same record on their own (a pattern's id is derived from what it found) may hold different
    /// copies of it: every machine keeps the same one, the smaller by its canonical bytes, so they
    /// converge whatever order they sync in.
    private static func sticky<R: SQLRecord & Equatable & Encodable>(_ local: inout [UUID: R], _ r: R, _ touched: inout Set<UUID>,
                                                                     _ combine: (inout R, R) -> Void) {
        guard let l = local[r.id] else {
            local[r.id] = r
            touched.insert(r.id)
            return
        }
        var mine = l, theirs = r
        combine(&mine, r)
        combine(&theirs, l)
        let kept = mine == theirs || !SyncState.bytes(mine, greaterThan: theirs) ? mine : theirs
        if kept != l {
            local[r.id] = kept
            touched.insert(r.id)
        }
    }

    static func latest(_ a: Date?, _ b: Date?) -> Date? {
        switch (a, b) {
        case let (x?, y?): return max(x, y)
        case let (x?, nil): return x
        case let (nil, y): return y
        }
    }

    static func earliest(_ a: Date?, _ b: Date?) -> Date? {
        switch (a, b) {
        case let (x?, y?): return min(x, y)
        case let (x?, nil): return x
        case let (nil, y): return y
        }
    }

    static func same<R: SQLRecord>(_ a: R, _ b: R) -> Bool {
        guard let x = try? a.databaseValues(), let y = try? b.databaseValues() else { return false }
        return x == y
    }

    /// A completion's tie: its bytes without the notes other machines' texts added to it, then
    /// (the same own text) with them. A version that won a tie and then took the loser's text as
    /// a note must still win it: compared with its notes, the winner flipped on the next sync,
    /// and a machine noted its own text as another machine's.
    static func ownBytes(_ a: FixCompletion, greaterThan b: FixCompletion) -> Bool {
        func own(_ c: FixCompletion) -> FixCompletion {
            var c = c
            let text = SyncRules.ownText(c.reflection)
            c.reflection = text.isEmpty ? nil : text
            return c
        }
        let (x, y) = (own(a), own(b))
        return x != y ? bytes(x, greaterThan: y) : bytes(a, greaterThan: b)
    }

    /// The last resort of the total order: canonical JSON bytes, compared in order.
    static func bytes<T: Encodable>(_ a: T, greaterThan b: T) -> Bool {
        let e = Snapshot.encoder()
        let x = [UInt8]((try? e.encode(a)) ?? Data()), y = [UInt8]((try? e.encode(b)) ?? Data())
        return y.lexicographicallyPrecedes(x)
    }

    // MARK: - Rules after the merge

    /// The same-day rule, version bumps and the profile's derived fields (SyncRules), applied to
    /// the merged records.
    mutating func applyRules(profile: UUID, calendar: Calendar, now: Date) {
        for c in SyncRules.resolveSameDay(sortedValues(completions), fixTypes: fixTypes, events: sortedValues(events), calendar: calendar) {
            completions[c.id] = c
            mark(FixCompletion.table, c.id)
        }
        for c in SyncRules.resolveWaitingQuickFixes(sortedValues(completions), fixTypes: fixTypes) {
            completions[c.id] = c
            mark(FixCompletion.table, c.id)
        }
        for e in SyncRules.supersededOutcomeEvents(completions: sortedValues(completions), lostVersions: lostMarks, events: sortedValues(events)) {
            events[e.id] = e
            mark(AnalyticsEvent.table, e.id)
        }
        for d in SyncRules.resolveSameWeek(sortedValues(diagnostics).filter { $0.userId == profile }, calendar: calendar) {
            diagnostics[d.id] = d
            mark(WeeklyDiagnostic.table, d.id)
        }
        for b in SyncRules.unfoundedStability(bugs: sortedValues(bugs), diagnostics: sortedValues(diagnostics).filter { $0.userId == profile },
                                              arrived: changed[WeeklyDiagnostic.table] ?? [], calendar: calendar) {
            bugs[b.id] = b
            mark(Bug.table, b.id)
        }
        for b in SyncRules.overlookedStability(bugs: sortedValues(bugs), crashes: sortedValues(crashes),
                                               diagnostics: sortedValues(diagnostics).filter { $0.userId == profile },
                                               arrived: changed[WeeklyDiagnostic.table] ?? [], now: now, calendar: calendar) {
            bugs[b.id] = b
            mark(Bug.table, b.id)
        }
        let live = sortedValues(completions).filter { $0.deletedAt == nil && $0.userId == profile }
        for v in SyncRules.resolveVersions(entries: sortedValues(versions).filter { $0.userId == profile }, applied: live, userId: profile) {
            versions[v.id] = v
            mark(VersionEntry.table, v.id)
        }
        guard let user = users[profile] else { return }
        let engagements = SyncRules.engagements(completions: live, crashes: sortedValues(crashes),
                                                diagnostics: sortedValues(diagnostics), events: sortedValues(events),
                                                calendar: calendar)
        let derived = SyncRules.derivedProfile(user, appliedCount: live.filter { $0.outcome == .applied }.count,
                                               engagements: engagements)
        if derived != user {
            users[profile] = derived
            mark(UserProfile.table, profile)
        }
    }

    /// Writes every changed record, table by table, ids in order.
    func write(_ db: Database) throws {
        func put<R: SQLRecord>(_ map: [UUID: R]) throws {
            for id in (changed[R.table] ?? []).sorted(by: { $0.uuidString < $1.uuidString }) {
                if let r = map[id] { try TableOps.upsert(db, r) }
            }
        }
        try put(bugs)
        try put(users)
        try put(completions)
        try put(crashes)
        try put(versions)
        try put(events)
        try put(patterns)
        try put(diagnostics)
    }

    /// This machine's file: the practice's records in the export's order (orderDate, then id).
    func deviceFile(device: UUID, profile: UUID) -> DeviceFile {
        DeviceFile(format: DeviceFile.kind, formatVersion: DeviceFile.currentFormat, deviceId: device, profileId: profile,
                   users: sortedValues(users).filter { $0.id == profile },
                   completions: sortedValues(completions).filter { $0.userId == profile },
                   crashes: sortedValues(crashes).filter { $0.userId == profile },
                   versions: sortedValues(versions).filter { $0.userId == profile },
                   events: sortedValues(events).filter { $0.userId == profile },
                   patterns: sortedValues(patterns).filter { $0.userId == profile },
                   diagnostics: sortedValues(diagnostics).filter { $0.userId == profile },
                   bugStates: sortedValues(bugs).map(BugState.init))
    }

    /// A table's records in the in-memory order: orderDate, then id.
    func sortedValues<R: StoredRecord>(_ map: [UUID: R]) -> [R] {
        map.values.sorted { a, b in
            a.orderDate != b.orderDate ? a.orderDate < b.orderDate : a.id.uuidString < b.id.uuidString
        }
    }
}
