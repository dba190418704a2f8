import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start: pick your primary bug and see the first fix.",
        discussion: "With no --bug, asks which one when run in a terminal. With --from DIR, a new store joins the practice another machine keeps in the sync folder DIR instead (see `egofix sync`).")

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Join the practice in this sync folder instead of starting one.", valueName: "dir"))
    var from: String?

    @Option(help: ArgumentHelp("The primary bug's slug (see `egofix bugs`).", valueName: "slug"))
    var bug: String?

    func run() async throws {
        let s = try Session.open(options, ifMissing: .create)
        do { try await start(s) } catch {
            // A store made for an init that did not happen (no bug chosen, a bad slug) is not left
            // behind (only when no other process has it open and it holds no practice).
            s.discardMadeStore()
            throw error
        }
    }

    private func start(_ s: Session) async throws {
        if let from {
            if bug != nil { throw CLIError("--from joins a practice that already has its primary bug; pass --from or --bug, not both.") }
            return try await SyncCommand.sync(s, dir: from, requireEmpty: true)
        }
        var vm = OnboardingViewModel(repos: s.repos, calendar: s.calendar)
        try await s.store.transaction {
            try s.ensureCatalogue()
            do { try await vm.load() } catch let e as OnboardingViewModel.OnboardingError { throw CLIError(e.description) }
        }
        var slug = bug
        if slug == nil {
            guard Prompt.interactive else {
                throw CLIError("no bug chosen. Pass --bug SLUG, one of: \(vm.bugs.map(\.slug).sorted().joined(separator: ", ")).")
            }
            // Asked before the store is locked: the answer may take a while. Ctrl-C meanwhile
            // leaves no store made for it (it left one with no practice in it).
            let store = s.store, made = s.createdStore, wasEmpty = s.storeWasEmptyFile
            let interrupt = Prompt.onInterrupt(saying: "Nothing started.") { if made { store.removeIfUnused(keepingFile: wasEmpty) } }
            defer { interrupt.cancel() }
            Swift.print("Pick the bug that runs the most in your legacy code.\nOthers can be activated later.\n")
            // Numbered as the crash log numbers them; enter is no answer here (there is no default).
            let menu = Session.inCatalogueOrder(vm.bugs)
            // Titles padded to one column, so the descriptions line up.
            let column = (menu.map(\.title.count).max() ?? 0) + 2
            let choice = Prompt.choose("Primary bug:", menu.map { pad($0.title, column) + s.style.dim("// " + $0.description) }, skip: nil)
            // Ctrl-D leaves, as Ctrl-C does, with nothing started (and no store made for it).
            guard case .picked(let i) = choice else {
                if made { store.removeIfUnused(keepingFile: wasEmpty) }
                s.print(["Nothing started."])
                return
            }
            slug = menu[i].slug
        }
        let chosen = slug ?? ""
        let out = try await s.store.transaction { () -> [String] in
            // Looked at again inside the transaction: another `init` may have started the practice meanwhile.
            do { try await vm.load() } catch let e as OnboardingViewModel.OnboardingError { throw CLIError(e.description) }
            try vm.select(slug: chosen)
            let card = try await vm.complete(at: s.now)
            var out = ["v1.0. Primary bug: " + s.style.paint(vm.selected?.title ?? "", vm.selected?.color ?? Style.heading) + ".",
                       s.style.dim("// Store: \(Terminal.visible(s.storePath))"), ""]
            if let card {
                out += FixCard.lines(fix: card.fix, bug: card.bug, style: s.style, heading: "FIRST FIX")
            }
            return out
        }
        s.print(out)
    }
}

struct Today: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show today's fix (a quick fix first, after a crash). Counts as opening it.")

    @OptionGroup var options: StoreOptions
    @Flag(help: "Print JSON instead of the card.") var json = false

    func run() async throws {
        let s = try Session.open(options)
        // One transaction: two `today` at the same moment assign one fix, and what is printed is stored.
        let out = try await s.store.transaction { try await show(s) }
        s.print(out)
    }

    func show(_ s: Session) async throws -> [String] {
        try s.ensureCatalogue()
        // The detectors run on another core while the day's fix is chosen and recorded, on what the
        // store held before: read first, so the run is the same whichever thread is quicker.
        let reads = json ? nil : try await DetectionReads.read(s.repos, now: s.now, calendar: s.calendar)
        let detection: Task<PatternRun, Error>? = reads.map { r in Task { r.run() } }
        // The last entry before this one (opening counts as one): a week or more ago, the first
        // line says so, as the dashboard does until then.
        let welcome = (json ? nil : try await s.repos.users.get()?.lastEngagementDate
            .flatMap { StreakRules.welcomeBack(daysSince: s.today.days(since: LocalDay($0, calendar: s.calendar))) })
            .map { Text.wrap($0) + [""] } ?? []
        var vm = TodayViewModel(repos: s.repos, calendar: s.calendar)
        try await vm.load(at: s.now)
        switch vm.state {
        case .loaded(let card):
            if json {
                _ = try await detection?.value
                return [try JSONOut.encode(TodayJSON(card, restDay: false, daily: vm.daily))]
            }
            let run = if let detection { try await detection.value } else { try await Surfacer.run(s) }
            var out = welcome + (try await Surfacer.surface(s, moment: .beforeDailyFix, run: run))
            out += try await TodayLines.lines(s, card: card, daily: vm.daily)
            return out
        case .restDay(let tidbit):
            _ = try await detection?.value
            if json { return [try JSONOut.encode(TodayJSON(nil, restDay: true))] }
            // Which of the rule's two reasons: no bug in its active period, or every fix of the
            // active ones had its turn lately (applied, or skipped or failed within its days).
            let rest = RestDay(bugs: try await s.repos.bugs.getAll())
            var out = welcome + [RestDay.heading, "", rest.reason] + (rest.hint.map { [$0] } ?? [])
            if let t = tidbit { out += [""] + Text.wrap(t.body).map { s.style.dim($0) } }
            out += try await TodayLines.diagnosticLine(s)
            return out
        case .loading, .marked:
            _ = try await detection?.value
            return []
        }
    }

    /// The card first (a pending quick fix, else the day's fix); with a quick fix, the day's fix
    /// as `daily`, as the card shows both.
    struct TodayJSON: Encodable {
        struct Daily: Encodable {
            let fix: Fix
            let bug: Bug?
            let completion: FixCompletion
            let rerun: Bool
            let retest: Bool
        }
        let fix: Fix?
        let bug: Bug?
        let completion: FixCompletion?
        let restDay: Bool
        let rerun: Bool
        /// A stable bug's retest: failing it sends the bug back to active.
        let retest: Bool
        let quickFix: Bool
        let daily: Daily?

        init(_ card: TodayCard?, restDay: Bool, daily: TodayCard? = nil) {
            fix = card?.fix
            bug = card?.bug
            completion = card?.completion
            self.restDay = restDay
            rerun = card?.isRerun ?? false
            retest = card?.isRetest ?? false
            quickFix = card?.isQuickFix ?? false
            if let card, card.isQuickFix, let d = daily, d.completion.id != card.completion.id {
                self.daily = Daily(fix: d.fix, bug: d.bug, completion: d.completion, rerun: d.isRerun, retest: d.isRetest)
            } else {
                self.daily = nil
            }
        }
    }
}

/// What `egofix today` prints for its cards: a pending quick fix first, then the day's fix.
enum TodayLines {
    static func lines(_ s: Session, card: TodayCard, daily: TodayCard?) async throws -> [String] {
        var out: [String] = []
        if card.isQuickFix {
            out += FixCard.lines(fix: card.fix, bug: card.bug, style: s.style, heading: "QUICK FIX // after the crash, first",
                                 showCommands: true)
            if let daily, daily.completion.id != card.completion.id {
                out += ["", ""]
                out += dailyLines(s, daily, showCommands: false)
                if daily.completion.outcome == .pending {
                    out += ["", s.style.dim("// The outcome commands mark the quick fix first, then this one.")]
                }
            }
        } else {
            out += dailyLines(s, card, showCommands: card.completion.outcome == .pending)
        }
        out += try await diagnosticLine(s)
        return out
    }

    static func dailyLines(_ s: Session, _ card: TodayCard, showCommands: Bool) -> [String] {
        var heading = "TODAY // " + s.today.description
        // A stable bug's retest: its outcome decides whether the bug stays stable (a card that
        // looked like any other sent a bug back to active on `failed`, unannounced).
        let retest = card.isRetest ? card.bug : nil
        if card.isRerun { heading += " // rerun" }
        if retest != nil { heading += " // retest" }
        var out = FixCard.lines(fix: card.fix, bug: card.bug, style: s.style, heading: heading, showCommands: showCommands)
        if card.isRerun {
            out += ["", s.style.dim("// A rerun: applied before, at least \(Thresholds.rerunAfterDays) days ago. Nothing unseen was left.")]
        }
        if let b = retest, card.completion.outcome == .pending {
            let since = b.stableSince.map { " since " + LocalDay($0, calendar: s.calendar).description } ?? ""
            out += [""] + Text.fitted("// A retest: \(b.title) has been stable\(since). Failed sends it back to active; applied or skipped keeps it stable.").map { s.style.dim($0) }
        }
        if let left = card.unseenLeft, let bug = card.bug {
            out += ["", "\(Text.plural(left, "unseen fix", "unseen fixes")) left for \(bug.title.lowercased()). After that, fixes come around again: failed ones after \(Thresholds.failedCooldownDays) days, skipped ones after \(Thresholds.skippedCooldownDays), applied ones after \(Thresholds.rerunAfterDays). Rest days in between.",
                    s.style.dim("// `egofix bug activate SLUG` adds another bug's fixes; `egofix bugs` lists them.")]
        }
        if card.completion.outcome != .pending {
            out.append("")
            out.append(s.style.paint("Marked " + card.completion.outcome.rawValue + ".", s.style.outcomeColor(card.completion.outcome))
                       + s.style.dim(" Next fix tomorrow."))
        }
        return out
    }

    /// The open Sunday diagnostic, when it is open and not done.
    static func diagnosticLine(_ s: Session) async throws -> [String] {
        guard try await DiagnosticService(repos: s.repos, calendar: s.calendar, skippedWeek: try s.skippedDiagnosticWeek()).isDue(at: s.now) else { return [] }
        return [""] + Text.fitted("// " + ReminderCopy.diagnosticOpen).map { s.style.dim($0) }
    }
}

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
    /// From when an outcome before `today` gives today's fix: `remind_at`, or the start of the day
    /// once the timer has announced the fix ("Fix #041 is ready."), which it does at its own time
    /// when installed with `remind --install --at`.
    static func givingTodaysFix(_ s: Session) -> ReminderTime {
        let announced = SentReminders(store: s.storePath, environment: Session.environment()).sentFix(on: LocalDay(s.now, calendar: s.calendar))
        return announced ? .startOfDay : s.config.remindAt ?? .standard
    }

    static func run(_ outcome: FixOutcome, _ o: OutcomeOptions) async throws {
        let s = try Session.open(o.store)
        let from = givingTodaysFix(s)
        // A first look, rolled back (the write lock is not held while an editor may stay open for
        // minutes), so a wrong option or no pending fix is refused before the reflection is asked
        // for; a refused command gives out no fix (today's, given by an outcome before `today`).
        let peek = try await s.store.rolledBack { () -> (FixCompletion, Fix) in
            try s.ensureCatalogue()
            return try await OutcomeService(repos: s.repos, calendar: s.calendar).target(at: s.now, givingTodaysFixFrom: from)
        }
        _ = try interactionOutcome(fix: peek.1, o)
        var draft: String?
        let reflection = try ReflectionInput.read(message: o.message, edit: o.edit, what: "reflection", draft: &draft)
        // Read, decide and write in one transaction: of two commands marking the same fix at the
        // same moment, one is recorded and the other refused; what is printed is stored.
        let out: [String]
        do {
            out = try await s.store.transaction { () -> [String] in
                try s.ensureCatalogue()
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
        out.append(line(for: outcome, fix: r.fix))
        // The count or the option said back, as the week page will show it: a wrong one is seen now.
        if let said = InteractionSummary.text(r.completion, fix: r.fix) { out += Text.wrap(said) }
        if help.isEmpty, let insight = chosenInsight(fix: r.fix, interaction: interaction) {
            out.append("")
            out += Text.wrap(insight).map { s.style.dim($0) }
        }
        if let v = r.versionEntry {
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
        if reflection != nil { out += ["", s.style.dim("// Reflection saved. It stays in your store.")] }
        if r.fix.type == .quickFix {
            let daily = try await DailyFixService(repos: s.repos, calendar: s.calendar).todaysAssignment(at: s.now)
            if let d = daily, d.completion.outcome == .pending {
                out += ["", s.style.dim("// Today's fix, \(d.fix.label), is still open: `egofix today`.")]
            }
        }
        let run = try await DetectionReads.run(s.repos, now: s.now, calendar: s.calendar, after: earlier.value)
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
            if let c = o.count, c < 0 { throw CLIError("--count must be 0 or more. Nothing recorded.") }
            return o.count.map { InteractionOutcome(count: $0) }
        case .quiz(let q)?:
            guard let id = o.option else { return nil }
            guard q.options.contains(where: { $0.id == id }) else {
                throw CLIError("--option '\(id)' is not an option of \(fix.label). Options: \(q.options.map(\.id).joined(separator: ", ")).")
            }
            return InteractionOutcome(optionId: id)
        case .scenario(let sc)?:
            guard let id = o.option else { return nil }
            guard sc.options.contains(where: { $0.id == id }) else {
                throw CLIError("--option '\(id)' is not an option of \(fix.label). Options: \(sc.options.map(\.id).joined(separator: ", ")).")
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
