import ArgumentParser
import EgoFixCore
import Foundation

/// `egofix amend`: today's mark put right, as `git commit --amend` puts right the last commit
/// (`AmendService`).
struct Amend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "amend",
        abstract: "Change today's mark: its outcome, reflection or answer.",
        discussion: """
            The latest fix marked today, or --fix N. What is not given stays as it was: `egofix amend skipped` \
            keeps the reflection, `egofix amend -e` opens it in the editor. Earlier days are closed. \
            The first version stays in the store, marked deleted.
            """)

    @Argument(help: ArgumentHelp("The outcome it should have: applied, skipped or failed. Default: as marked.", valueName: "outcome"))
    var outcome: String?
    @Option(name: .customLong("fix"), parsing: .unconditional, help: ArgumentHelp("The fix to amend, by number (31, #031 or \"FIX #031\", as `share` takes it), when today has two marks (a quick fix and the day's).", valueName: "n"))
    var fixNumber: String?
    @OptionGroup var o: OutcomeOptions

    /// --fix as a number: the label `status --json` prints is taken as `share` takes it.
    var fix: Int? {
        get throws {
            guard let given = fixNumber else { return nil }
            guard let n = Share.number(given), n >= 1 else {
                throw CLIError("--fix takes a fix's number, 1 or more (FIX #031 is 31). Nothing recorded.", code: 64)
            }
            return n
        }
    }

    func run() async throws {
        let fix = try self.fix
        let wanted: FixOutcome?
        switch outcome {
        case nil: wanted = nil
        case "applied"?: wanted = .applied
        case "skipped"?: wanted = .skipped
        case "failed"?: wanted = .failed
        case let other?: throw CLIError("'\(Terminal.visible(other))' is not an outcome: applied, skipped or failed. Nothing recorded.", code: 64)
        }
        let s = try Session.open(o.store)
        try await s.refuseAClockBeforeThePractice()
        let svc = AmendService(repos: s.repos, calendar: s.calendar)
        // A first look, rolled back (no lock is held while the editor is open): an option the fix
        // does not take, or no mark to amend, is refused before the reflection is asked for.
        let peek: (FixCompletion, Fix)
        let interaction: InteractionOutcome?
        do {
            peek = try await s.store.rolledBack { () -> (FixCompletion, Fix) in
                try await s.ensureCatalogue()
                return try await svc.target(at: s.now, fixNumber: fix)
            }
            interaction = try OutcomeCommand.interactionOutcome(fix: peek.1, o)
        } catch {
            throw ReflectionInput.keepingUnread(refusedBy: error, message: o.message, edit: o.edit, what: "reflection")
        }
        let data: Data? = try interaction?.encoded()
        var draft: String?
        let typed = try ReflectionInput.read(message: o.message, edit: o.edit, what: "reflection", initial: peek.0.reflection ?? "", draft: &draft)
        // -m "" clears it; nothing given keeps it.
        let replaced = o.message != nil || o.edit || typed != nil
        let out: [String]
        do {
            out = try await s.store.transaction { () -> [String] in
                try await s.ensureCatalogue()
                let (old, f) = try await svc.target(at: s.now, fixNumber: fix)
                guard old.id == peek.0.id else {
                    throw CLIError("the mark to amend changed while the reflection was written: it is \(f.label)'s now. Nothing recorded; run the command again.")
                }
                let r = try await svc.amend(old, fix: f, outcome: wanted ?? old.outcome, reflection: replaced ? typed : old.reflection,
                                            outcomeData: data ?? old.outcomeData, at: s.now)
                return lines(r, s)
            }
        } catch let e as AmendService.AmendError where { if case .unchanged(peek.1.label, peek.0.outcome, _) = e { true } else { false } }() {
            // The editor closed on the text as it was: nothing to keep.
            if let draft { ReflectionInput.discard(draft) }
            throw e
        } catch {
            if draft == nil, o.message == nil, let typed {
                throw ReflectionInput.keeping(typed, what: "reflection", refusedBy: error)
            }
            throw ReflectionInput.naming(error, kept: ReflectionInput.kept(draft, "reflection"))
        }
        if let draft { ReflectionInput.discard(draft) }
        s.print(out)
    }

    private func lines(_ r: AmendResult, _ s: Session) -> [String] {
        let (before, after) = (r.before, r.after)
        // A reflection that reads like a crisis gets the help block first, as every command that
        // takes one gives it.
        let help = after.reflection != before.reflection ? CrisisHelp.lines(for: after.reflection, style: s.style) : []
        var out = help + [s.style.paint("AMENDED", s.style.outcomeColor(after.outcome)) + "  " + s.style.dim(r.fix.label), ""]
        if after.outcome != before.outcome {
            out.append("Marked \(after.outcome.rawValue), not \(before.outcome.rawValue).")
            if help.isEmpty { out.append(OutcomeCommand.line(for: after.outcome, fix: r.fix)) }
        }
        if after.outcomeData != before.outcomeData, let said = InteractionSummary.text(after, fix: r.fix) { out += Text.wrap(said) }
        if after.reflection != before.reflection {
            out.append(after.reflection == nil ? "Reflection removed from the pages and the history."
                       : before.reflection == nil ? "Reflection added." : "Reflection replaced.")
        }
        if let v = r.version { out.append("Version v\(v.after), was v\(v.before).") }
        out += r.changed.map { OutcomeCommand.transitionLine($0.transition, of: $0.bug) }
        // Said plainly where a text was taken out: "Reflection removed." read as erased.
        let textKept = before.reflection != nil && after.reflection != before.reflection
        out += ["", s.style.dim(textKept ? "// The earlier mark stays in the store, marked deleted, its reflection with it: exports and the sync folder keep it."
                                         : "// The earlier mark stays in the store, marked deleted.")]
        return out
    }
}
