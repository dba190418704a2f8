import Foundation

/// What today holds: a fix (and why it was chosen), or a rest day when nothing fits.
public enum DailyAssignment: Equatable, Sendable {
    case fix(Fix, reason: AssignmentReason)
    case restDay

    public var fix: Fix? {
        if case .fix(let f, _) = self { return f }
        return nil
    }
}

public enum AssignmentReason: String, Equatable, Sendable, Codable {
    case daily          // the ordinary daily fix
    case weeklyOverhaul // Monday's system overhaul
    case retest         // a stable bug's 30-day retest
    case fallback       // the day's bug had nothing left; another active bug's fix
    case rerun          // nothing unseen was left; a fix applied at least 90 days ago comes back
}

/// The daily-fix rule, pure. One fix per local day, chosen deterministically for a user and a day.
///
/// 1. The day's bug: a stable bug whose retest is due comes first; otherwise the active bugs take
///    turns by day (primary bug first, then by activation date and slug).
/// 2. Target severity grows with how long that bug has been active: low for the first 14 days,
///    medium from day 14, high from day 42. If none of that severity is left, the nearest severity
///    is used (lower first).
/// 3. On Mondays, once the bug has been active 14 days, a weekly "system overhaul" is chosen when one is left.
/// 4. Never a fix already applied; a skipped (or never-marked) fix not within 21 days; a failed fix
///    not within 7 days. Quick fixes are only for after a crash.
/// 5. When the day's bug has nothing left, another active bug's fix.
/// 6. When no active bug has an unseen fix left, a rerun: a daily fix applied at least 90 days ago
///    comes back (the one applied longest ago first; the day's bug first, then the turn order).
///    A stable bug's retest takes a rerun the same way when its unseen fixes are gone.
/// 7. A rest day only when nothing at all is eligible.
public enum DailyFixRules {
    public struct Input: Sendable {
        public var userId: UUID
        public var day: LocalDay
        public var bugs: [Bug]
        public var primaryBugId: UUID?
        public var fixes: [Fix]
        public var completions: [FixCompletion]
        public var calendar: Calendar

        public init(userId: UUID, day: LocalDay, bugs: [Bug], primaryBugId: UUID?, fixes: [Fix],
                    completions: [FixCompletion], calendar: Calendar) {
            self.userId = userId
            self.day = day
            self.bugs = bugs
            self.primaryBugId = primaryBugId
            self.fixes = fixes
            self.completions = completions
            self.calendar = calendar
        }
    }

    public static func targetSeverity(daysActive: Int) -> FixSeverity {
        if daysActive >= Thresholds.highSeverityAfterDays { return .high }
        if daysActive >= Thresholds.mediumSeverityAfterDays { return .medium }
        return .low
    }

    /// Active bugs in turn order: primary first, then by activation date, then slug.
    public static func turnOrder(_ bugs: [Bug], primaryBugId: UUID?) -> [Bug] {
        turnOrderIndices(bugs, primaryBugId: primaryBugId).map { bugs[$0] }
    }

    /// A stable bug whose 30-day retest is due on `day`, if any (the longest-waiting first).
    public static func retestDue(_ bugs: [Bug], day: LocalDay, calendar: Calendar) -> Bug? {
        retestDueIndex(bugs, day: day, days: LocalDay.Converter(calendar)).map { bugs[$0] }
    }

    /// `retestDue`, as an index into `bugs`: the longest wait, then the slug, then the earlier bug
    /// (fields read in place, no bug copied).
    static func retestDueIndex(_ bugs: [Bug], day: LocalDay, days: LocalDay.Converter) -> Int? {
        guard bugs.indices.contains(where: { bugs[$0].status == .stable }) else { return nil }
        var best: (index: Int, waited: Int)?
        for i in bugs.indices where bugs[i].deletedAt == nil && bugs[i].isActive && bugs[i].status == .stable {
            guard let since = bugs[i].lastRetestAt ?? bugs[i].stableSince else { continue }
            let waited = day.days(since: days.day(since))
            guard waited >= Thresholds.retestIntervalDays else { continue }
            if let b = best, !(waited != b.waited ? waited > b.waited : bugs[i].slug < bugs[b.index].slug) { continue }
            best = (i, waited)
        }
        return best?.index
    }

    /// The earliest outcome time `excludedList` looks at besides applied fixes: the start of the
    /// first day a cooldown can still cover. A caller may pass only applied completions and those since.
    public static func cooldownStart(day: LocalDay, calendar: Calendar) -> Date {
        day.adding(days: -max(Thresholds.skippedCooldownDays, Thresholds.failedCooldownDays)).start(in: calendar)
    }

    /// Fixes that may not be offered on `day`: applied ever, skipped or pending within 21 days,
    /// failed within 7; in completion order (an id may appear more than once).
    static func excludedList(_ completions: [FixCompletion], day: LocalDay, calendar: Calendar) -> [UUID] {
        var out: [UUID] = []
        out.reserveCapacity(completions.count)
        let days = LocalDay.Converter(calendar)
        // Fields read in place: copying each completion out would retain and release all its text.
        for i in completions.indices where completions[i].deletedAt == nil {
            let outcome = completions[i].outcome
            if outcome == .applied {
                out.append(completions[i].fixId)
                continue
            }
            let age = day.days(since: days.day(completions[i].completedAt ?? completions[i].assignedAt))
            if excludes(outcome, age: age) { out.append(completions[i].fixId) }
        }
        return out
    }

    /// Whether a completion with this outcome, marked (or, when pending, assigned) `age` local days
    /// before the day, keeps its fix from being offered: applied ever, skipped or pending within 21
    /// days, failed within 7.
    static func excludes(_ outcome: FixOutcome, age: Int) -> Bool {
        switch outcome {
        case .applied: return true
        case .skipped, .pending: return age < Thresholds.skippedCooldownDays
        case .failed: return age < Thresholds.failedCooldownDays
        }
    }

    public static func choose(_ input: Input) -> DailyAssignment {
        let excluded = Excluded(excludedList(input.completions, day: input.day, calendar: input.calendar))
        return choose(userId: input.userId, day: input.day, bugs: input.bugs, primaryBugId: input.primaryBugId,
                      calendar: input.calendar, excluded: excluded, fixes: FixList(fixes: input.fixes),
                      reruns: Reruns(input.completions, day: input.day, calendar: input.calendar))
    }

    /// What the rerun rule reads: the local day each fix was last applied, and the fixes in a
    /// skip, failure or pending cooldown (which a rerun respects like any other offer).
    public struct Reruns: Sendable {
        /// Local day ordinal of the last applied completion, by fix id.
        var lastApplied: [UUID: Int]
        /// Fixes skipped, failed or left pending recently enough to be held back.
        public var cooling: [UUID]

        public init(lastApplied: [UUID: Int] = [:], cooling: [UUID] = []) {
            self.lastApplied = lastApplied
            self.cooling = cooling
        }

        public init(_ completions: [FixCompletion], day: LocalDay, calendar: Calendar) {
            let days = LocalDay.Converter(calendar)
            var last: [UUID: Int] = [:]
            var cooling: [UUID] = []
            for i in completions.indices where completions[i].deletedAt == nil {
                let c = completions[i]
                let d = days.day(c.completedAt ?? c.assignedAt).ordinal
                if c.outcome == .applied {
                    last[c.fixId] = max(last[c.fixId] ?? d, d)
                } else if excludes(c.outcome, age: day.ordinal - d) {
                    cooling.append(c.fixId)
                }
            }
            self.init(lastApplied: last, cooling: cooling)
        }

        /// Records an applied fix (the demo simulation keeps one of these as it goes).
        public mutating func applied(_ fixId: UUID, on day: LocalDay) {
            lastApplied[fixId] = max(lastApplied[fixId] ?? day.ordinal, day.ordinal)
        }

        /// The bug's daily fix applied longest ago, at least `rerunAfterDays` before `day`, not cooling.
        func pick(_ fixes: [Fix], bug: UUID, day: LocalDay, hash: DayHash) -> Fix? {
            var best: (index: Int, last: Int, hash: UInt64)?
            for i in fixes.indices where fixes[i].bugId == bug && fixes[i].type == .daily && fixes[i].isOffered {
                guard let last = lastApplied[fixes[i].id], day.ordinal - last >= Thresholds.rerunAfterDays else { continue }
                if cooling.contains(fixes[i].id) { continue }
                let h = hash.of(fixes[i].id)
                if let b = best {
                    if last != b.last { if last > b.last { continue } }
                    else if h != b.hash { if h > b.hash { continue } }
                    else if fixes[i].number > fixes[b.index].number { continue }
                }
                best = (i, last, h)
            }
            return best.map { fixes[$0.index] }
        }
    }

    /// `choose`, with the excluded ids already worked out and the fixes from a source that may be
    /// indexed (the demo simulation keeps one); the same answer as `choose` on the same records.
    static func choose<Source: FixSource>(userId: UUID, day: LocalDay, bugs: [Bug], primaryBugId: UUID?,
                                          calendar: Calendar, excluded: Excluded, fixes: Source,
                                          reruns: Reruns) -> DailyAssignment {
        let hash = DayHash(userId: userId, day: day)
        let days = LocalDay.Converter(calendar)
        if let b = retestDueIndex(bugs, day: day, days: days) {
            if let fix = pick(fixes, excluded, day: day, days: days, bugs: bugs, bug: b, allowWeekly: false, hash: hash)
                ?? reruns.pick(fixes.allFixes, bug: bugs[b].id, day: day, hash: hash) {
                return .fix(fix, reason: .retest)
            }
        }
        let order = turnOrderIndices(bugs, primaryBugId: primaryBugId)
        guard !order.isEmpty else { return .restDay }
        let first = LocalDay.mod(day.ordinal, order.count)
        for k in 0..<order.count {
            let b = order[(first + k) % order.count]
            if let fix = pick(fixes, excluded, day: day, days: days, bugs: bugs, bug: b, allowWeekly: k == 0, hash: hash) {
                if k > 0 { return .fix(fix, reason: .fallback) }
                return .fix(fix, reason: fix.type == .weekly ? .weeklyOverhaul : .daily)
            }
        }
        for k in 0..<order.count {
            let b = order[(first + k) % order.count]
            if let fix = reruns.pick(fixes.allFixes, bug: bugs[b].id, day: day, hash: hash) { return .fix(fix, reason: .rerun) }
        }
        return .restDay
    }

    /// `turnOrder`, as indexes into `bugs` (no bug is copied to sort them).
    static func turnOrderIndices(_ bugs: [Bug], primaryBugId: UUID?) -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(bugs.count)
        for i in bugs.indices where bugs[i].takesTurns { order.append(i) }
        // Sorted in place (the same stable sort as `sorted`, without a second array).
        order.sort { i, j in
            let pa = bugs[i].id == primaryBugId, pb = bugs[j].id == primaryBugId
            if pa != pb { return pa }
            let da = bugs[i].activatedAt ?? .distantPast, db = bugs[j].activatedAt ?? .distantPast
            if da != db { return da < db }
            return bugs[i].slug < bugs[j].slug
        }
        return order
    }

    /// The excluded fix ids: a short list is scanned (cheaper than hashing each id), a long one hashed.
    struct Excluded {
        let list: [UUID]
        let set: Set<UUID>?

        init(_ ids: [UUID]) {
            list = ids
            set = ids.count > 32 ? Set(ids) : nil
        }

        func contains(_ id: UUID) -> Bool {
            if let set { return set.contains(id) }
            for x in list where x == id { return true }
            return false
        }
    }

    /// The bug's fix for the day among the fixes not excluded: Monday's overhaul when allowed (of
    /// the target severity or lower), else a daily fix of the target severity, else the nearest
    /// severity (lower first). `bug` indexes `bugs`.
    static func pick<Source: FixSource>(_ fixes: Source, _ excluded: Excluded, day: LocalDay, days: LocalDay.Converter,
                                        bugs: [Bug], bug b: Int, allowWeekly: Bool, hash: DayHash) -> Fix? {
        let bugId = bugs[b].id
        let daysActive = bugs[b].activatedAt.map { day.days(since: days.day($0)) } ?? 0
        let target = targetSeverity(daysActive: daysActive)
        let severities = preference[slot(target)]
        // Monday's overhaul follows the severity ramp: the target severity, else a lower one, else
        // the day's daily fix (a high overhaul came on day 32, ten days before the ramp reaches high).
        if allowWeekly, day.isoWeekday == 1, daysActive >= Thresholds.weeklyOverhaulAfterDays {
            for sev in severities where sev.rank <= target.rank {
                if let f = fixes.best(excluded, bugIndex: b, bug: bugId, type: .weekly, severity: sev, hash: hash) { return f }
            }
        }
        for sev in severities {
            if let f = fixes.best(excluded, bugIndex: b, bug: bugId, type: .daily, severity: sev, hash: hash) { return f }
        }
        return nil
    }

    /// Where `choose` finds a bug's fixes: the best live, not excluded fix of the bug (`bug` is the
    /// id of `bugs[bugIndex]` in the call) of a type and, when given, a severity, as `best` finds it
    /// in the list of all the fixes.
    protocol FixSource {
        /// Every fix of the catalogue (the rerun rule scans them).
        var allFixes: [Fix] { get }
        func best(_ excluded: Excluded, bugIndex: Int, bug: UUID, type: FixType, severity: FixSeverity?, hash: DayHash) -> Fix?
    }

    /// The input's fixes, scanned.
    struct FixList: FixSource {
        let fixes: [Fix]
        var allFixes: [Fix] { fixes }

        func best(_ excluded: Excluded, bugIndex: Int, bug: UUID, type: FixType, severity: FixSeverity?, hash: DayHash) -> Fix? {
            DailyFixRules.best(fixes, excluded, bug: bug, type: type, severity: severity, hash: hash)
        }
    }

    /// Severities in the order they are tried for each target (by `slot`): the target, then the
    /// nearest, lower first.
    static let preference: [[FixSeverity]] = [FixSeverity.low, .medium, .high].map { target in
        FixSeverity.allCases.sorted { a, b in
            let da = abs(a.rank - target.rank), db = abs(b.rank - target.rank)
            return da != db ? da < db : a.rank < b.rank
        }
    }

    /// Among the bug's live fixes of a type (and severity, when given), the one with the smallest
    /// day hash (then number); the first such one. Fields are read in place.
    static func best(_ fixes: [Fix], _ excluded: Excluded, bug: UUID, type: FixType, severity: FixSeverity?,
                     hash: DayHash) -> Fix? {
        best(fixes, fixes.indices, excluded, bug: bug, type: type, severity: severity, hash: hash)
    }

    /// `best` over some of the fixes (indexes into `fixes`, in order): the same answer as over all
    /// of them when the ones left out cannot match.
    static func best<Indices: Sequence<Int>>(_ fixes: [Fix], _ indices: Indices, _ excluded: Excluded, bug: UUID, type: FixType,
                                             severity: FixSeverity?, hash: DayHash) -> Fix? {
        var best: (index: Int, hash: UInt64)?
        for i in indices where fixes[i].bugId == bug && fixes[i].type == type && fixes[i].isOffered {
            if let severity, fixes[i].severity != severity { continue }
            if excluded.contains(fixes[i].id) { continue }
            let h = hash.of(fixes[i].id)
            if let b = best, !(h != b.hash ? h < b.hash : fixes[i].number < fixes[b.index].number) { continue }
            best = (i, h)
        }
        return best.map { fixes[$0.index] }
    }

    static func slot(_ severity: FixSeverity) -> Int {
        switch severity {
        case .low: return 0
        case .medium: return 1
        case .high: return 2
        }
    }

    /// `StableHash.fnv1a([userId.uuidString, String(day.ordinal), fixId.uuidString])`, with the
    /// shared prefix hashed once and the fix id's text written without building a string.
    struct DayHash {
        static let prime: UInt64 = 0x0000_0100_0000_01b3
        let prefix: UInt64

        init(userId: UUID, day: LocalDay) {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            DayHash.feed(&h, userId)
            h = (h ^ 0x1f) &* DayHash.prime
            // The digits of String(day.ordinal), written without building the string.
            if day.ordinal < 0 { h = (h ^ 0x2d) &* DayHash.prime }
            let n = day.ordinal.magnitude
            var p: UInt = 1
            while p <= n / 10 { p *= 10 }
            while true {
                h = (h ^ UInt64(0x30 + n / p % 10)) &* DayHash.prime
                if p == 1 { break }
                p /= 10
            }
            prefix = (h ^ 0x1f) &* DayHash.prime
        }

        func of(_ id: UUID) -> UInt64 {
            var h = prefix
            DayHash.feed(&h, id)
            return SplitMix64.mix(h)
        }

        /// FNV-1a over the id's `uuidString` text, written digit by digit.
        static func feed(_ h: inout UInt64, _ id: UUID) {
            var x = h
            withUnsafeBytes(of: id.uuid) { bytes in
                for k in 0..<16 {
                    if k == 4 || k == 6 || k == 8 || k == 10 { x = (x ^ 0x2d) &* DayHash.prime }
                    let byte = bytes[k]
                    x = (x ^ UInt64(DayHash.hex(byte >> 4))) &* DayHash.prime
                    x = (x ^ UInt64(DayHash.hex(byte & 0xf))) &* DayHash.prime
                }
            }
            h = x
        }

        /// Uppercase hex digit, as `uuidString` writes it.
        static func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }
    }
}
