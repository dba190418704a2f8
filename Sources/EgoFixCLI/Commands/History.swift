import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Recent days, with a contribution strip.")
    @OptionGroup var options: StoreOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("How many days back, 1 to 3660.", valueName: "n")) var days: Int = 28
    @Flag(help: "Print JSON.") var json = false

    struct JSONDay: Encodable {
        let date: String, color: String, depth: Int, applied: Int, skipped: Int, failed: Int, crashes: Int, reboots: Int
        let fixes: [JSONFix]
    }
    struct JSONFix: Encodable { let fix: String, bug: String, outcome: String, rerun: Bool, reflection: String? }
    struct JSONBug: Encodable { let bug: String, applied: Int, skipped: Int, failed: Int, completionRate: Double? }
    struct JSONOutput: Encodable { let from: String, to: String, days: [JSONDay], byBug: [JSONBug] }

    func run() async throws {
        guard (1...3660).contains(days) else { throw CLIError("--days must be between 1 and 3660.", code: 64) }
        let s = try Session.open(options)
        try await s.ensureCatalogue()
        _ = try await s.profile()
        let data = try await s.store.readPractice()
        // Each record on the day it was made where it was made, read once for the ledger and the lists.
        let recorded = RecordedDays(events: data.events, calendar: s.calendar)
        let ledger = DayLedger(data, calendar: s.calendar, recorded: recorded)
        // From the practice's first day at most (a practice begun today showed a month of days
        // before it, each "nothing"), as the site's history does: day one as the site has it, the
        // day the practice began where it began.
        let began = ([data.profile.map { recorded.practiceStart(of: $0) }, ledger.days.first?.day].compactMap { $0 }).min()
        let from = max(s.today.adding(days: -(days - 1)), min(began ?? s.today, s.today))
        // Through today, or through a later day that holds records: after a flight west over the
        // date line, the day the records were made where they were made can be "tomorrow" here
        // (status and the site count them; history left them out). Two days at most, the widest
        // gap between two zones' dates (a record from a clock years ahead is not a reason to
        // print years of strip).
        let to = max(s.today, ledger.days.last { $0.day <= s.today.adding(days: 2) }?.day ?? s.today)
        let graph = ContributionGraph.make(ledger, from: from, to: to)
        let fixesById = Dictionary(uniqueKeysWithValues: data.fixes.map { ($0.id, $0) })
        let bugsById = Dictionary(uniqueKeysWithValues: data.bugs.map { ($0.id, $0) })
        var byDay: [LocalDay: [FixCompletion]] = [:]
        for c in data.completions where c.deletedAt == nil { byDay[recorded.day(of: c), default: []].append(c) }
        let rates = HistoryInsight.make(data).overall
        // A rerun: its fix was applied by an earlier completion. An expired quick fix: left pending past its days.
        let reruns = PendingFixRule.reruns(in: data.completions, fixes: fixesById)
        let timedPast = PendingFixRule.timedPastItsDay(in: data.completions, fixesById: fixesById, today: s.today,
                                                       dayOf: { LocalDay($0, calendar: s.calendar) }, timerEnds: data.events)?.completion.id
        func outcomeWord(_ c: FixCompletion) -> String {
            PendingFixRule.outcomeText(c, fix: fixesById[c.fixId], today: s.today, dayOf: { recorded.day($0) }, stillPending: timedPast)
        }
        if json {
            let out = JSONOutput(from: from.description, to: to.description, days: graph.cells.map { c in
                JSONDay(date: c.day.description, color: c.color.rawValue, depth: c.depth, applied: c.activity.applied,
                        skipped: c.activity.skipped, failed: c.activity.failed, crashes: c.activity.crashes, reboots: c.activity.reboots,
                        fixes: (byDay[c.day] ?? []).sorted { $0.assignedAt != $1.assignedAt ? $0.assignedAt < $1.assignedAt : $0.id.sortsBefore($1.id) }.map { x in
                            JSONFix(fix: fixesById[x.fixId]?.label ?? "?", bug: fixesById[x.fixId].flatMap { bugsById[$0.bugId]?.slug } ?? "?",
                                    outcome: outcomeWord(x), rerun: reruns.contains(x.id), reflection: x.reflection)
                        })
            }, byBug: rates.map { JSONBug(bug: bugsById[$0.bugId]?.slug ?? "?", applied: $0.applied, skipped: $0.skipped,
                                          failed: $0.failed, completionRate: $0.completionRate) })
            Swift.print(try JSONOut.encode(out))
            return
        }
        func mark(_ c: CellColor) -> (String, String) {
            switch c {
            case .applied: return ("A", Style.applied)
            case .skipped: return ("s", Style.skipped)
            case .failed: return ("F", Style.failed)
            case .crash: return ("X", Style.crash)
            case .opened: return ("o", Style.comment)
            case .empty: return (".", Style.comment)
            }
        }
        var out = ["HISTORY  \(from) to \(to)", ""]
        for row in 0..<7 {
            let name = LocalDay.shortWeekdayNames[row]
            var line = name + " "
            for col in 0..<graph.columns {
                if let c = graph.cells.first(where: { $0.column == col && $0.row == row }) {
                    let (m, color) = mark(c.color)
                    line += s.style.paint(m, color)
                } else {
                    line += " "
                }
            }
            // A week that began before the window has blanks above its first day: none at the end.
            while line.hasSuffix(" ") { line.removeLast() }
            out.append(line)
        }
        // "o" is any day with no outcome: opened, a reboot or the diagnostic at most, as the
        // site's graph says it ("opened" named a diagnostic-only day wrongly).
        out += Text.oneLineOrEach(["A applied  s skipped  F failed", "X crash  o no outcome  . nothing"], separator: "  ").map { s.style.dim($0) }
        out.append(s.style.dim("A column is a week, Monday at the top, the oldest on the left."))
        out.append("")
        for c in graph.cells.reversed() where !c.activity.isEmpty {
            // Each part with the columns it takes (a painted one's escapes take none).
            var parts = (byDay[c.day] ?? []).map { x -> (String, Int) in
                let text = (fixesById[x.fixId]?.label ?? "FIX") + (reruns.contains(x.id) ? " rerun" : "") + " " + outcomeWord(x)
                    + (x.reflection.map(VisibleText.showsNothing) == false ? " +reflection" : "")
                return (text, text.count)
            }
            if c.activity.crashes > 0 {
                let text = Plural.of(c.activity.crashes, "crash", "crashes")
                parts.append((s.style.paint(text, Style.crash), text.count))
            }
            for text in [c.activity.reboots > 0 ? Plural.of(c.activity.reboots, "reboot", "reboots") : nil,
                         c.activity.diagnostics > 0 ? "weekly diagnostic" : nil].compactMap({ $0 }) {
                parts.append((text, text.count))
            }
            guard !parts.isEmpty else {
                // Opened, and no fix given: a rest day, or a share or a pattern looked at; or its
                // fix was marked on a later day (yesterday's whose timer ran out after midnight).
                out.append(c.day.description + "  " + s.style.dim(c.activity.markedLater > 0 ? "opened, its fix marked on a later day" : "opened, no fix given"))
                continue
            }
            // A busy day goes on over more lines, under the first part, within the width of a card
            // (a day with nine fixes and a crash was one line of 383 columns).
            let indent = c.day.description.count + 2
            var line = c.day.description + "  ", used = indent
            for (k, (text, columns)) in parts.enumerated() {
                // The comma between two parts, unless it alone would run past the width (a part
                // as wide as a narrow terminal leaves; the next part starts a line anyway).
                let comma = k < parts.count - 1 && indent + columns + 1 <= Text.width
                let piece = comma ? text + "," : text, width = comma ? columns + 1 : columns
                if used > indent && used + 1 + width > Text.width {
                    out.append(line)
                    (line, used) = (String(repeating: " ", count: indent) + piece, indent + width)
                } else {
                    if used > indent { (line, used) = (line + " ", used + 1) }
                    (line, used) = (line + piece, used + width)
                }
            }
            out.append(line)
        }
        out.append("")
        // The totals are the whole practice's, whatever --days shows above them.
        out += ByBugTable(rows: rates.filter { $0.marked > 0 }.map {
            ByBugTable.Row(title: bugsById[$0.bugId]?.title ?? "?", applied: $0.applied, skipped: $0.skipped, failed: $0.failed,
                           rate: $0.completionRate)
        }).lines(s.style)
        s.print(out)
    }
}
