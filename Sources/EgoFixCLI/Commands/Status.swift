import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Version, streak, your bugs, the pending fix.")
    @OptionGroup var options: StoreOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let s = try Session.open(options)
        let (snap, marked) = try await s.store.transaction { () -> (StatusSnapshot, (completion: FixCompletion, fix: Fix)?) in
            try await s.ensureCatalogue()
            let snap = try await StatusSnapshot.make(repos: s.repos, calendar: s.calendar, at: s.now, skippedDiagnosticWeek: try s.skippedDiagnosticWeek(),
                                                     givingTodaysFixFrom: OutcomeCommand.givingTodaysFix(s))
            return (snap, json || snap.pendingFix != nil ? nil : try await DailyFixService(repos: s.repos, calendar: s.calendar).todaysAssignment(at: s.now))
        }
        if json {
            Swift.print(try JSONOut.encode(snap))
            return
        }
        var out = [s.style.bold("v" + snap.version) + s.style.dim("  // " + VersionRules.toNextVersion(appliedCount: snap.appliedCount))]
        out += Text.fitted(snap.streakLine).map { s.style.dim($0) }
        out += Text.oneLineOrEach(["longest: \(snap.longestStreak)", "freeze this week: \(snap.freezeAvailable ? "available" : "used")"],
                                  separator: "   ").map { s.style.dim($0) }
        out.append("")
        out.append("YOUR BUGS")
        if snap.activeBugs.isEmpty { out.append("  None. `egofix bug activate SLUG` starts one.") }
        for b in snap.activeBugs {
            let primary = b.isPrimary ? s.style.dim("primary") : ""
            if 2 + 24 + 1 + 10 + 7 <= Text.lineWidth {
                out.append("  " + s.style.paint(pad(b.title, 24), b.color) + " " + (b.isPrimary ? pad(b.status.rawValue, 10) + primary : b.status.rawValue))
            } else {
                // A narrow terminal: the state under the title.
                out += ["  " + s.style.paint(b.title, b.color), "    " + b.status.rawValue + (b.isPrimary ? "  " + primary : "")]
            }
        }
        out.append("")
        if let f = snap.pendingFix, let p = snap.pendingFixPrompt {
            out.append("PENDING  " + f)
            out += Text.wrap(p, indent: "  ")
            if snap.pendingFixNotGivenYet {
                out.append(s.style.dim("// Today's, not opened yet: `egofix today` shows it; an outcome marks it."))
            }
        } else if let rest = snap.restDayReason {
            // In `today`'s words: on a rest day `today` gives no fix to show.
            out.append(RestDay.heading + "  " + rest.reason)
            if let hint = rest.hint, !snap.activeBugs.isEmpty { out += Text.wrap(hint).map { "  " + $0 } }
        } else if let m = marked, m.completion.outcome != .pending {
            // Today's is done: "`egofix today` shows today's" read as something left to do.
            out.append(s.style.dim("No pending fix. Today's, \(m.fix.label), is marked \(m.completion.outcome.rawValue)."))
        } else {
            out.append(s.style.dim("No pending fix. `egofix today` shows today's."))
        }
        if snap.openCrashes > 0 { out += ["", "\(Plural.of(snap.openCrashes, "open crash", "open crashes")). `egofix reboot` closes \(snap.openCrashes == 1 ? "it" : "them")."] }
        if snap.diagnosticDue { out += [""] + Text.fitted(ReminderCopy.diagnosticOpen) }
        s.print(out)
    }
}
