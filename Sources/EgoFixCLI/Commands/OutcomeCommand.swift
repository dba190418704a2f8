import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

/// applied / skipped / failed share everything but the outcome.
struct OutcomeOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The reflection (Markdown). Also read from standard input when it is piped.", valueName: "text"))
    var message: String?

    @Flag(name: .shortAndLong, help: "Write the reflection in $VISUAL or $EDITOR (else vi), so it never passes through shell history.")
    var edit = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Counter fixes: how many times.", valueName: "n")) var count: Int?
    @Option(help: ArgumentHelp("Quiz and scenario fixes: the option you chose.", valueName: "id")) var option: String?
    @Flag(help: "Timed fixes: the timer ran out.") var timerDone = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Multi-step fixes: how many steps you did.", valueName: "n")) var steps: Int?
}

enum OutcomeCommand {
    /// What adds the answer, choice or count an outcome was marked without ("No answer recorded."):
    /// the week page shows the line alone; the command says how to mend it the same day.
    static func addedBy(_ c: FixCompletion, fix: Fix) -> String {
        guard c.outcomeData == nil, c.outcome == .applied || c.outcome == .failed else { return "" }
        switch try? fix.configuration() {
        case .quiz?, .scenario?: return " `egofix amend --option ID` adds one today."
        case .counter?: return " `egofix amend --count N` adds one today."
        case .timed?: return " `egofix amend --timer-done` adds it today."
        case .multiStep?: return " `egofix amend --steps N` adds them today."
        default: return ""
        }
    }

    /// From when an outcome before `today` gives today's fix: `remind_at`, or the start of the day
    /// once the timer has announced the fix ("Fix #041 is ready."), which it does at its own time
    /// when installed with `remind --install --at`.
    static func givingTodaysFix(_ s: Session) -> ReminderTime {
        let announced = SentReminders(store: s.storePath, environment: Session.environment()).sentFix(on: LocalDay(s.now, calendar: s.calendar))
        return announced ? .startOfDay : s.config.remindAt ?? .standard
    }

    static func run(_ outcome: FixOutcome, _ o: OutcomeOptions) async throws {
        let s = try Session.open(o.store)
        try await s.refuseAClockBeforeThePractice()
        let from = givingTodaysFix(s)
        // A first look, rolled back (the write lock is not held while an editor may stay open for
        // minutes), so a wrong option or no pending fix is refused before the reflection is asked
        // for; a refused command gives out no fix (today's, given by an outcome before `today`).
        let peek: (FixCompletion, Fix)
        do {
            peek = try await s.store.rolledBack { () -> (FixCompletion, Fix) in
                try await s.ensureCatalogue()
                return try await OutcomeService(repos: s.repos, calendar: s.calendar).target(at: s.now, givingTodaysFixFrom: from)
            }
            _ = try interactionOutcome(fix: peek.1, o)
        } catch {
            throw ReflectionInput.keepingUnread(refusedBy: error, message: o.message, edit: o.edit, what: "reflection")
        }
        var draft: String?
        let reflection = try ReflectionInput.read(message: o.message, edit: o.edit, what: "reflection", draft: &draft)
        // Read, decide and write in one transaction: of two commands marking the same fix at the
        // same moment, one is recorded and the other refused; what is printed is stored.
        let out: [String]
        do {
            out = try await s.store.transaction { () -> [String] in
                try await s.ensureCatalogue()
                let target = try await OutcomeService(repos: s.repos, calendar: s.calendar).target(at: s.now, givingTodaysFixFrom: from)
                // The same fix (a fix given by the look ahead was given again, as a new record).
                guard target.1.id == peek.1.id else {
                    throw CLIError("the fix to mark changed while the reflection was written: it is \(target.1.label) now, not \(peek.1.label). Nothing recorded; run the command again.")
                }
                return try await mark(outcome, o, s, target: target, reflection: reflection)
            }
        } catch {
            // Text written in the editor exists nowhere else: it stays, and the error says where.
            // So does text piped in (-m's is on the command line).
            if draft == nil, o.message == nil, let reflection {
                throw ReflectionInput.keeping(reflection, what: "reflection", refusedBy: error)
            }
            throw ReflectionInput.naming(error, kept: ReflectionInput.kept(draft, "reflection"))
        }
        if let draft { ReflectionInput.discard(draft) }
        s.print(out)
    }

    static func mark(_ outcome: FixOutcome, _ o: OutcomeOptions, _ s: Session, target: (FixCompletion, Fix),
                     reflection: String?) async throws -> [String] {
        // What the detectors need from before the outcome is read on another core meanwhile.
        let earlier = Task { try await DetectionReads.earlier(s.repos, now: s.now, calendar: s.calendar) }
        var interaction = try interactionOutcome(fix: target.1, o)
        // A timer run to the end by `egofix timer` counts as --timer-done.
        if interaction == nil, case .timed? = try? target.1.configuration(),
           try await TimerService(repos: s.repos, calendar: s.calendar).completed(target.0, fix: target.1) {
            interaction = InteractionOutcome(timerCompleted: true)
        }
        var vm = TodayViewModel(repos: s.repos, calendar: s.calendar)
        do {
            try await vm.mark(outcome, reflection: reflection, interaction: interaction, at: s.now, target: target)
        } catch {
            _ = try? await earlier.value
            throw error
        }
        guard case .marked(let r) = vm.state else { _ = try? await earlier.value; return [] }
        // A reflection that reads like a crisis gets the help block first, and no tidbit or
        // insight after it.
        let help = CrisisHelp.lines(for: reflection, style: s.style)
        var out = help
        let head: String
        switch outcome {
        case .applied: head = "FIX APPLIED"
        case .skipped: head = "FIX SKIPPED"
        default: head = "FIX FAILED"
        }
        out.append(s.style.paint(head, s.style.outcomeColor(outcome)) + "  " + s.style.dim(r.fix.label))
        out.append("")
        // After the help block, only what was recorded: no quip, no version, no pattern.
        out.append(help.isEmpty ? line(for: outcome, fix: r.fix) : "Marked \(outcome.rawValue).")
        // The count or the option said back, as the week page will show it: a wrong one is seen now.
        if let said = InteractionSummary.text(r.completion, fix: r.fix) { out += Text.wrap(said + Self.addedBy(r.completion, fix: r.fix)) }
        if help.isEmpty, let insight = chosenInsight(fix: r.fix, interaction: interaction) {
            out.append("")
            out += Text.wrap(insight).map { s.style.dim($0) }
        }
        if help.isEmpty, let v = r.versionEntry {
            out.append("")
            out.append("v" + v.version + ". " + v.description)
        }
        if let t = r.transition {
            out.append("")
            out.append(transitionLine(t, bug: try await s.repos.bugs.getById(r.fix.bugId)?.title))
        }
        if help.isEmpty, let tid = r.tidbit {
            out.append("")
            out += Text.wrap(tid.body)
        }
        if reflection != nil {
            out += ["", s.style.dim("// Reflection saved. It stays in your store.")]
        } else if o.message == nil, !o.edit, Prompt.interactive {
            // Typed at a terminal with neither -m nor -e: nothing asked for one, and nothing said
            // how to add one.
            out += ["", s.style.dim("// No reflection. `egofix amend -e` adds one today.")]
        }
        // What the next outcome would mark: a second quick fix queued by another crash, or
        // yesterday's timed fix, comes before today's (it said "Today's fix is still open", and the
        // next `skipped` marked a quick fix no card had shown since the crash).
        let queue = try await OutcomeService(repos: s.repos, calendar: s.calendar).queue(at: s.now)
        if !queue.isEmpty {
            func named(_ q: (completion: FixCompletion, fix: Fix)) -> String {
                if q.fix.type == .quickFix { return q.fix.label + ", a quick fix" }
                return q.completion.givenDay({ LocalDay($0, calendar: s.calendar) }) == s.today ? "today's fix, " + q.fix.label : q.fix.label + ", yesterday's"
            }
            let line = queue.count == 1 && queue[0].fix.type != .quickFix && queue[0].completion.givenDay({ LocalDay($0, calendar: s.calendar) }) == s.today
                ? "// Today's fix, \(queue[0].fix.label), is still open: `egofix today`."
                : queue.count == 1 ? "// Still to mark: " + named(queue[0]) + ". `egofix today` shows it."
                : "// Still to mark, in this order: " + queue.map(named).joined(separator: "; then ") + ". `egofix today` shows them."
            out += [""] + Text.fitted(line).map { s.style.dim($0) }
        }
        let run = try await DetectionReads.run(s.repos, now: s.now, calendar: s.calendar, after: earlier.value)
        guard help.isEmpty else { return out }
        let pattern = try await Surfacer.surface(s, moment: .afterOutcome, run: run)
        if !pattern.isEmpty { out += [""] + pattern }
        out += try await TodayLines.diagnosticLine(s)
        return out
    }

    static func line(for outcome: FixOutcome, fix: Fix) -> String {
        switch outcome {
        case .applied: return "No fanfare. You did the thing."
        case .skipped: return "Skipped. It is not offered again for \(Thresholds.skippedCooldownDays) days."
        case .failed: return "Failed. Expected, some days. The attempt is the data."
        case .pending: return ""
        }
    }

    /// The bug's change of state, naming the bug ("Need to be right: stable. ...").
    static func transitionLine(_ t: BugLifecycle.Transition, bug: String?) -> String {
        let name = (bug ?? "The bug") + ": "
        switch t {
        case .activated: return name + "active."
        case .stabilised: return name + "stable. Retest in \(Thresholds.retestIntervalDays) days."
        case .resolved: return name + "resolved. It can still regress. They do."
        case .regressed(let why): return name + "regression, \(why). Back to active."
        }
    }

    /// `transitionLine` for a bug as it is now: a deactivated bug's regression sends no fixes, and
    /// "Back to active" read as taken up again while `bugs` and `status` said deactivated.
    static func transitionLine(_ t: BugLifecycle.Transition, of bug: Bug) -> String {
        guard case .regressed(let why) = t, !bug.isActive else { return transitionLine(t, bug: bug.title) }
        return bug.title + ": regression, \(why). It stays deactivated: `egofix bug activate \(bug.slug)` takes it up again."
    }

    static func interactionOutcome(fix: Fix, _ o: OutcomeOptions) throws -> InteractionOutcome? {
        let config = try? fix.configuration()
        // An option meant for another kind of fix is refused, not silently dropped.
        let given = [("--count", o.count != nil), ("--option", o.option != nil), ("--timer-done", o.timerDone), ("--steps", o.steps != nil)]
            .filter(\.1).map(\.0)
        let takes: String?
        switch config {
        case .counter?: takes = "--count"
        case .quiz?, .scenario?: takes = "--option"
        case .timed?: takes = "--timer-done"
        case .multiStep?: takes = "--steps"
        default: takes = nil
        }
        if let wrong = given.first(where: { $0 != takes }) {
            throw CLIError("\(fix.label) is \(FixCard.kind(fix.interactionType)) fix; \(wrong) does not apply"
                           + (takes.map { " (it takes \($0))" } ?? "") + ". Nothing recorded.")
        }
        switch config {
        case .counter?:
            if let c = o.count, c < 0 { throw CLIError("--count must be 0 or more. Nothing recorded.", code: 64) }
            return o.count.map { InteractionOutcome(count: $0) }
        case .quiz(let q)?:
            guard let id = o.option else { return nil }
            guard q.options.contains(where: { $0.id == id }) else {
                throw CLIError("--option '\(id)' is not an option of \(fix.label). Options: \(q.options.map(\.id).joined(separator: ", ")). Nothing recorded.")
            }
            return InteractionOutcome(optionId: id)
        case .scenario(let sc)?:
            guard let id = o.option else { return nil }
            guard sc.options.contains(where: { $0.id == id }) else {
                throw CLIError("--option '\(id)' is not an option of \(fix.label). Options: \(sc.options.map(\.id).joined(separator: ", ")). Nothing recorded.")
            }
            return InteractionOutcome(optionId: id)
        case .timed?:
            return o.timerDone ? InteractionOutcome(timerCompleted: true) : nil
        case .multiStep(let m)?:
            guard let n = o.steps else { return nil }
            guard (0...m.steps.count).contains(n) else { throw CLIError("--steps must be between 0 and \(m.steps.count) for \(fix.label).") }
            return InteractionOutcome(stepsCompleted: n)
        default:
            if o.count != nil || o.option != nil || o.timerDone || o.steps != nil {
                throw CLIError("\(fix.label) is \(FixCard.kind(fix.interactionType)) fix; --count, --option, --timer-done and --steps do not apply.")
            }
            return nil
        }
    }

    static func chosenInsight(fix: Fix, interaction: InteractionOutcome?) -> String? {
        guard let id = interaction?.optionId else { return nil }
        switch try? fix.configuration() {
        case .quiz(let q)?: return q.options.first { $0.id == id }?.insight
        case .scenario(let s)?: return s.options.first { $0.id == id }?.insight
        default: return nil
        }
    }
}

struct Applied: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "applied", abstract: "Mark the pending fix applied.",
                                                    discussion: "The pending fix is a quick fix queued after a crash, while there is one, else today's.")
    @OptionGroup var o: OutcomeOptions
    func run() async throws { try await OutcomeCommand.run(.applied, o) }
}

struct Skipped: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "skipped", abstract: "Mark the pending fix skipped.",
                                                    discussion: "The pending fix is a quick fix queued after a crash, while there is one, else today's.")
    @OptionGroup var o: OutcomeOptions
    func run() async throws { try await OutcomeCommand.run(.skipped, o) }
}

struct Failed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "failed", abstract: "Mark the pending fix failed.",
                                                    discussion: "The pending fix is a quick fix queued after a crash, while there is one, else today's.")
    @OptionGroup var o: OutcomeOptions
    func run() async throws { try await OutcomeCommand.run(.failed, o) }
}
