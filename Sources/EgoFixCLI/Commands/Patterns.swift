import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

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
    /// `--dismiss` with `--json`: the type, dismissed, and whether this run changed anything.
    struct JSONDismissal: Encodable {
        let type: String
        var dismissed = true
        let changed: Bool
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
        try await s.ensureCatalogue()
        _ = try await s.profile()
        let run = try await Surfacer.run(s)
        if let dismiss {
            // The type as JSON names it (temporalCrash) or as the list shows it (crash timing, in
            // any case, with a hyphen or a space between the words).
            let shown = dismiss.lowercased().replacingOccurrences(of: "-", with: " ")
            guard let type = PatternType(rawValue: dismiss) ?? PatternType.allCases.first(where: { PatternCopy.name($0) == shown }) else {
                throw CLIError("unknown pattern type '\(dismiss)'. Types: \(PatternType.allCases.map { PatternCopy.name($0) == $0.rawValue ? $0.rawValue : "\(PatternCopy.name($0)) (\($0.rawValue))" }.joined(separator: ", ")). Nothing dismissed.", code: 64)
            }
            // A type dismissed already holds: said, with exit 0, and nothing recorded again (a
            // second dismissal said "Noted." and added another event).
            switch try await PatternService(repos: s.repos, calendar: s.calendar).dismiss(type, run: run, at: s.now) {
            case .dismissedEarlier(let earlier):
                if json { return [try JSONOut.encode(JSONDismissal(type: type.rawValue, changed: false))] }
                return Text.fitted("No \(PatternCopy.name(type)) pattern is surfaced: dismissed on \(LocalDay(earlier, calendar: s.calendar)). Nothing was changed.")
            case .noneDetected:
                // The JSON name beside the shown one only where they differ ("avoidance (avoidance)").
                let also = PatternCopy.name(type) == type.rawValue ? "" : " (\(type.rawValue))"
                throw CLIError("no \(PatternCopy.name(type)) pattern\(also) is detected right now. Nothing dismissed.")
            case .dismissed:
                break
            }
            if json { return [try JSONOut.encode(JSONDismissal(type: type.rawValue, changed: true))] }
            // One type, two checks: said, since one dismissal silences both.
            let both = type == .temporalCrash ? " (by weekday or by time of day)" : ""
            return Text.fitted("Noted. No \(PatternCopy.name(type)) pattern\(both) will be surfaced again, this one or new ones; the patterns page still lists them.")
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
