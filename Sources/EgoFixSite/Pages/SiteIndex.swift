import EgoFixCore
import Foundation

/// Lookups every page needs, computed once per build.
struct SiteIndex: Sendable {
    let data: Practice
    let calendar: Calendar
    let today: LocalDay
    let bugsById: [UUID: Bug]
    let fixesById: [UUID: Fix]
    /// Every fix of `fixesById`, with its bug's words.
    let fixFacts: [UUID: FixFacts]
    let bugs: [Bug]                         // by slug
    /// Each live bug's place in `bugs` (its ids are unique: `bugs` is made from `bugsById`).
    let bugPlace: [UUID: Int]
    /// The completions not deleted of each bug's fixes, in data order, by the bug's place in `bugs`.
    let completionsByBug: [[FixCompletion]]
    let completionsByDay: [LocalDay: [FixCompletion]]
    /// Completions whose fix had been applied before: reruns (`Thresholds.rerunAfterDays`).
    let reruns: Set<UUID>
    /// Yesterday's fix whose timer ran out today, after midnight: still pending, not "not marked"
    /// (`PendingFixRule.timedPastItsDay`).
    let timedPastItsDay: UUID?
    let crashesByDay: [LocalDay: [Crash]]
    let rebootsByDay: [LocalDay: [VersionEntry]]
    let openedDays: Set<LocalDay>
    let diagnosticsByWeek: [LocalDay: WeeklyDiagnostic]
    let first: LocalDay
    /// The day the practice began, where it began (nil before `egofix init`).
    let practiceStart: LocalDay?
    /// Day one: the practice's start, else the first day with records. Not `first`, which may be
    /// the Monday of a diagnostic's week before it (the first week's days before the start read
    /// "Nothing recorded." where the graph said "before day one").
    var dayOne: LocalDay { practiceStart ?? first }
    /// The last day with a page: today, or a day with records up to two days after it (a flight
    /// west over the date line; later ones are not given to the index, `SiteHorizon`).
    let last: LocalDay
    /// The days the month, quarter and year pages cover: from `first` to `last`, and the
    /// Thursdays of their weeks, which decide a week's month (a practice begun on Sunday March 1
    /// has a week page for Feb 23 to Mar 1, in February, so February has a page too).
    var rollupFirst: LocalDay { min(first, first.isoWeekStart.adding(days: 3)) }
    var rollupLast: LocalDay { max(last, last.isoWeekStart.adding(days: 3)) }
    /// Version changes (minor and major), in order.
    let versionSteps: [VersionEntry]
    /// The day each version step counted on where it was made (`recorded`), never before the
    /// step before's: `versionSteps`' days, sorted, for a period's versions by day.
    let versionStepDays: [LocalDay]
    /// The days applied completions counted on (`recorded`), sorted.
    let appliedDays: [LocalDay]
    let ledger: DayLedger
    let clock: SiteClock
    /// The day each record counted on where it was made (a crash logged in Los Angeles stays on
    /// Los Angeles's Friday in a site built in Tokyo).
    let recorded: RecordedDays
    /// Non-empty graph cells, by day.
    let graph: [GraphCell]

    /// `daysSorted` hears the completions and crashes by day as soon as they are known, before
    /// the index waits for its day ledger (so other work on them can start).
    init(data: Practice, calendar: Calendar, now: Date,
         daysSorted: (_ completions: [LocalDay: [FixCompletion]], _ crashes: [LocalDay: [Crash]]) -> Void) {
        self.data = data
        self.calendar = calendar
        clock = SiteClock(calendar: calendar)
        today = LocalDay(now, calendar: calendar)
        // Each record on the day it counted where it was made (the ledger places them by the same days).
        let toDay = RecordedDays(events: data.events, calendar: calendar)
        recorded = toDay
        // The day ledger and the graph's cells are made on another core while the rest is sorted by day.
        let ledgerWork = Parallel.Background { () -> (DayLedger, [GraphCell]) in
            let ledger = DayLedger(data, calendar: calendar, recorded: toDay)
            return (ledger, SiteIndex.graphCells(ledger))
        }
        var bugsById: [UUID: Bug] = [:]
        for b in data.bugs where b.deletedAt == nil { bugsById[b.id] = b }
        self.bugsById = bugsById
        var fixesById: [UUID: Fix] = [:]
        for f in data.fixes { fixesById[f.id] = f }
        self.fixesById = fixesById
        bugs = bugsById.values.sorted { $0.slug < $1.slug }
        var place: [UUID: Int] = [:]
        for (i, b) in bugs.enumerated() { place[b.id] = i }
        bugPlace = place
        var facts: [UUID: FixFacts] = Dictionary(minimumCapacity: fixesById.count)
        for (id, f) in fixesById { facts[id] = FixFacts(fix: f, bug: bugsById[f.bugId], bugIndex: place[f.bugId]) }
        fixFacts = facts
        var byBug = [[FixCompletion]](repeating: [], count: bugs.count)
        for c in data.completions where c.deletedAt == nil {
            if let i = facts[c.fixId]?.bugIndex { byBug[i].append(c) }
        }
        completionsByBug = byBug
        self.reruns = PendingFixRule.reruns(in: data.completions, fixes: fixesById)
        timedPastItsDay = PendingFixRule.timedPastItsDay(in: data.completions, fixesById: fixesById, today: today, dayOf: clock.day,
                                                         timerEnds: data.events)?.completion.id

        var comp: [LocalDay: [FixCompletion]] = [:]
        // A completion is listed on the day it counts on (the ledger's day), so a period's list and
        // its counts hold the same fixes; within the day, in the order they were given.
        for c in data.completions where c.deletedAt == nil { comp[toDay.day(of: c), default: []].append(c) }
        for k in Array(comp.keys) { comp[k]?.sort { $0.assignedAt != $1.assignedAt ? $0.assignedAt < $1.assignedAt : $0.id.sortsBefore($1.id) } }
        completionsByDay = comp
        var crashes: [LocalDay: [Crash]] = [:]
        for c in data.crashes where c.deletedAt == nil { crashes[toDay.day(of: c), default: []].append(c) }
        for k in Array(crashes.keys) { crashes[k]?.sort { $0.crashedAt != $1.crashedAt ? $0.crashedAt < $1.crashedAt : $0.id.sortsBefore($1.id) } }
        crashesByDay = crashes
        daysSorted(comp, crashes)
        var reboots: [LocalDay: [VersionEntry]] = [:]
        for v in data.versions where v.deletedAt == nil && v.changeType == .reboot {
            reboots[toDay.day(v.createdAt, madeWith: .crashRebooted, token: v.syncToken), default: []].append(v)
        }
        rebootsByDay = reboots
        var opened = Set<LocalDay>()
        for e in data.events where e.deletedAt == nil && e.eventType == .appOpened { opened.insert(toDay.day(of: e)) }
        openedDays = opened
        var diags: [LocalDay: WeeklyDiagnostic] = [:]
        for d in data.diagnostics where d.deletedAt == nil { diags[d.week(in: calendar)] = d }
        diagnosticsByWeek = diags

        let activity = Array(comp.keys) + Array(crashes.keys) + Array(reboots.keys) + Array(opened) + Array(diags.keys)
        let start = data.profile.map { toDay.practiceStart(of: $0) }
        practiceStart = start
        // Today is in the range whichever side of the records it falls (a clock behind the first
        // record: a flight west the night the practice began), so this week always has a page.
        first = min(today, ([start].compactMap { $0 } + activity).min() ?? today)
        last = max(today, activity.max() ?? today)
        versionSteps = RecordOrder.sorted(data.versions, keep: { $0.deletedAt == nil && ($0.changeType == .minorUpdate || $0.changeType == .majorUpdate) },
                                          at: { $0.createdAt }, id: { $0.id })
        var stepDays: [LocalDay] = []
        for v in versionSteps { stepDays.append(max(toDay.day(v.createdAt), stepDays.last ?? toDay.day(v.createdAt))) }
        versionStepDays = stepDays
        appliedDays = data.completions.filter { $0.deletedAt == nil && $0.outcome == .applied }.map { toDay.day(of: $0) }.sorted()

        (ledger, graph) = ledgerWork.wait()
    }

    /// The contribution graph's cells (Core's colour and depth rules), for the SVG renderer:
    /// the days in the range that are not empty.
    /// The cells of the days from `from` through `through` that have something to show; a day in
    /// range before the practice began is named so ("before day one"), not "no activity", which
    /// read as a day missed.
    func graphCells(from: LocalDay, through: LocalDay) -> [GraphCell] {
        var lo = 0, hi = graph.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if graph[mid].day < from { lo = mid + 1 } else { hi = mid }
        }
        var out: [GraphCell] = []
        if let start = practiceStart, from < start, from <= through {
            var day = from
            while day < start && day <= through {
                out.append(.beforeDayOne(day))
                day = day.adding(days: 1)
            }
        }
        var i = lo
        while i < graph.count && graph[i].day <= through {
            out.append(graph[i])
            i += 1
        }
        return out
    }

    /// Every day with something to show, oldest first (a cell depends only on its own day).
    static func graphCells(_ ledger: DayLedger) -> [GraphCell] {
        guard let first = ledger.days.first?.day, let last = ledger.days.last?.day else { return [] }
        return ContributionGraph.make(ledger, from: first, to: last).cells.compactMap { c in
            let kind: GraphCell.Kind
            switch c.color {
            case .empty: return nil
            case .opened: kind = .opened
            case .skipped: kind = .skipped
            case .applied: kind = .applied
            case .failed: kind = .failed
            case .crash: kind = .crash
            }
            var held: GraphCell.Held = []
            if c.activity.applied > 0 { held.insert(.applied) }
            if c.activity.skipped > 0 { held.insert(.skipped) }
            if c.activity.failed > 0 { held.insert(.failed) }
            if c.activity.crashes > 0 { held.insert(.crash) }
            return GraphCell(day: c.day, kind: kind, depth: c.depth, label: c.label, held: held)
        }
    }

    /// The version at the end of `day`: after every step that counted on it or before, on the
    /// day each step counted where it was made (a 7th fix applied on a Sunday in Los Angeles
    /// moves that week's version in a site built in Berlin, as the week's counts and the
    /// changelog have it).
    func version(through day: LocalDay) -> String {
        let n = versionStepDays.upperBound(of: day) { $0 }
        return n == 0 ? "1.0" : versionSteps[n - 1].version
    }

    /// Applied fixes that counted on `day` or before.
    func appliedCount(through day: LocalDay) -> Int {
        appliedDays.upperBound(of: day) { $0 }
    }
}
