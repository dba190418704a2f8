import EgoFixCore
import Foundation

/// A report period: an ISO week, a month, a quarter or a year, inclusive of both ends.
struct Period: Hashable, Sendable {
    enum Kind: String, Sendable { case week, month, quarter, year }
    let kind: Kind
    let start: LocalDay
    let end: LocalDay

    static func week(containing d: LocalDay) -> Period {
        let s = d.isoWeekStart
        return Period(kind: .week, start: s, end: s.adding(days: 6))
    }

    static func month(containing d: LocalDay) -> Period {
        let s = LocalDay(year: d.year, month: d.month, day: 1)
        let n = d.month == 12 ? LocalDay(year: d.year + 1, month: 1, day: 1) : LocalDay(year: d.year, month: d.month + 1, day: 1)
        return Period(kind: .month, start: s, end: n.adding(days: -1))
    }

    static func quarter(containing d: LocalDay) -> Period {
        let q = (d.month - 1) / 3
        let s = LocalDay(year: d.year, month: q * 3 + 1, day: 1)
        let n = q == 3 ? LocalDay(year: d.year + 1, month: 1, day: 1) : LocalDay(year: d.year, month: q * 3 + 4, day: 1)
        return Period(kind: .quarter, start: s, end: n.adding(days: -1))
    }

    static func year(containing d: LocalDay) -> Period {
        Period(kind: .year, start: LocalDay(year: d.year, month: 1, day: 1), end: LocalDay(year: d.year, month: 12, day: 31))
    }

    static func containing(_ d: LocalDay, kind: Kind) -> Period {
        switch kind {
        case .week: return week(containing: d)
        case .month: return month(containing: d)
        case .quarter: return quarter(containing: d)
        case .year: return year(containing: d)
        }
    }

    /// Every period of a kind that overlaps [first, last], in order.
    static func all(_ kind: Kind, from first: LocalDay, through last: LocalDay) -> [Period] {
        var out: [Period] = []
        var p = containing(first, kind: kind)
        while p.start <= last {
            out.append(p)
            p = containing(p.end.adding(days: 1), kind: kind)
        }
        return out
    }

    var key: String {
        var t = ASCIIText()
        appendKey(to: &t)
        return t.string
    }

    /// "2026-W47", "2026-11", "2026-Q4", "2026".
    private func appendKey(to t: inout ASCIIText) {
        switch kind {
        case .week:
            start.appendISOWeekLabel(to: &t)
        case .month:
            let c = start.components
            t.append(c.year, width: 4)  // as "%04d-%02d", for any year
            t.append(byte: 0x2d)
            t.append(c.month, width: 2)
        case .quarter:
            let c = start.components
            t.append(c.year)
            t.append("-Q")
            t.append((c.month - 1) / 3 + 1)
        case .year:
            t.append(start.year)
        }
    }

    /// The folder holding the kind's pages.
    var folder: StaticString {
        switch kind {
        case .week: return "weeks"
        case .month: return "months"
        case .quarter: return "quarters"
        case .year: return "years"
        }
    }

    /// "weeks/2026-W47/index.html"
    var path: String {
        var t = ASCIIText()
        t.append(folder)
        t.append("/")
        appendKey(to: &t)
        t.append("/index.html")
        return t.string
    }

    var title: String {
        var t = ASCIIText()
        switch kind {
        case .week:
            t.append("Week ")
            appendKey(to: &t)
        case .month:
            let c = start.components
            t.append(text: LocalDay.monthNames[c.month - 1])
            t.append(byte: 0x20)
            t.append(c.year)
        case .quarter:
            let c = start.components
            t.append(byte: 0x51)  // Q
            t.append((c.month - 1) / 3 + 1)
            t.append(byte: 0x20)
            t.append(c.year)
        case .year:
            t.append(start.year)
        }
        return t.string
    }

    var range: String { "\(start) to \(end)" }

    /// The period one level up: week → month (of its Thursday), month → quarter, quarter → year.
    var parent: Period? {
        switch kind {
        case .week: return .month(containing: start.adding(days: 3))
        case .month: return .quarter(containing: start)
        case .quarter: return .year(containing: start)
        case .year: return nil
        }
    }

    /// The day of `before` (the period before `period`) that stands where `day` stands in
    /// `period`: as many days in, for a week (the same weekday); else the same day of the month, as
    /// many months in, or the last day of that month when it is shorter. Counting days instead set
    /// 1 January to 1 March 2025 against 1 January to 29 February 2024 ("the same days before").
    static func sameDay(as day: LocalDay, in period: Period, before: Period) -> LocalDay {
        guard period.kind != .week else { return min(before.end, before.start.adding(days: day.days(since: period.start))) }
        let (y, m, d) = day.components, (py, pm, _) = period.start.components, (by, bm, _) = before.start.components
        let months = (by * 12 + bm - 1) + (y * 12 + m) - (py * 12 + pm)
        let year = months / 12, month = months % 12 + 1
        let length = LocalDay.daysFromCivil(month == 12 ? year + 1 : year, month == 12 ? 1 : month + 1, 1) - LocalDay.daysFromCivil(year, month, 1)
        return min(before.end, LocalDay(year: year, month: month, day: min(d, length)))
    }

    var days: [LocalDay] { (0...end.days(since: start)).map { start.adding(days: $0) } }

    /// Whether `today` falls inside the period but not on its last day: a period still under way.
    func isUnderWay(today: LocalDay) -> Bool { start <= today && today < end }

    /// The days of `before` (the period before this one) this period's counts are set against at
    /// `today`: all of them, or, while this one is under way, as many as it has had (`sameDay`; a
    /// Monday morning's week read "-3 vs before" against a whole week). Nil when there is nothing
    /// to compare: this period has not begun (the pages of the last week's month or year may start
    /// after today), or `before` began before the practice's first day, `practiceStart` (a January
    /// page on the 4th, the practice begun on 14 December, was set against 1 to 4 December, and on
    /// the 14th against thirteen days before day one and one after). `todayRecorded` false: today
    /// has nothing in it yet, and a period under way is compared through yesterday (a Thursday
    /// morning before `today` read "days engaged 3 -1 vs the same days before", the hours to come
    /// counted as a day missed); on its first day, with nothing yet, there is nothing to compare.
    func comparedDays(of before: Period, today: LocalDay, practiceStart: LocalDay, todayRecorded: Bool = true) -> ClosedRange<LocalDay>? {
        guard start <= today, before.start >= practiceStart else { return nil }
        guard isUnderWay(today: today) else { return before.start...before.end }
        guard todayRecorded else { return today > start ? comparedDays(of: before, today: today.adding(days: -1), practiceStart: practiceStart) : nil }
        return before.start...Period.sameDay(as: today, in: self, before: before)
    }
}
