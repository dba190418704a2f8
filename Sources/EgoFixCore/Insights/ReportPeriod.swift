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
