import Foundation

/// One marked fix, as the detectors see it.
struct OutcomeRecord: Sendable {
    let bugId: UUID
    let fixId: UUID?
    let outcome: FixOutcome
    let at: Date
    let day: LocalDay
}

/// One logged crash, with the weekday (1 = Sunday) and hour it was logged at in the user's zone.
struct CrashRecord: Sendable {
    let bugId: UUID?
    let at: Date
    let day: LocalDay
    let weekday: Int
    let hour: Int
}

/// One bug's rating in one weekly diagnostic.
struct RatingRecord: Sendable {
    let bugId: UUID
    let intensity: BugIntensity
    let context: EventContext?
    /// The Monday of the week rated.
    let week: LocalDay
    let completedAt: Date
}

/// The detectors' input, normalised once: soft-deleted records and records about deleted bugs
/// dropped, everything after `now` dropped, the lookback window applied, all sorted by a total order.
///
/// Sources: outcomes come from fixApplied / fixSkipped / fixFailed events; when there are none,
/// from the context's completions. Crashes come from crashLogged events; when there are none,
/// from the context's crashes. Ratings come from the diagnostics.
struct DetectionData: Sendable {
    let context: DetectionContext
    let today: LocalDay
    let windowStart: LocalDay
    let bugsById: [UUID: Bug]
    /// Outcomes in the window, oldest first.
    let outcomes: [OutcomeRecord]
    /// Crashes in the window, oldest first.
    let crashes: [CrashRecord]
    /// Every crash up to now, oldest first (the regression detector needs the whole story).
    let allCrashes: [CrashRecord]
    /// Every failed outcome up to now, oldest first (a failed retest is a regression).
    let allFailures: [OutcomeRecord]
    /// Weekday (1 = Sunday) and hour of every non-crash event in the window: when the user is around.
    let baseline: [(weekday: Int, hour: Int)]
    /// Local days in the window with any event at all.
    let activeDays: Set<LocalDay>
    /// Ratings in the window, oldest week first.
    let ratings: [RatingRecord]
    /// Every rating up to now, oldest week first.
    let allRatings: [RatingRecord]

    init(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) {
        self.context = context
        let cal = context.calendar
        let today = LocalDay(context.now, calendar: cal)
        self.today = today
        let windowStart = today.adding(days: -(max(1, context.lookbackDays) - 1))
        self.windowStart = windowStart
        let windowInstant = windowStart.start(in: cal)
        let now = context.now
        var bugs: [UUID: Bug] = [:]
        for b in context.bugs { bugs[b.id] = b }
        self.bugsById = bugs
        let deletedBugs = Set(context.bugs.filter { $0.deletedAt != nil }.map(\.id))
        func liveBug(_ id: UUID?) -> Bool { id.map { !deletedBugs.contains($0) } ?? true }
        var fixBug: [UUID: UUID] = [:]
        for f in context.fixes { fixBug[f.id] = f.bugId }

        let live = RecordOrder.sorted(events, keep: { $0.deletedAt == nil && $0.timestamp <= now }, at: { $0.timestamp }, id: { $0.id })

        // Outcomes.
        func outcomeOf(_ type: EventType) -> FixOutcome? {
            switch type {
            case .fixApplied: return .applied
            case .fixSkipped: return .skipped
            case .fixFailed: return .failed
            case .fixAssigned, .crashLogged, .crashRebooted, .appOpened, .weeklyCompleted, .patternViewed, .patternDismissed,
                 .fixShared, .timerCompleted:
                return nil
            }
        }
        var windowOutcomes: [OutcomeRecord] = []
        var failures: [OutcomeRecord] = []
        let outcomeEvents = live.filter { outcomeOf($0.eventType) != nil }
        if !outcomeEvents.isEmpty {
            for e in outcomeEvents {
                guard let outcome = outcomeOf(e.eventType),
                      let bug = e.bugId ?? e.fixId.flatMap({ fixBug[$0] }), liveBug(bug) else { continue }
                let inWindow = e.timestamp >= windowInstant
                guard inWindow || outcome == .failed else { continue }
                let r = OutcomeRecord(bugId: bug, fixId: e.fixId, outcome: outcome, at: e.timestamp,
                                      day: e.localDay(or: cal))
                if inWindow { windowOutcomes.append(r) }
                if outcome == .failed { failures.append(r) }
            }
        } else {
            let marked = RecordOrder.sorted(context.completions,
                                            keep: { $0.deletedAt == nil && $0.outcome != .pending && ($0.completedAt ?? $0.assignedAt) <= now },
                                            at: { $0.completedAt ?? $0.assignedAt }, id: { $0.id })
            for c in marked {
                guard let bug = fixBug[c.fixId], liveBug(bug) else { continue }
                let at = c.completedAt ?? c.assignedAt
                let inWindow = at >= windowInstant
                guard inWindow || c.outcome == .failed else { continue }
                let r = OutcomeRecord(bugId: bug, fixId: c.fixId, outcome: c.outcome, at: at,
                                      day: LocalDay(at, calendar: cal))
                if inWindow { windowOutcomes.append(r) }
                if c.outcome == .failed { failures.append(r) }
            }
        }
        self.outcomes = windowOutcomes
        self.allFailures = failures

        // Crashes.
        var all: [CrashRecord] = []
        let crashEvents = live.filter { $0.eventType == .crashLogged }
        if !crashEvents.isEmpty {
            for e in crashEvents where liveBug(e.bugId) {
                all.append(CrashRecord(bugId: e.bugId, at: e.timestamp, day: e.localDay(or: cal),
                                       weekday: e.dayOfWeek, hour: e.hourOfDay))
            }
        } else {
            let logged = RecordOrder.sorted(context.crashes, keep: { $0.deletedAt == nil && $0.crashedAt <= now && liveBug($0.bugId) },
                                            at: { $0.crashedAt }, id: { $0.id })
            for c in logged {
                let comps = cal.dateComponents([.weekday, .hour], from: c.crashedAt)
                all.append(CrashRecord(bugId: c.bugId, at: c.crashedAt, day: LocalDay(c.crashedAt, calendar: cal),
                                       weekday: comps.weekday ?? 1, hour: comps.hour ?? 0))
            }
        }
        self.allCrashes = all
        self.crashes = all.filter { $0.at >= windowInstant }

        // Baseline and active days.
        var base: [(weekday: Int, hour: Int)] = []
        var days = Set<LocalDay>()
        for e in live where e.timestamp >= windowInstant {
            days.insert(LocalDay(e.timestamp, calendar: cal))
            if e.eventType != .crashLogged { base.append((e.dayOfWeek, e.hourOfDay)) }
        }
        if crashEvents.isEmpty { for c in crashes { days.insert(c.day) } }
        if outcomeEvents.isEmpty { for o in windowOutcomes { days.insert(o.day) } }
        self.baseline = base
        self.activeDays = days

        // Ratings.
        let liveDiagnostics = RecordOrder.sorted(diagnostics, keep: { $0.deletedAt == nil && $0.completedAt <= now },
                                                 at: { $0.weekStarting }, id: { $0.id })
        var ratings: [RatingRecord] = []
        struct BugWeek: Hashable { let bug: UUID, week: Int }
        var seen = Set<BugWeek>()
        for d in liveDiagnostics {
            let week = d.week(in: cal)
            for r in d.responses where liveBug(r.bugId) {
                // One rating per bug per week: the first diagnostic for that week wins.
                guard seen.insert(BugWeek(bug: r.bugId, week: week.ordinal)).inserted else { continue }
                ratings.append(RatingRecord(bugId: r.bugId, intensity: r.intensity, context: r.primaryContext,
                                            week: week, completedAt: d.completedAt))
            }
        }
        self.allRatings = ratings
        self.ratings = ratings.filter { $0.week.adding(days: 6) >= windowStart }
    }

    // MARK: Naming

    func title(_ bugId: UUID?) -> String {
        guard let id = bugId else { return "an unnamed bug" }
        return bugsById[id]?.title ?? "an unnamed bug"
    }

    /// "being right" for "Need to be right".
    func topic(_ bugId: UUID?) -> String {
        guard let id = bugId, let t = bugsById[id]?.title else { return "an unnamed bug" }
        return PatternCopy.topic(t)
    }

    /// Bugs in a total order for iteration: by title, then id.
    func sortedBugIds(_ ids: Set<UUID>) -> [UUID] {
        ids.sorted { a, b in
            let ta = title(a), tb = title(b)
            return ta != tb ? ta < tb : a.sortsBefore(b)
        }
    }

    /// Whole weeks spanned from `start` to today, at least 1.
    func weeks(since start: LocalDay) -> Int { max(1, (today.days(since: start) + 7) / 7) }

    func pattern(_ type: PatternType, severity: PatternSeverity, title: String, body: String,
                 related: [UUID], dataPoints: Int, pValue: Double, basis: String, key: [String]) -> DetectedPattern {
        let id = StableUUID.make(["pattern", context.userId.uuidString, type.rawValue] + related.map(\.uuidString) + key)
        return DetectedPattern(id: id, userId: context.userId, patternType: type, severity: severity, title: title,
                               body: body, relatedBugIds: related, dataPoints: dataPoints, pValue: pValue,
                               basis: basis, detectedAt: context.now)
    }
}

/// Detectors that work on shared, pre-normalised data; the engine builds it once for all of them.
protocol DataDetector: PatternDetector {
    func evaluate(_ data: DetectionData) -> DetectorResult
}
