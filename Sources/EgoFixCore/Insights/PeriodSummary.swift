import Foundation

public enum ReportPeriodKind: String, Sendable, CaseIterable, Codable {
    case week
    case month
    case quarter
    case year
}

/// A calendar period in the user's time zone: [start, end) in local days.
public struct ReportPeriod: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let kind: ReportPeriodKind
    public let start: LocalDay
    /// The first day after the period.
    public let end: LocalDay

    /// The period of `kind` that contains `day`. Weeks are ISO weeks (Monday first).
    public static func containing(_ day: LocalDay, kind: ReportPeriodKind) -> ReportPeriod {
        switch kind {
        case .week:
            let s = day.isoWeekStart
            return ReportPeriod(kind: kind, start: s, end: s.adding(days: 7))
        case .month:
            let s = LocalDay(year: day.year, month: day.month, day: 1)
            let e = day.month == 12 ? LocalDay(year: day.year + 1, month: 1, day: 1) : LocalDay(year: day.year, month: day.month + 1, day: 1)
            return ReportPeriod(kind: kind, start: s, end: e)
        case .quarter:
            let q = (day.month - 1) / 3
            let s = LocalDay(year: day.year, month: q * 3 + 1, day: 1)
            let e = q == 3 ? LocalDay(year: day.year + 1, month: 1, day: 1) : LocalDay(year: day.year, month: q * 3 + 4, day: 1)
            return ReportPeriod(kind: kind, start: s, end: e)
        case .year:
            return ReportPeriod(kind: kind, start: LocalDay(year: day.year, month: 1, day: 1),
                          end: LocalDay(year: day.year + 1, month: 1, day: 1))
        }
    }

    public var next: ReportPeriod { ReportPeriod.containing(end, kind: kind) }
    public var previous: ReportPeriod { ReportPeriod.containing(start.adding(days: -1), kind: kind) }
    public var lastDay: LocalDay { end.adding(days: -1) }

    /// "2026-W47", "2026-11", "2026-Q4", "2026"
    public var label: String {
        switch kind {
        case .week: return start.isoWeekLabel
        case .month: return String(format: "%04d-%02d", start.year, start.month)
        case .quarter: return "\(start.year)-Q\((start.month - 1) / 3 + 1)"
        case .year: return String(start.year)
        }
    }

    public var description: String { label }

    /// Every period of `kind` touching [from, to], oldest first.
    public static func all(_ kind: ReportPeriodKind, from: LocalDay, to: LocalDay) -> [ReportPeriod] {
        guard from <= to else { return [] }
        var out: [ReportPeriod] = []
        var p = containing(from, kind: kind)
        while p.start <= to {
            out.append(p)
            p = p.next
        }
        return out
    }

    public static func < (a: ReportPeriod, b: ReportPeriod) -> Bool {
        a.start != b.start ? a.start < b.start : a.kind.rawValue < b.kind.rawValue
    }
}

/// One bug's line in a diagnostic, with names for the page.
public struct RatingLine: Sendable, Equatable {
    public let bugId: UUID
    public let title: String
    public let intensity: BugIntensity
    public let context: EventContext?
}

public struct DiagnosticSummary: Sendable, Equatable {
    public let weekStarting: LocalDay
    public let completedAt: Date
    public let ratings: [RatingLine]
}

/// One bug's numbers in a period.
public struct BugPeriodLine: Sendable, Equatable {
    public let bugId: UUID
    public let title: String
    public let color: String
    public var applied = 0
    public var skipped = 0
    public var failed = 0
    public var crashes = 0
    public var ratings: [BugIntensity] = []
}

/// A week, month, quarter or year in numbers: the report pages' data.
public struct PeriodSummary: Sendable, Equatable {
    public let period: ReportPeriod
    public let applied: Int
    public let skipped: Int
    public let failed: Int
    public let unmarked: Int
    public let crashes: Int
    public let reboots: Int
    public let reflections: Int
    /// Days with any engagement.
    public let activeDays: Int
    /// The streak as it stood when the period began, when it ended, and the highest it reached inside.
    public let streakAtStart: Int
    public let streakAtEnd: Int
    public let longestStreak: Int
    public let versionAtStart: String
    public let versionAtEnd: String
    /// Diagnostics for weeks starting inside the period, oldest first.
    public let diagnostics: [DiagnosticSummary]
    /// Bugs with anything in the period, by title.
    public let bugs: [BugPeriodLine]

    public var isEmpty: Bool { applied + skipped + failed + unmarked + crashes + reboots == 0 && diagnostics.isEmpty && activeDays == 0 }

    /// "1.2 → 1.4", or "1.3" when it did not change.
    public var versionRange: String { versionAtStart == versionAtEnd ? versionAtStart : versionAtStart + " → " + versionAtEnd }
}

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
            let week = LocalDay(d.weekStarting, calendar: cal)
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
