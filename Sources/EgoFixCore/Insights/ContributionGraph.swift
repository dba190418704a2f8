import Foundation

/// A contribution-graph square's colour: what kind of day it was.
///
/// - `applied`: green, a fix applied.
/// - `skipped`: yellow, a fix skipped.
/// - `failed`: orange, its own colour. A failed fix was attempted and did not take: more than a
///   skip, and not a crash. Orange sits between the two on purpose.
/// - `crash`: red, a crash logged.
/// - `opened`: grey outline, the tool opened (a fix seen, a diagnostic, a share) with no outcome.
/// - `empty`: nothing.
///
/// A day with several outcomes takes the strongest: crash > failed > applied > skipped > opened.
public enum CellColor: String, Sendable, CaseIterable, Codable {
    case empty
    case opened
    case skipped
    case applied
    case failed
    case crash
}

/// One square.
public struct ContributionCell: Sendable, Equatable {
    public let day: LocalDay
    public let color: CellColor
    /// Shade, 0 for an empty day, else 1 (light) to 4 (dark). See `ContributionGraph.depth`.
    public let depth: Int
    /// Week column, 0 for the week holding the first day.
    public let column: Int
    /// 0 = Monday … 6 = Sunday.
    public let row: Int
    public let activity: DayActivity

    /// "2026-11-22: 1 applied, 1 crash, depth 2 of 4" — the table alternative and the SVG title.
    public var label: String {
        // Written as UTF-8 into the string's own storage: one for every non-empty day of every
        // graph, so no parts, interpolations or joins.
        let a = activity
        let date = day.description
        // Room for every part below at its longest: ", ", 20 digits, " ", "reflections"; then the depth.
        return String(unsafeUninitializedCapacity: date.utf8.count + 2 + 7 * 34 + 16) { buf in
            var n = 0
            func put(_ s: StaticString) {
                let p = s.utf8Start
                for i in 0..<s.utf8CodeUnitCount { buf[n + i] = p[i] }
                n += s.utf8CodeUnitCount
            }
            func put(_ v: Int) {
                var digits = 1, rest = v.magnitude
                while rest >= 10 { rest /= 10; digits += 1 }
                if v < 0 { buf[n] = UInt8(ascii: "-"); n += 1 }
                var m = v.magnitude
                for i in stride(from: digits - 1, through: 0, by: -1) {
                    buf[n + i] = UInt8(truncatingIfNeeded: 0x30 + m % 10)
                    m /= 10
                }
                n += digits
            }
            var first = true
            func part(_ count: Int, _ one: StaticString, _ many: StaticString) {
                guard count > 0 else { return }
                if !first { put(", ") }
                first = false
                put(count)
                put(" ")
                put(count == 1 ? one : many)
            }
            for b in date.utf8 { buf[n] = b; n += 1 }
            put(": ")
            part(a.applied, "applied", "applied")
            part(a.skipped, "skipped", "skipped")
            part(a.failed, "failed", "failed")
            part(a.crashes, "crash", "crashes")
            part(a.reflections, "reflection", "reflections")
            part(a.diagnostics, "diagnostic", "diagnostics")
            part(a.reboots, "reboot", "reboots")
            // Opened with no fix given (a rest day, as `today` said it) is not a fix left unmarked.
            if first {
                put(color != .opened ? "nothing" : a.unmarked > 0 ? "opened, no outcome" : a.markedLater > 0 ? "opened, its fix marked on a later day" : "opened, no fix given")
            } else if color == .opened { put(", no outcome") }
            // The shade in words: depth is what the graph says by shade alone.
            if color != .empty && color != .opened {
                put(", depth ")
                put(depth)
                put(" of 4")
            }
            return n
        }
    }
}

/// The GitHub-style grid: one cell per local day from `from` to `to`, inclusive, in ISO weeks.
/// A mirror, not a scoreboard.
public struct ContributionGraph: Sendable, Equatable {
    public let from: LocalDay
    public let to: LocalDay
    public let cells: [ContributionCell]
    /// Number of week columns.
    public let columns: Int

    public static func make(_ practice: Practice, calendar: Calendar, from: LocalDay, to: LocalDay) -> ContributionGraph {
        make(DayLedger(practice, calendar: calendar), from: from, to: to)
    }

    public static func make(_ ledger: DayLedger, from: LocalDay, to: LocalDay) -> ContributionGraph {
        guard from <= to else { return ContributionGraph(from: from, to: to, cells: [], columns: 0) }
        let firstMonday = from.isoWeekStart
        var cells: [ContributionCell] = []
        cells.reserveCapacity(to.days(since: from) + 1)
        let active = ledger.days(from: from, to: to.adding(days: 1))
        var it = active.startIndex
        var d = from
        while d <= to {
            var a = DayActivity(day: d)
            if it < active.endIndex, active[it].day == d {
                a = active[it]
                it = active.index(after: it)
            }
            let c = color(a)
            cells.append(ContributionCell(day: d, color: c, depth: depth(a, color: c),
                                          column: d.days(since: firstMonday) / 7, row: d.isoWeekday - 1, activity: a))
            d = d.adding(days: 1)
        }
        return ContributionGraph(from: from, to: to, cells: cells, columns: to.days(since: firstMonday) / 7 + 1)
    }

    /// Colour by the strongest outcome of the day: crash > failed > applied > skipped > opened.
    public static func color(_ a: DayActivity) -> CellColor {
        if a.crashes > 0 { return .crash }
        if a.failed > 0 { return .failed }
        if a.applied > 0 { return .applied }
        if a.skipped > 0 { return .skipped }
        if a.unmarked > 0 || a.markedLater > 0 || a.opens > 0 || a.diagnostics > 0 || a.reboots > 0 { return .opened }
        return .empty
    }

    /// Shade, depth of engagement: 0 for an empty day; otherwise 1, plus 1 for a medium or 2 for a
    /// high-severity fix applied or failed, plus 1 for a reflection written, plus 2 for a crash
    /// logged with a note; at most 4. A low-severity tap-through is 1; a high-severity fix with a
    /// reflection is 4; a crash with a note is 3.
    public static func depth(_ a: DayActivity, color: CellColor) -> Int {
        guard color != .empty else { return 0 }
        var d = 1
        switch a.attemptedSeverity {
        case .medium?: d += 1
        case .high?: d += 2
        default: break
        }
        if a.reflections > 0 { d += 1 }
        if a.crashesWithNote > 0 { d += 2 }
        return min(4, d)
    }
}
