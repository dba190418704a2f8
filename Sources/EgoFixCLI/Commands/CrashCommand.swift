import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct CrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Log a crash: a bad ego day. Queues a quick fix.",
        discussion: "Two steps at most: which bug (default: your primary bug; asked in a terminal), and an optional note.")

    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The bug that resurfaced.", valueName: "slug")) var slug: String?
    /// `-m`, as the outcome commands' reflection is.
    @Option(name: [.long, .customShort("m")], help: ArgumentHelp("A private note (Markdown). Also read from piped standard input.", valueName: "text"))
    var note: String?
    @Option(help: ArgumentHelp("Where it happened: work, home, social, family, online, unsure.", valueName: "context"))
    var context: String?
    @Flag(help: "Take back today's last crash (logged by mistake, or twice), before a reboot closes it.")
    var undo = false

    func run() async throws {
        if undo {
            guard slug == nil, note == nil, context == nil else {
                throw CLIError("--undo takes back today's last crash and takes no bug, note or context. Nothing was changed.", code: 64)
            }
            return try await takeBack()
        }
        let s = try Session.open(options)
        try await s.refuseAClockBeforeThePractice()
        let user = try await s.store.transaction { () -> UserProfile in
            try await s.ensureCatalogue()
            return try await s.profile()
        }
        // The two steps are asked before the store is locked: a prompt may wait for minutes.
        // A context that is not one is refused before anything is asked.
        var ctx: EventContext?
        // A refusal before a piped note is read keeps the note (a heredoc exists nowhere else).
        func keepingPipedNote(_ error: Error) -> Error {
            ReflectionInput.keepingUnread(refusedBy: error, message: self.note, edit: false, what: "note")
        }
        if let context {
            guard let c = EventContext.parse(context) else {
                throw keepingPipedNote(CLIError("unknown context '\(context)'. Use one of: \(EventContext.words).", code: 64))
            }
            ctx = c
        }
        var bug: Bug?
        // Ctrl-C at either step logs nothing, and says so.
        let interrupt = slug == nil && Prompt.interactive ? Prompt.onInterrupt(saying: "Nothing logged.") : nil
        defer { interrupt?.cancel() }
        if let slug {
            do { bug = try await s.bug(slug: slug) } catch { throw keepingPipedNote(error) }
        } else if Prompt.interactive {
            let bugs = try await s.bugsInCatalogueOrder()
            // Nothing is logged until both steps are answered: the header says a crash is being
            // logged, not that it was (Ctrl-C here logs nothing); Ctrl-D cancels, as it does in init.
            Swift.print("CRASH\n")
            let primary = bugs.first { $0.id == user.primaryBugId }
            switch Prompt.choose("What resurfaced?" + (primary.map { " (enter: \($0.title.lowercased()))" } ?? ""), bugs.map(\.title),
                                 skip: primary == nil ? "to skip" : "for \(primary?.title.lowercased() ?? "")") {
            case .picked(let i): bug = bugs[i]
            case .skipped: break
            case .ended:
                s.print(["Nothing logged."])
                return
            }
        }
        if bug == nil, let p = user.primaryBugId { bug = try await s.repos.bugs.getById(p) }
        var text = try note.flatMap { try ReflectionInput.checked($0, what: "note") }
        var piped = false
        if text == nil && note == nil {
            if Prompt.interactive && slug == nil {
                // A note refused as typed (an arrow key pressed to mend a typo sends an escape) is
                // asked for again, the bug kept, as the timer's reflection is: the whole crash
                // was refused, the bug chosen and the note typed gone.
                asking: while true {
                    do {
                        switch try Prompt.askText("Note (optional; enter for none):", what: "note",
                                                  longer: "A longer one can be piped in: `egofix crash \(bug?.slug ?? "SLUG") < FILE`.",
                                                  refused: "Type it again, or enter for none.") {
                        case .text(let typed): text = typed
                        case .ended:
                            s.print(["Nothing logged."])
                            return
                        }
                        break asking
                    } catch {
                        Swift.print("  " + (EgoFix.userFacingMessage(error) ?? "\(error)"))
                    }
                }
            } else if !Prompt.interactive && isatty(STDIN_FILENO) == 0 {
                var none: String?
                text = try ReflectionInput.read(message: nil, edit: false, what: "note", draft: &none)
                piped = text != nil
            }
        }
        interrupt?.cancel()
        let crashed = bug
        let fromOption = note != nil
        let note = text
        let out: [String]
        do {
            out = try await s.store.transaction { () -> [String] in
                // What time alone made due is saved first, as `today` does: a bug `status` showed as
                // stable is sent back to active by the crash, and that is said.
                try await LifecycleService(repos: s.repos, calendar: s.calendar).reconcile(at: s.now)
                let r = try await CrashService(repos: s.repos, calendar: s.calendar).logCrash(bugId: crashed?.id, note: note, context: ctx, at: s.now)
                let changed = try await LifecycleService(repos: s.repos, calendar: s.calendar).reconcileEach(bugId: crashed?.id, at: s.now)
                // A note that reads like a crisis gets the help block first, and no tidbit or quick
                // fix after it: a quip about a sharp reply is not the answer to that note. The quick
                // fix is queued all the same; `today` shows it.
                let help = CrisisHelp.lines(for: note, style: s.style)
                var out = help + [s.style.paint("CRASH LOGGED", Style.crash) + (crashed.map { "  " + s.style.paint($0.title.lowercased(), $0.color) } ?? "")]
                out.append("")
                out.append(help.isEmpty ? "Logged. The version number stays where it is." : "Logged.")
                // A crash about a stable or resolved bug sends it back to active: said here, where it happened.
                out += changed.map { OutcomeCommand.transitionLine($0.transition, of: $0.bug) }
                if help.isEmpty, let b = crashed,
                   let tid = try await TidbitService(repos: s.repos).show(about: b, trigger: .afterCrash, key: ISO8601.format(s.now)) {
                    out += [""] + Text.wrap(tid.body).map { s.style.dim($0) }
                }
                if let q = r.quickFix {
                    out.append("")
                    if help.isEmpty {
                        let qbug = try await s.repos.bugs.getById(q.bugId)
                        // A second crash about the bug queues nothing new: the same one is waiting.
                        // Another crash's quick fix still waiting comes first: said, with its number.
                        let ahead = try await OutcomeService(repos: s.repos, calendar: s.calendar).queue(at: s.now)
                            .prefix { $0.fix.id != q.id }.filter { $0.fix.type == .quickFix }.map(\.fix.label)
                        let when = ahead.isEmpty ? "shown next" : "after " + ahead.joined(separator: " and ")
                        out += FixCard.lines(fix: q, bug: qbug, style: s.style, heading: "QUICK FIX // " + (r.waiting ? "still waiting" : when))
                    } else {
                        out.append(s.style.dim("// A quick fix is queued, for later: `egofix today` shows it."))
                    }
                }
                // Said, as a reflection is: a note read from a pipe the person did not mean for it
                // (a `while read` loop's next line) was stored without a word.
                if note != nil {
                    out += ["", s.style.dim(piped ? "// Note saved, read from standard input." : "// Note saved. It stays in your store.")]
                }
                out += ["", s.style.dim("// `egofix reboot` closes the crash. The log keeps it either way.")]
                return out
            }
        } catch {
            // A note piped in or typed at the prompt exists nowhere else (-m's is on the command
            // line): it is kept in a private file, and the error says where.
            guard !fromOption, let text else { throw error }
            throw ReflectionInput.keeping(text, what: "note", refusedBy: error)
        }
        s.print(out)
    }

    /// `--undo`: today's last crash taken back (`CrashService.undoLast`).
    func takeBack() async throws {
        let s = try Session.open(options)
        try await s.refuseAClockBeforeThePractice()
        let out = try await s.store.transaction { () -> [String] in
            try await s.ensureCatalogue()
            let r = try await CrashService(repos: s.repos, calendar: s.calendar).undoLast(at: s.now)
            let bug: Bug? = if let id = r.crash.bugId { try await s.repos.bugs.getById(id) } else { nil }
            var out = [s.style.paint("CRASH TAKEN BACK", Style.crash) + (bug.map { "  " + s.style.paint($0.title.lowercased(), $0.color) } ?? ""), ""]
            out += Text.wrap("The crash logged at \(InstantText.hourMinute(r.crash.crashedAt, calendar: s.calendar)) is gone from the changelog, the counts and the patterns."
                             + (r.quickFix.map { " So is the quick fix it queued, \($0.label)." } ?? ""))
            out += ["", s.style.dim("// " + (r.crash.note == nil ? "The record stays in the store, marked deleted." : "Its note stays in the store, marked deleted."))]
            return out
        }
        s.print(out)
    }
}
