import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

/// Runs the detectors on the store and surfaces at most one pattern per run of the tool.
enum Surfacer {
    static func run(_ s: Session) async throws -> PatternRun {
        try await DetectionReads.run(s.repos, now: s.now, calendar: s.calendar)
    }

    /// The pattern for this moment, recorded as viewed (a patternViewed event), as lines to print.
    static func surface(_ s: Session, moment: SurfacingMoment) async throws -> [String] {
        try await surface(s, moment: moment, run: try await run(s))
    }

    /// A finding as first stored (with when it was viewed or dismissed), else as found now:
    /// patterns are never edited, only their instants are added.
    static func asStored(_ p: DetectedPattern, _ stored: [DetectedPattern]) -> DetectedPattern {
        stored.first { $0.id == p.id && $0.deletedAt == nil } ?? p
    }

    /// The same, from a detection run made earlier in this command (for example while the day's
    /// fix was being assigned: the detectors read crashes, outcomes and diagnostics, which
    /// opening the day's fix does not change).
    static func surface(_ s: Session, moment: SurfacingMoment, run: PatternRun) async throws -> [String] {
        guard let user = try await s.repos.users.get() else { return [] }
        let history = try await s.repos.patterns.getAll()
        guard let p = PatternSurfacing.pick(from: run.patterns, history: history, moment: moment, session: SurfacingSession(),
                                            now: s.now, calendar: s.calendar) else { return [] }
        // Shown with today's figures; stored as it first was (the same finding, by its derived
        // id), with only when it was viewed changed: patterns are never edited, and the other
        // machines merge only their instants.
        var record = asStored(p, history)
        record.viewedAt = s.now
        try await s.repos.patterns.save(record)
        try await EventRecorder(repos: s.repos, calendar: s.calendar)
            .record(.patternViewed, userId: user.id, bugId: p.relatedBugIds.first, at: s.now)
        let word = p.severity == .alert ? "PATTERN DETECTED" : "PATTERN"
        let head = s.style.paint(word, p.severity == .alert ? Style.crash : Style.skipped)
        // A blank line between the title and the body: without colour the two ran together.
        return Text.headed(head, width: word.count, comment: "// \(p.basis)", style: s.style) + [""] + Text.wrap(p.title)
            + [""] + Text.wrap(p.body).map { s.style.dim($0) } + [""]
    }
}

struct Patterns: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patterns",
        abstract: "What the detectors find in your own data, each with its p (the smaller, the surer), and the checks still waiting for data.")
    @OptionGroup var options: StoreOptions
    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("Dismiss a detected pattern by its name as the list shows it (\"crash timing\") or its JSON type (temporalCrash): it stops surfacing.", valueName: "type"))
    var dismiss: String?

    /// `pValue` is p as the terminal and the site give it, left out where they say none was
    /// computed (a regression, a plateau). It was called `confidence`: a number that falls as the
    /// detectors grow surer, where the spec's patterns carry a severity and their data points,
    /// and the site had stopped calling p a confidence. The export names it `pValue` too.
    struct JSONPattern: Encodable {
        let type: String, severity: String, pValue: Double?, basis: String, dataPoints: Int, title: String, body: String
        let relatedBugs: [String]
        /// Dismissed, itself or by its type (listed last).
        let dismissed: Bool
    }
    struct JSONStatus: Encodable {
        let type: String, check: String, have: Int, need: Int, unit: String, ready: Bool, line: String
    }
    struct JSONOutput: Encodable {
        let patterns: [JSONPattern]
        let waiting: [JSONStatus]
        let checks: [JSONStatus]
    }

    func run() async throws {
        let s = try Session.open(options)
        let out = try await s.store.transaction { try await lines(s) }
        s.print(out)
    }

    func lines(_ s: Session) async throws -> [String] {
        try s.ensureCatalogue()
        _ = try await s.profile()
        let run = try await Surfacer.run(s)
        if let dismiss {
            // The type as JSON names it (temporalCrash) or as the list shows it (crash timing, in
            // any case, with a hyphen or a space between the words).
            let shown = dismiss.lowercased().replacingOccurrences(of: "-", with: " ")
            guard let type = PatternType(rawValue: dismiss) ?? PatternType.allCases.first(where: { PatternCopy.name($0) == shown }) else {
                throw CLIError("unknown pattern type '\(dismiss)'. Types: \(PatternType.allCases.map { PatternCopy.name($0) == $0.rawValue ? $0.rawValue : "\(PatternCopy.name($0)) (\($0.rawValue))" }.joined(separator: ", ")).")
            }
            let found = run.patterns.filter { $0.patternType == type }
            guard !found.isEmpty else { throw CLIError("no \(PatternCopy.name(type)) pattern (\(type.rawValue)) is detected right now. Nothing dismissed.") }
            let user = try await s.profile()
            // As surfacing does: the finding as first stored (with when it was viewed), only its
            // dismissal added. Saving today's figures over it lost the viewing and left two
            // machines holding different copies of one pattern.
            let stored = try await s.repos.patterns.getAll()
            for found in found {
                var p = Surfacer.asStored(found, stored)
                p.dismissedAt = s.now
                try await s.repos.patterns.save(p)
                try await EventRecorder(repos: s.repos, calendar: s.calendar)
                    .record(.patternDismissed, userId: user.id, bugId: p.relatedBugIds.first, at: s.now)
            }
            return Text.fitted("Noted. No \(PatternCopy.name(type)) pattern will be surfaced again, this one or new ones; the patterns page still lists them.")
        }
        let bugs = try await s.repos.bugs.getAll()
        let slug: (UUID) -> String = { id in bugs.first { $0.id == id }?.slug ?? id.uuidString }
        let listed = PatternSurfacing.page(run.patterns, history: try await s.repos.patterns.getAll())
        let statuses = run.statuses.map { JSONStatus(type: $0.patternType.rawValue, check: $0.name, have: $0.have, need: $0.need,
                                                     unit: $0.unit, ready: $0.isReady, line: $0.line) }
        if json {
            return [try JSONOut.encode(JSONOutput(
                patterns: listed.map { l in let p = l.pattern
                    return JSONPattern(type: p.patternType.rawValue, severity: p.severity.rawValue,
                                       pValue: PatternCopy.hasPValue(p.patternType) ? p.pValue : nil,
                                       basis: p.basis, dataPoints: p.dataPoints, title: p.title, body: p.body,
                                       relatedBugs: p.relatedBugIds.map(slug), dismissed: l.dismissed) },
                waiting: statuses.filter { !$0.ready }, checks: statuses))]
        }
        var out: [String] = []
        if listed.isEmpty { out.append("Nothing detected. That is a result too.") }
        for (p, dismissed) in listed {
            let sevColor = p.severity == .alert ? Style.crash : (p.severity == .insight ? Style.skipped : Style.comment)
            let head = s.style.paint(p.severity.rawValue.uppercased(), sevColor) + "  " + PatternCopy.name(p.patternType)
            out += Text.headed(head, width: p.severity.rawValue.count + 2 + PatternCopy.name(p.patternType).count,
                               comment: "// \(p.basis)" + (PatternCopy.confidence(p.pValue, of: p.patternType).map { ", " + $0 } ?? "")
                                   + (dismissed ? ", dismissed" : ""), style: s.style)
            out += Text.wrap(p.title)
            out += Text.wrap(p.body).map { s.style.dim($0) }
            out.append("")
        }
        let waiting = run.statuses.filter { !$0.isReady }
        if !waiting.isEmpty {
            out.append("NOT YET")
            out += waiting.map { "  " + $0.line }
        }
        return out
    }
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Fill an empty store with a realistic, seeded demo history (one planted instance of each pattern).",
        discussion: "Refuses a store that already holds a practice, and the default store: name one with --store, EGOFIX_STORE or egofix.toml. The history ends at --now (or $EGOFIX_NOW); without either, at 2026-11-22 20:00 Berlin, not the clock as for other commands.")
    @OptionGroup var options: StoreOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("Years of history.", valueName: "n")) var years: Int = 1
    @Option(parsing: .unconditional, help: ArgumentHelp("Seed.", valueName: "n")) var seed: UInt64 = 7

    func run() async throws {
        guard DemoSite.years.contains(years) else { throw CLIError("--years must be between \(DemoSite.years.lowerBound) and \(DemoSite.years.upperBound).") }
        // A made-up year in the default store would be taken for the person's own: `init` then
        // refuses ("already holds a practice") and `today` goes on from the demo's last day.
        if options.store == nil, (Session.environment()["EGOFIX_STORE"] ?? "").isEmpty {
            let config: WorkspaceConfig
            do { config = try Session.loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
            if config.store == nil {
                let path = Session.storePath(flag: nil, config: config, env: Session.environment())
                throw CLIError("demo writes a made-up history, and with no --store it would go into your own store, \(path). "
                               + "Pass a new path: `egofix demo --store demo.sqlite`. `egofix build --demo` shows the demo site with no store at all.")
            }
        }
        var opts = options
        if opts.now == nil && ProcessInfo.processInfo.environment["EGOFIX_NOW"] == nil { opts.now = DemoSite.endDate }
        let s = try Session.open(opts, ifMissing: .create)
        do { try await fill(s) } catch {
            // A store made for a demo that was not written (a full disk) is not left behind, empty.
            s.discardMadeStore()
            throw error
        }
    }

    private func fill(_ s: Session) async throws {
        if let u = try await s.repos.users.get() {
            throw CLIError("\(s.storePath) already holds a practice (v\(u.currentVersion)). The demo only fills an empty store: pass --store with a new path.")
        }
        let catalogue = try Session.seedFiles().builtInCatalogue()
        // The store keeps no patterns from the demo: the detectors run on it when asked.
        let practice = DemoHistory.generate(catalogue: catalogue, endingAt: s.now, years: years, seed: seed, calendar: s.calendar,
                                            detect: false)
        let report: ImportReport
        do { report = try s.store.loadPractice(practice) } catch StoreError.importWouldOverwrite(let path, _) {
            // Another egofix wrote a practice while this history was being made.
            throw CLIError("store \(path) holds a practice now (another egofix wrote one meanwhile); `demo` fills only an empty store. Nothing was changed.")
        }
        try s.ensureCatalogue()
        s.print(["Demo history written to \(Terminal.visible(s.storePath)): \(report.summary).",
                 s.style.dim("// \(years) year\(years == 1 ? "" : "s") ending \(LocalDay(s.now, calendar: s.calendar)), seed \(seed). `egofix build` turns it into a site.")])
    }
}

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Recent days, with a contribution strip.")
    @OptionGroup var options: StoreOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("How many days back.", valueName: "n")) var days: Int = 28
    @Flag(help: "Print JSON.") var json = false

    struct JSONDay: Encodable {
        let date: String, color: String, depth: Int, applied: Int, skipped: Int, failed: Int, crashes: Int, reboots: Int
        let fixes: [JSONFix]
    }
    struct JSONFix: Encodable { let fix: String, bug: String, outcome: String, rerun: Bool, reflection: String? }
    struct JSONBug: Encodable { let bug: String, applied: Int, skipped: Int, failed: Int, completionRate: Double? }
    struct JSONOutput: Encodable { let from: String, to: String, days: [JSONDay], byBug: [JSONBug] }

    func run() async throws {
        guard (1...3660).contains(days) else { throw CLIError("--days must be between 1 and 3660.") }
        let s = try Session.open(options)
        try s.ensureCatalogue()
        _ = try await s.profile()
        let data = try await s.store.readPractice()
        let ledger = DayLedger(data, calendar: s.calendar)
        // From the practice's first day at most (a practice begun today showed a month of days
        // before it, each "nothing"), as the site's history does.
        let began = ([data.profile.map { LocalDay($0.createdAt, calendar: s.calendar) }, ledger.days.first?.day].compactMap { $0 }).min()
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
        let recorded = RecordedDays(events: data.events, calendar: s.calendar)
        for c in data.completions where c.deletedAt == nil { byDay[recorded.day(of: c), default: []].append(c) }
        let rates = HistoryInsight.make(data).overall
        // A rerun: its fix was applied by an earlier completion. An expired quick fix: left pending past its days.
        let reruns = PendingFixRule.reruns(in: data.completions, fixes: fixesById)
        func outcomeWord(_ c: FixCompletion) -> String {
            PendingFixRule.outcomeText(c, fix: fixesById[c.fixId], today: s.today, dayOf: { LocalDay($0, calendar: s.calendar) })
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
            let name = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][row]
            var line = name + " "
            for col in 0..<graph.columns {
                if let c = graph.cells.first(where: { $0.column == col && $0.row == row }) {
                    let (m, color) = mark(c.color)
                    line += s.style.paint(m, color)
                } else {
                    line += " "
                }
            }
            out.append(line)
        }
        out.append(s.style.dim("A applied  s skipped  F failed  X crash  o opened  . nothing"))
        out.append("")
        for c in graph.cells.reversed() where !c.activity.isEmpty {
            // Each part with the columns it takes (a painted one's escapes take none).
            var parts = (byDay[c.day] ?? []).map { x -> (String, Int) in
                let text = (fixesById[x.fixId]?.label ?? "FIX") + (reruns.contains(x.id) ? " rerun" : "") + " " + outcomeWord(x)
                    + (x.reflection.map(VisibleText.showsNothing) == false ? " +note" : "")
                return (text, text.count)
            }
            if c.activity.crashes > 0 {
                let text = Text.plural(c.activity.crashes, "crash", "crashes")
                parts.append((s.style.paint(text, Style.crash), text.count))
            }
            for text in [c.activity.reboots > 0 ? Text.plural(c.activity.reboots, "reboot", "reboots") : nil,
                         c.activity.diagnostics > 0 ? "weekly diagnostic" : nil].compactMap({ $0 }) {
                parts.append((text, text.count))
            }
            guard !parts.isEmpty else {
                out.append(c.day.description + "  " + s.style.dim("opened"))
                continue
            }
            // A busy day goes on over more lines, under the first part, within the width of a card
            // (a day with nine fixes and a crash was one line of 383 columns).
            let indent = c.day.description.count + 2
            var line = c.day.description + "  ", used = indent
            for (k, (text, columns)) in parts.enumerated() {
                let piece = k < parts.count - 1 ? text + "," : text, width = k < parts.count - 1 ? columns + 1 : columns
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

struct Calibrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Run the detectors on seeded random histories with nothing planted; report how often an alert fires.",
        discussion: "A trustworthy detector stays quiet on noise. The target is an alert rate of at most 5%.")
    @Option(parsing: .unconditional, help: ArgumentHelp("Histories to generate.", valueName: "n")) var runs: Int = 200
    @Option(parsing: .unconditional, help: ArgumentHelp("Seed.", valueName: "n")) var seed: UInt64 = 1
    @Flag(help: "Print JSON (alertRate, insightRate, per pattern type).") var json = false

    struct JSONLine: Encodable { let type: String, observations: Int, insights: Int, alerts: Int }
    struct JSONOutput: Encodable {
        let runs: Int, seed: UInt64, runsWithAlert: Int, runsWithInsight: Int, alertRate: Double, insightRate: Double
        let byType: [JSONLine]
    }

    func run() async throws {
        guard (1...100_000).contains(runs) else { throw CLIError("--runs must be between 1 and 100000.") }
        let r = Calibration.run(runs: runs, seed: seed)
        if json {
            Swift.print(try JSONOut.encode(JSONOutput(
                runs: r.runs, seed: r.seed, runsWithAlert: r.runsWithAlert, runsWithInsight: r.runsWithInsight,
                alertRate: r.alertRate, insightRate: r.insightRate,
                byType: r.lines.map { JSONLine(type: $0.patternType.rawValue, observations: $0.observations, insights: $0.insights, alerts: $0.alerts) })))
            return
        }
        var out = Text.fitted(r.summary) + [""]
        for l in r.lines { out.append(pad(l.patternType.rawValue, 16) + " alerts \(l.alerts), insights \(l.insights), observations \(l.observations)") }
        out.append("")
        out.append(r.alertRate <= 0.05 ? "Alert rate within the 5% target." : "Alert rate above the 5% target.")
        Swift.print(out.joined(separator: "\n"))
    }
}
