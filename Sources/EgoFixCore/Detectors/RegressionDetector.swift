import Foundation

/// One time a stable (or resolved) bug came back.
public struct RegressionFinding: Sendable, Equatable {
    public enum Reason: String, Sendable {
        case crash
        case loudRating
        case failedRetest
    }

    public let bugId: UUID
    /// When the bug became stable, as recorded or as reconstructed.
    public let stableSince: Date
    /// When it came back.
    public let at: Date
    public let reason: Reason
    /// The day it came back on where it was recorded (a crash's or a failed fix's event), when known.
    public var day: LocalDay? = nil
    /// When it had become resolved, if it had before it came back.
    public var resolvedSince: Date? = nil
}

/// Regression: a stable bug back. Two sources, the later finding wins:
///
/// - the bug as stored is stable or resolved, and a crash about it, a loud rating or a failed fix
///   came after it became so (the lifecycle has not caught up yet);
/// - the bug's history, replayed through `BugLifecycle.evaluate` at every moment its outcome could
///   change (each rating, the end of each crash's 21-day window, the end of its first 28 active
///   days), shows it became stable and then had a crash, a loud rating or a failed fix — that is,
///   its status went stable → active.
///
/// Only a regression inside the lookback window is reported. A regression is a fact, so there is
/// no p-value (stored as 1) and the severity is fixed at insight: worth a line after an outcome,
/// not an interruption before the day's fix.
public struct RegressionDetector: DataDetector {
    public init() {}

    public var patternType: PatternType { .regression }
    public var minimumDataPoints: Int { 1 }
    public var name: String { "regression check" }

    public func evaluate(events: [AnalyticsEvent], diagnostics: [WeeklyDiagnostic], context: DetectionContext) -> DetectorResult {
        evaluate(DetectionData(events: events, diagnostics: diagnostics, context: context))
    }

    func evaluate(_ data: DetectionData) -> DetectorResult {
        let windowInstant = data.windowStart.start(in: data.context.calendar)
        var everStable = 0
        var latest: RegressionFinding?
        let bugs = data.context.bugs.filter { $0.deletedAt == nil }
            .sorted { $0.title != $1.title ? $0.title < $1.title : $0.id.uuidString < $1.id.uuidString }
        for bug in bugs {
            let (findings, wasStable) = Self.regressions(of: bug, in: data)
            if wasStable { everStable += 1 }
            for f in findings where f.at >= windowInstant {
                if let l = latest, !(f.at > l.at) { continue }
                latest = f
            }
        }
        let status = DetectorStatus(patternType: patternType, name: name, have: everStable, need: 1,
                                    unit: max(everStable, 1) == 1 ? "stable bug to watch" : "stable bugs to watch")
        guard let f = latest else { return DetectorResult(pattern: nil, status: status) }

        let cal = data.context.calendar
        let stableDay = LocalDay(f.stableSince, calendar: cal), backDay = f.day ?? LocalDay(f.at, calendar: cal)
        let days = backDay.days(since: stableDay)
        let what: String
        switch f.reason {
        case .crash: what = "A crash about it was logged"
        case .loudRating: what = "It was rated loud"
        case .failedRetest: what = "A fix for it failed"
        }
        let title = "\(data.title(f.bugId)) is back."
        let later = days == 0 ? "the same day" : Plural.of(days, "day", "days") + " later"
        let body: String
        if let resolved = f.resolvedSince {
            // It had gone on to resolved: "Stable meant quiet" left out the 90 quiet days after.
            body = "Stable since \(PatternCopy.date(stableDay)), resolved since \(PatternCopy.date(LocalDay(resolved, calendar: cal))). "
                + "\(what) on \(PatternCopy.date(backDay)), \(days == 0 ? "the day it went stable" : Plural.of(days, "day", "days") + " after it went stable"). "
                + "Resolved meant quiet for a long time, not gone."
        } else {
            body = "Stable since \(PatternCopy.date(stableDay)). \(what) on \(PatternCopy.date(backDay)), \(later). Stable meant quiet, not gone."
        }
        let basis = PatternCopy.basis("its crashes and ratings since \(PatternCopy.date(stableDay))", severity: nil)
        let pattern = data.pattern(patternType, severity: .insight, title: title, body: body, related: [f.bugId],
                                   dataPoints: 1, pValue: 1, basis: basis, key: [String(backDay.ordinal)])
        return DetectorResult(pattern: pattern, status: status)
    }

    /// When each active bug last came back, replayed from the practice's records, for the bugs
    /// whose `regressedAt` was never stored (the first egofix kept no such date): bug id to the
    /// instant of the crash, loud rating or failed fix, after the bug's latest activation.
    public static func undatedRegressions(_ practice: Practice, now: Date, calendar: Calendar) -> [UUID: Date] {
        let data = DetectionData(events: practice.events, diagnostics: practice.diagnostics,
                                 context: DetectionContext(practice: practice, now: now, calendar: calendar))
        var out: [UUID: Date] = [:]
        for bug in practice.bugs where bug.deletedAt == nil && bug.status == .active && bug.regressedAt == nil {
            let latest = regressions(of: bug, in: data).findings.map(\.at).max()
            if let latest, latest > (bug.activatedAt ?? .distantPast) { out[bug.id] = latest }
        }
        return out
    }

    /// Every regression in one bug's history, and whether it was ever stable.
    static func regressions(of bug: Bug, in data: DetectionData) -> (findings: [RegressionFinding], everStable: Bool) {
        let cal = data.context.calendar
        let crashes = data.allCrashes.filter { $0.bugId == bug.id }
        let ratings = data.allRatings.filter { $0.bugId == bug.id }
        let failures = data.allFailures.filter { $0.bugId == bug.id }
        var findings: [RegressionFinding] = []
        var everStable = false

        // The stored state.
        if bug.status == .stable || bug.status == .resolved {
            everStable = true
            let since = (bug.status == .resolved ? bug.resolvedAt : nil) ?? bug.stableSince ?? bug.updatedAt
            if var f = firstReturn(after: since, crashes: crashes, ratings: ratings, failures: failures,
                                   bug: bug.id, stableSince: bug.stableSince ?? since) {
                f.resolvedSince = bug.status == .resolved ? bug.resolvedAt : nil
                findings.append(f)
            }
        }

        // The replayed history.
        guard let activated = bug.activatedAt else { return (findings, everStable) }
        enum Item { case rating(RatingRecord), crash(CrashRecord), failure(OutcomeRecord), checkpoint(Date) }
        var timeline: [(Date, Int, Item)] = []
        for r in ratings { timeline.append((r.completedAt, 0, .rating(r))) }
        for c in crashes {
            timeline.append((c.at, 1, .crash(c)))
            timeline.append((c.day.adding(days: Thresholds.stableCrashFreeDays).start(in: cal), 3, .checkpoint(c.at)))
        }
        for f in failures { timeline.append((f.at, 2, .failure(f))) }
        let activeDay = LocalDay(activated, calendar: cal)
        timeline.append((activeDay.adding(days: Thresholds.stableMinimumActiveDays).start(in: cal), 3, .checkpoint(activated)))
        timeline = timeline.filter { $0.0 >= activated && $0.0 <= data.context.now }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }

        // The lifecycle's inputs, kept up to date as the replay goes (ids are fixed: nothing reads them).
        var lastRatings: [WeeklyDiagnostic] = []
        var recentCrashes: [(day: LocalDay, value: Crash)] = []
        var stableAt: Date?
        let probe = Bug(id: bug.id, slug: bug.slug, title: bug.title, description: "", isActive: true,
                        status: .active, activatedAt: activated, createdAt: bug.createdAt)
        for (at, _, item) in timeline {
            if let since = stableAt {
                var reason: RegressionFinding.Reason?
                var day: LocalDay?
                switch item {
                case .crash(let c): (reason, day) = (.crash, c.day)
                case .rating(let r) where r.intensity == .loud: reason = .loudRating
                case .failure(let f): (reason, day) = (.failedRetest, f.day)
                default: break
                }
                if let reason, at > since {
                    findings.append(RegressionFinding(bugId: bug.id, stableSince: since, at: at, reason: reason, day: day,
                                                      resolvedSince: resolution(of: probe, stableSince: since, ratings: ratings, before: at, data: data)))
                    stableAt = nil
                }
            }
            switch item {
            case .rating(let r):
                lastRatings.append(diagnostic(r, bug: bug.id, data: data))
                if lastRatings.count > Thresholds.stableQuietWeeks { lastRatings.removeFirst() }
            case .crash(let c):
                recentCrashes.append((c.day, Crash(id: bug.id, userId: data.context.userId, bugId: bug.id, crashedAt: c.at)))
            case .failure, .checkpoint:
                break
            }
            guard stableAt == nil else { continue }
            if case .crash = item { continue }
            if case .failure = item { continue }
            let today = LocalDay(at, calendar: cal)
            // The lifecycle needs its last ratings all quiet before anything else counts; most moments
            // fail that, and asking it then would only say no.
            guard lastRatings.count == Thresholds.stableQuietWeeks,
                  lastRatings.allSatisfy({ $0.responses.allSatisfy { $0.intensity == .quiet } }) else { continue }
            recentCrashes.removeAll { today.days(since: $0.day) >= Thresholds.stableCrashFreeDays }
            if BugLifecycle.evaluate(probe, crashes: recentCrashes.map(\.value), diagnostics: lastRatings, retests: [],
                                     now: at, calendar: cal) == .stabilised {
                stableAt = at
                everStable = true
            }
        }
        return (findings, everStable)
    }

    /// When a bug stable since `stableSince` became resolved (the lifecycle's own dating,
    /// `BugLifecycle.effective`), if it did before `end`: its ratings until then, and no crash,
    /// loud rating or failed fix, since the first of those ended the stability at `end`.
    static func resolution(of probe: Bug, stableSince: Date, ratings: [RatingRecord], before end: Date, data: DetectionData) -> Date? {
        var stable = probe
        stable.status = .stable
        stable.stableSince = stableSince
        let cal = data.context.calendar
        let rated = ratings.filter { $0.completedAt > stableSince && $0.completedAt < end }.map { diagnostic($0, bug: probe.id, data: data) }
        let at = BugLifecycle.effective(.resolved, of: stable, crashes: [], diagnostics: rated, retests: [], now: end, calendar: cal)
        return at < end ? at : nil
    }

    /// One bug's rating as the lifecycle reads ratings: a diagnostic of that one response.
    static func diagnostic(_ r: RatingRecord, bug: UUID, data: DetectionData) -> WeeklyDiagnostic {
        WeeklyDiagnostic(id: bug, userId: data.context.userId, weekStarting: r.week.start(in: data.context.calendar),
                         responses: [BugDiagnosticResponse(bugId: bug, intensity: r.intensity, primaryContext: r.context)],
                         completedAt: r.completedAt)
    }

    static func firstReturn(after since: Date, crashes: [CrashRecord], ratings: [RatingRecord],
                            failures: [OutcomeRecord], bug: UUID, stableSince: Date) -> RegressionFinding? {
        var options: [RegressionFinding] = []
        if let c = crashes.first(where: { $0.at > since }) {
            options.append(RegressionFinding(bugId: bug, stableSince: stableSince, at: c.at, reason: .crash, day: c.day))
        }
        if let r = ratings.filter({ $0.completedAt > since && $0.intensity == .loud }).min(by: { $0.completedAt < $1.completedAt }) {
            options.append(RegressionFinding(bugId: bug, stableSince: stableSince, at: r.completedAt, reason: .loudRating))
        }
        if let f = failures.first(where: { $0.at > since }) {
            options.append(RegressionFinding(bugId: bug, stableSince: stableSince, at: f.at, reason: .failedRetest, day: f.day))
        }
        return options.min { $0.at != $1.at ? $0.at < $1.at : $0.reason.rawValue < $1.reason.rawValue }
    }
}
