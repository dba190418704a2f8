import Foundation

/// What happened on one local day.
public struct DayActivity: Sendable, Equatable {
    public let day: LocalDay
    public var applied = 0
    public var skipped = 0
    public var failed = 0
    /// Fixes assigned this day and never marked.
    public var unmarked = 0
    /// Fixes given for this day and marked on a later day (yesterday's fix whose timer ran out
    /// after midnight), counted there: this day had a fix all the same.
    public var markedLater = 0
    public var crashes = 0
    public var crashesWithNote = 0
    public var reboots = 0
    /// Events that are not an outcome or a crash: opening the tool, a diagnostic, a share.
    public var opens = 0
    public var reflections = 0
    public var diagnostics = 0
    /// The most demanding fix applied or failed this day (skipping a fix is not engaging with it).
    public var attemptedSeverity: FixSeverity?
    /// Counts for the streak: opened a fix, marked an outcome, logged a crash or did a diagnostic.
    public var engaged = false
    /// The first and the last instant that counted the day (the streak measures the time between
    /// engaged days from them: `StreakRules.missedDays`).
    var firstEngagedAt: Date?
    var lastEngagedAt: Date?

    /// Counts the day for the streak, at `instant`.
    mutating func engage(at instant: Date) {
        engaged = true
        firstEngagedAt = min(firstEngagedAt ?? instant, instant)
        lastEngagedAt = max(lastEngagedAt ?? instant, instant)
    }

    public init(day: LocalDay) { self.day = day }

    public var isEmpty: Bool {
        applied + skipped + failed + unmarked + markedLater + crashes + reboots + opens + diagnostics == 0
    }
}

/// Every day's activity, computed once in one pass, so week, month, quarter and year summaries and
/// the contribution graph are range reads. Linear in the size of the history.
public struct DayLedger: Sendable {
    /// The records the ledger was made from, and the calendar that decides what a day is.
    public let practice: Practice
    public let calendar: Calendar
    /// Days with anything on them, oldest first.
    public let days: [DayActivity]
    let index: [LocalDay: Int]
    /// Streak state after each engaged day, oldest first.
    let streaks: [(day: LocalDay, state: StreakState)]
    public let timeline: VersionTimeline
    /// Live completions by (completedAt ?? assignedAt, id), those instants, and the day each
    /// counted on where it was made.
    public let liveCompletions: [FixCompletion]
    let completionTimes: [Date]
    let completionDays: [LocalDay]
    /// Live crashes by (crashedAt, id), those instants, and the day each was logged on where it was.
    public let liveCrashes: [Crash]
    let crashTimes: [Date]
    let crashDays: [LocalDay]
    let fixes: [UUID: Fix]
    let bugs: [UUID: Bug]

    /// `recorded`: the practice's `RecordedDays` when the caller has them (else made here).
    public init(_ practice: Practice, calendar cal: Calendar, recorded: RecordedDays? = nil) {
        self.practice = practice
        self.calendar = cal
        let fixes = practice.fixIndex()
        self.fixes = fixes
        bugs = practice.bugIndex()
        let live = practice.liveCompletions
        liveCompletions = live
        completionTimes = live.map(\.dayInstant)
        let crashes = practice.liveCrashes
        liveCrashes = crashes
        crashTimes = crashes.map(\.crashedAt)
        // Each record's local day first; then the days' activity, kept in slots found by day
        // ordinal (an array over the days' span, so no day is hashed), is filled in.
        // Every record counts on the day it was made where it was made (travel does not move it).
        let events = practice.liveEvents
        let toDay = recorded ?? RecordedDays(events: events, calendar: cal)
        let completionDays = live.map { toDay.day(of: $0) }
        let crashDays = crashes.map { toDay.day(of: $0) }
        self.completionDays = completionDays
        self.crashDays = crashDays
        let versionReboots = practice.versions.filter { $0.deletedAt == nil && $0.changeType == .reboot }
        let rebootDays = versionReboots.map { toDay.day($0.createdAt, madeWith: .crashRebooted, token: $0.syncToken) }
        let eventDays = events.map { toDay.day(of: $0) }
        let diagnostics = practice.liveDiagnostics
        let diagnosticDays = diagnostics.map { toDay.day($0.completedAt, madeWith: .weeklyCompleted, token: $0.syncToken) }
        var low = Int.max, high = Int.min
        for list in [completionDays, crashDays, rebootDays, eventDays, diagnosticDays] {
            for d in list {
                low = min(low, d.ordinal)
                high = max(high, d.ordinal)
            }
        }
        var slots = DaySlots(low: low, high: high)
        var acc: [DayActivity] = []
        func touch(_ d: LocalDay, _ f: (inout DayActivity) -> Void) {
            if let i = slots[d.ordinal] {
                f(&acc[i])
            } else {
                var a = DayActivity(day: d)
                f(&a)
                slots[d.ordinal] = acc.count
                acc.append(a)
            }
        }
        for (c, d) in zip(live, completionDays) {
            if c.outcome != .pending, fixes[c.fixId]?.type != .quickFix, let given = c.day.map({ LocalDay(ordinal: $0) }),
               given < d, given.ordinal >= low {
                touch(given) { $0.markedLater += 1 }
            }
            if c.outcome == .pending {
                touch(d) { $0.unmarked += 1; $0.engage(at: c.dayInstant) }
                continue
            }
            let sev = fixes[c.fixId]?.severity
            let wrote = c.reflection.map(VisibleText.showsNothing) == false
            touch(d) { a in
                switch c.outcome {
                case .applied: a.applied += 1
                case .skipped: a.skipped += 1
                case .failed: a.failed += 1
                case .pending: break
                }
                if c.outcome != .skipped, let sev { a.attemptedSeverity = max(a.attemptedSeverity ?? sev, sev) }
                if wrote { a.reflections += 1 }
                a.engage(at: c.dayInstant)
            }
        }
        for (c, d) in zip(crashes, crashDays) {
            let noted = c.note.map(VisibleText.showsNothing) == false
            touch(d) { a in
                a.crashes += 1
                if noted { a.crashesWithNote += 1 }
                a.engage(at: c.crashedAt)
            }
        }
        for d in rebootDays { touch(d) { $0.reboots += 1 } }
        let hasVersions = !practice.versions.filter { $0.deletedAt == nil }.isEmpty
        for (e, d) in zip(events, eventDays) {
            switch e.eventType {
            case .fixApplied, .fixSkipped, .fixFailed, .crashLogged, .fixAssigned:
                // Counted from the records themselves; the event still shows the day was used.
                touch(d) { $0.engage(at: e.timestamp) }
            case .crashRebooted:
                if !hasVersions { touch(d) { $0.reboots += 1 } }
            case .weeklyCompleted:
                // The diagnostic itself is counted from its record; the event shows the day was
                // used even when that record was superseded by a sync (another machine's that week).
                touch(d) { $0.opens += 1; $0.engage(at: e.timestamp) }
            case .appOpened:
                touch(d) { $0.opens += 1; $0.engage(at: e.timestamp) }
            case .patternViewed, .patternDismissed, .fixShared, .timerCompleted:
                touch(d) { $0.opens += 1 }
            }
        }
        for (r, d) in zip(diagnostics, diagnosticDays) {
            touch(d) { $0.diagnostics += 1; $0.engage(at: r.completedAt) }
        }
        let sorted = acc.sorted { $0.day < $1.day }
        days = sorted
        var idx: [LocalDay: Int] = Dictionary(minimumCapacity: sorted.count)
        for (i, d) in sorted.enumerated() { idx[d.day] = i }
        index = idx
        var state = StreakState()
        var st: [(day: LocalDay, state: StreakState)] = []
        for d in sorted where d.engaged {
            state = StreakRules.engage(state, on: d.day, at: d.firstEngagedAt)
            state = StreakRules.engage(state, on: d.day, at: d.lastEngagedAt)
            st.append((d.day, state))
        }
        streaks = st
        timeline = VersionTimeline(versions: practice.versions)
    }

    /// Indexes of the sorted `times` in [start, end).
    static func range(_ times: [Date], from start: Date, to end: Date) -> Range<Int> {
        let lo = times.lowerBound(of: start) { $0 }, hi = times.lowerBound(of: end) { $0 }
        return lo < hi ? lo..<hi : lo..<lo
    }

    /// The live crashes and completions that counted on the days from `first` through `last`
    /// where they were made (`RecordedDays`), in the ledger's order. A record's day is within a
    /// day and a bit of its instant's day here, whatever the zones: only the instants from two
    /// days before to two days after are looked at.
    func records(from first: LocalDay, through last: LocalDay) -> (crashes: [Crash], completions: [FixCompletion]) {
        let start = first.adding(days: -2).start(in: calendar), end = last.adding(days: 3).start(in: calendar)
        let inside = { (d: LocalDay) in first <= d && d <= last }
        let crashes = DayLedger.range(crashTimes, from: start, to: end).filter { inside(crashDays[$0]) }.map { liveCrashes[$0] }
        let completions = DayLedger.range(completionTimes, from: start, to: end).filter { inside(completionDays[$0]) }.map { liveCompletions[$0] }
        return (crashes, completions)
    }

    public func activity(on day: LocalDay) -> DayActivity {
        index[day].map { days[$0] } ?? DayActivity(day: day)
    }

    /// Days with activity in [start, end), oldest first.
    public func days(from start: LocalDay, to end: LocalDay) -> ArraySlice<DayActivity> {
        let lo = lowerBound(start), hi = lowerBound(end)
        return lo < hi ? days[lo..<hi] : []
    }

    func lowerBound(_ day: LocalDay) -> Int { days.lowerBound(of: day) { $0.day } }

    /// The streak as it reads at the start of `day` (before anything that day), per StreakRules.
    public func streak(before day: LocalDay) -> Int {
        let lo = streaks.lowerBound(of: day) { $0.day }
        guard lo > 0 else { return 0 }
        // As the day began (a page shows days, not instants).
        return StreakRules.current(streaks[lo - 1].state, today: day, now: day.start(in: calendar))
    }

    /// The streak at the end of `day`.
    public func streak(endOf day: LocalDay) -> Int {
        streak(before: day.adding(days: 1))
    }

    /// The longest streak value reached on any engaged day in [start, end).
    public func longestStreak(from start: LocalDay, to end: LocalDay) -> Int {
        var lo = 0, hi = streaks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if streaks[mid].day < start { lo = mid + 1 } else { hi = mid }
        }
        var best = 0
        var i = lo
        while i < streaks.count && streaks[i].day < end {
            best = max(best, streaks[i].state.current)
            i += 1
        }
        return best
    }
}

/// Where each day's activity is while a ledger is made, by day ordinal: an array over the span of
/// the days, or, for a span too long for that (dates millennia apart), a dictionary.
struct DaySlots {
    private let low: Int
    private var table: [Int32]
    private var spill: [Int: Int] = [:]
    private let dense: Bool

    init(low: Int, high: Int) {
        self.low = low
        let span = high >= low ? high - low + 1 : 0
        dense = span <= 1 << 22  // about 11,000 years, 16 MB at most
        table = dense ? [Int32](repeating: -1, count: span) : []
    }

    subscript(ordinal: Int) -> Int? {
        get {
            guard dense else { return spill[ordinal] }
            let slot = table[ordinal - low]
            return slot < 0 ? nil : Int(slot)
        }
        set {
            if dense {
                table[ordinal - low] = Int32(newValue ?? -1)
            } else {
                spill[ordinal] = newValue
            }
        }
    }
}
