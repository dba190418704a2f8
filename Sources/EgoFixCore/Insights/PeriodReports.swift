import Foundation

/// ReportPeriod reports, all read off one `DayLedger`.
public struct PeriodReports: Sendable {
    public let ledger: DayLedger
    let bugs: [UUID: Bug]
    let fixes: [UUID: Fix]
    let completions: [FixCompletion]
    let crashes: [Crash]
    let diagnostics: [WeeklyDiagnostic]

    public init(_ practice: Practice, calendar: Calendar) { self.init(ledger: DayLedger(practice, calendar: calendar)) }

    public init(ledger: DayLedger) {
        self.ledger = ledger
        bugs = ledger.practice.bugIndex()
        fixes = ledger.practice.fixIndex()
        completions = ledger.practice.liveCompletions
        crashes = ledger.practice.liveCrashes
        diagnostics = ledger.practice.liveDiagnostics
    }

    public func summary(for period: ReportPeriod) -> PeriodSummary {
        let cal = ledger.calendar
        let days = ledger.days(from: period.start, to: period.end)
        var applied = 0, skipped = 0, failed = 0, unmarked = 0, crashCount = 0, reboots = 0, reflections = 0, active = 0
        for d in days {
            applied += d.applied
            skipped += d.skipped
            failed += d.failed
            unmarked += d.unmarked
            crashCount += d.crashes
            reboots += d.reboots
            reflections += d.reflections
            if d.engaged { active += 1 }
        }
        let startInstant = period.start.start(in: cal), endInstant = period.end.start(in: cal)

        var lines: [UUID: BugPeriodLine] = [:]
        func line(_ id: UUID) -> BugPeriodLine {
            lines[id] ?? BugPeriodLine(bugId: id, title: bugs[id]?.title ?? "Unnamed bug", color: bugs[id]?.color ?? "#8a8f98")
        }
        for c in slice(completions, startInstant, endInstant, { $0.completedAt ?? $0.assignedAt }) {
            guard c.outcome != .pending, let bug = fixes[c.fixId]?.bugId else { continue }
            var l = line(bug)
            switch c.outcome {
            case .applied: l.applied += 1
            case .skipped: l.skipped += 1
            case .failed: l.failed += 1
            case .pending: break
            }
            lines[bug] = l
        }
        for c in slice(crashes, startInstant, endInstant, { $0.crashedAt }) {
            guard let bug = c.bugId else { continue }
            var l = line(bug)
            l.crashes += 1
            lines[bug] = l
        }
        var diags: [DiagnosticSummary] = []
        let margin: TimeInterval = 2 * 86_400
        for d in slice(diagnostics, startInstant - margin, endInstant + margin, { $0.weekStarting }) {
            let week = d.week(in: cal)
            guard week >= period.start && week < period.end else { continue }
            let ratings = d.responses.map {
                RatingLine(bugId: $0.bugId, title: bugs[$0.bugId]?.title ?? "Unnamed bug", intensity: $0.intensity, context: $0.primaryContext)
            }
            for r in d.responses {
                var l = line(r.bugId)
                l.ratings.append(r.intensity)
                lines[r.bugId] = l
            }
            diags.append(DiagnosticSummary(weekStarting: week, completedAt: d.completedAt, ratings: ratings))
        }
        let bugLines = lines.values.sorted { $0.title != $1.title ? $0.title < $1.title : $0.bugId.uuidString < $1.bugId.uuidString }

        return PeriodSummary(
            period: period, applied: applied, skipped: skipped, failed: failed, unmarked: unmarked, crashes: crashCount,
            reboots: reboots, reflections: reflections, activeDays: active,
            streakAtStart: ledger.streak(before: period.start), streakAtEnd: ledger.streak(endOf: period.lastDay),
            longestStreak: ledger.longestStreak(from: period.start, to: period.end),
            versionAtStart: ledger.timeline.version(at: startInstant), versionAtEnd: ledger.timeline.version(at: endInstant),
            diagnostics: diags, bugs: bugLines)
    }

    /// Every period of `kind` from `from` to `to`, oldest first.
    public func summaries(_ kind: ReportPeriodKind, from: LocalDay, to: LocalDay) -> [PeriodSummary] {
        ReportPeriod.all(kind, from: from, to: to).map { summary(for: $0) }
    }

    /// The records in [start, end) of a list sorted by `key`, found by binary search.
    func slice<T>(_ list: [T], _ start: Date, _ end: Date, _ key: (T) -> Date) -> ArraySlice<T> {
        func lower(_ t: Date) -> Int {
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if key(list[mid]) < t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        let a = lower(start), b = lower(end)
        return a < b ? list[a..<b] : []
    }
}
