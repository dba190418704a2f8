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
        let user = try await s.store.transaction { () -> UserProfile in
            try s.ensureCatalogue()
            return try await s.profile()
        }
        // The two steps are asked before the store is locked: a prompt may wait for minutes.
        // A context that is not one is refused before anything is asked.
        var ctx: EventContext?
        if let context {
            guard let c = EventContext.parse(context) else {
                throw CLIError("unknown context '\(context)'. Use one of: \(EventContext.words).")
            }
            ctx = c
        }
        var bug: Bug?
        // Ctrl-C at either step logs nothing, and says so.
        let interrupt = slug == nil && note == nil && Prompt.interactive ? Prompt.onInterrupt(saying: "Nothing logged.") : nil
        defer { interrupt?.cancel() }
        if let slug {
            bug = try await s.bug(slug: slug)
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
        if text == nil && note == nil {
            if Prompt.interactive && slug == nil {
                switch try Prompt.askText("Note (optional; enter for none):", what: "note", longer: "Pass a longer one with -m, or pipe it in.") {
                case .text(let typed): text = typed
                case .ended:
                    s.print(["Nothing logged."])
                    return
                }
            } else if !Prompt.interactive && isatty(STDIN_FILENO) == 0 {
                var none: String?
                text = try ReflectionInput.read(message: nil, edit: false, what: "note", draft: &none)
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
                out.append("Logged. The version number stays where it is.")
                // A crash about a stable or resolved bug sends it back to active: said here, where it happened.
                out += changed.map { OutcomeCommand.transitionLine($0.transition, of: $0.bug) }
                if help.isEmpty, let b = crashed, let tid = try await crashTidbit(s, bug: b) {
                    out += [""] + Text.wrap(tid.body).map { s.style.dim($0) }
                }
                if let q = r.quickFix {
                    out.append("")
                    if help.isEmpty {
                        let qbug = try await s.repos.bugs.getById(q.bugId)
                        // A second crash about the bug queues nothing new: the same one is waiting.
                        out += FixCard.lines(fix: q, bug: qbug, style: s.style, heading: "QUICK FIX // " + (r.waiting ? "still waiting" : "shown next"))
                    } else {
                        out.append(s.style.dim("// A quick fix is queued, for later: `egofix today` shows it."))
                    }
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
        let out = try await s.store.transaction { () -> [String] in
            try s.ensureCatalogue()
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

    func crashTidbit(_ s: Session, bug: Bug) async throws -> MicroEducation? {
        let user = try await s.profile()
        let pool = try await s.repos.education.getFor(bugSlug: bug.slug, trigger: .afterCrash)
        guard let t = MicroEducationPicker.pick(from: pool, bugSlug: bug.slug, trigger: .afterCrash, lastShownId: user.lastTidbitId,
                                                seed: StableHash.fnv1a([user.id.uuidString, ISO8601.format(s.now)])) else { return nil }
        var u = try await s.profile()
        u.lastTidbitId = t.id
        try await s.repos.users.save(u)
        return t
    }
}

struct Reboot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reboot", abstract: "Start fresh after a crash. Closes every open crash.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let s = try Session.open(options)
        let (closed, user) = try await s.store.transaction { () -> ([Crash], UserProfile) in
            try s.ensureCatalogue()
            let closed = try await CrashService(repos: s.repos, calendar: s.calendar).reboot(at: s.now)
            return (closed, try await s.profile())
        }
        s.print(["REBOOT", "", "Closed \(Text.plural(closed.count, "crash", "crashes")). Still v\(user.currentVersion).",
                 s.style.dim("// A reboot is not a reset. The log keeps everything.")])
    }
}

struct Diagnostic: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagnostic",
        abstract: "The weekly check-in: 30 seconds, at most 3 bugs. Always skippable.",
        discussion: """
        Open from Sunday 18:00 through Monday, in your time zone. In a terminal it asks; in scripts pass \
        --rate once per bug, e.g. --rate need-to-be-right=loud@work --rate need-to-be-busy=quiet.
        """)

    @OptionGroup var options: StoreOptions
    @Option(help: ArgumentHelp("slug=quiet|present|loud[@context]. Repeatable. A context, where it was loudest, only after "
                               + "present or loud: work, home, social, family, online, unsure.", valueName: "rating"))
    var rate: [String] = []
    @Flag(help: "Skip this week. Records nothing; today, status and remind stop asking about it.") var skip = false
    @Flag(help: "Record even outside the Sunday-evening-to-Monday window (reviews the current week).") var anyway = false

    func run() async throws {
        let s = try Session.open(options)
        let svc = DiagnosticService(repos: s.repos, calendar: s.calendar)
        let (user, due) = try await s.store.transaction { () -> (UserProfile, Bool) in
            try s.ensureCatalogue()
            return (try await s.profile(), try await svc.isDue(at: s.now))
        }
        let week = svc.weekUnderReview(at: s.now)
        // The week under review already has its diagnostic (else, when it is not due in the
        // window, the week ended before the practice began).
        func done() async throws -> Bool {
            try await s.repos.diagnostics.getAll().contains { $0.deletedAt == nil && $0.week(in: s.calendar) == week }
        }
        let inWindow = DiagnosticSchedule.reviewedWeek(now: s.now, calendar: s.calendar) != nil
        let closed = "diagnostic due. It opens Sunday at \(Thresholds.diagnosticOpensSundayHour):00 and stays open through Monday."
        if skip {
            // Ratings with --skip would be dropped unread; which one was meant is the user's call.
            guard rate.isEmpty else { throw CLIError("--skip and --rate: pass one of them. Nothing recorded.") }
            let done = try await done()
            let noted = done || !due || noteSkipped(s, week)
            // Outside the window there is nothing to skip (it said "Skipped" on a Wednesday).
            let said = done ? "The diagnostic for \(week.isoWeekLabel) is already done. Nothing to skip."
                : due ? "Skipped. Nothing recorded, nothing owed."
                : inWindow ? "No diagnostic for \(week.isoWeekLabel): the practice began after that week. Nothing to skip."
                : "No " + closed + " Nothing to skip."
            s.print([said]
                    + (noted ? [] : [s.style.dim("// This store cannot be written here, so the skip is not noted: `remind` and `today` mention the diagnostic until it closes.")]))
            return
        }
        if !inWindow && !anyway {
            // Ratings given outside the window are refused, not recorded for a half-finished week.
            if !rate.isEmpty { throw CLIError("no " + closed + " --anyway records one for this week now.") }
            s.print(["No " + closed, s.style.dim("// --anyway records one for this week now.")])
            return
        }
        if inWindow && !due {
            if try await done() { throw PracticeError.diagnosticAlreadyDone(week: week.isoWeekLabel) }
            throw CLIError("no diagnostic for \(week.isoWeekLabel): the practice began after that week. The first one opens Sunday at 18:00.")
        }
        // The questions are asked before the store is locked; the answers are checked and recorded in one transaction.
        var responses: [BugDiagnosticResponse] = []
        // No bug to rate: said, not a request for --rate on each of none (the copy audit).
        if rate.isEmpty, try await svc.bugsToAsk().isEmpty {
            s.print(["No active bugs to rate. Nothing recorded.", s.style.dim("// `egofix bug activate SLUG` starts one.")])
            return
        }
        if !rate.isEmpty {
            for r in rate { responses.append(try await parse(r, s)) }
        } else if Prompt.interactive {
            let bugs = try await svc.bugsToAsk()
            // What this is, first: it opened on a tidbit with no heading, then a question.
            s.print(["DIAGNOSTIC \(week.isoWeekLabel)  " + s.style.dim("// \(Text.plural(bugs.count, "bug")), 30 seconds. Enter skips one."), ""])
            if let tid = MicroEducationPicker.pick(from: try await s.repos.education.getAll(), bugSlug: bugs.first?.slug ?? "",
                                                   trigger: .duringDiagnostic, lastShownId: user.lastTidbitId,
                                                   seed: StableHash.fnv1a([user.id.uuidString, week.description])) {
                s.print(Text.wrap(tid.body).map { s.style.dim($0) } + [""])
            }
            // Enter skips one bug (the answers given are kept); Ctrl-D or Ctrl-C leaves the
            // check-in with nothing recorded. (Enter on a later bug dropped the answers already given.)
            let interrupt = Prompt.onInterrupt(saying: "Left. Nothing recorded, nothing owed.")
            defer { interrupt.cancel() }
            for b in bugs {
                let i: Int
                switch Prompt.choose("This week, \(b.title.lowercased()) felt...", ["Quiet", "Present", "Loud"], skip: "to skip this bug") {
                case .picked(let n): i = n
                case .skipped: continue
                case .ended:
                    s.print(["Left. Nothing recorded, nothing owed."])
                    return
                }
                let intensity = [BugIntensity.quiet, .present, .loud][i]
                var ctx: EventContext?
                if intensity != .quiet {
                    let names = ["Work", "Home", "Social", "Family", "Online", "Unsure"]
                    switch Prompt.choose("Where was it loudest?", names, skip: "to leave it out") {
                    case .picked(let j): ctx = [EventContext.work, .home, .social, .family, .online, .unknown][j]
                    case .skipped: break
                    case .ended:
                        s.print(["Left. Nothing recorded, nothing owed."])
                        return
                    }
                }
                responses.append(BugDiagnosticResponse(bugId: b.id, intensity: intensity, primaryContext: ctx))
            }
            guard !responses.isEmpty else {
                // Only the week the window is open for (with --anyway mid-week, the week whose
                // diagnostic opens on Sunday is not skipped by it).
                if due, !(try await done()) { noteSkipped(s, week) }
                s.print(["Skipped. Nothing recorded, nothing owed."])
                return
            }
        } else {
            throw CLIError("not a terminal: pass --rate slug=quiet|present|loud[@context] for each bug, or --skip.")
        }
        let answers = responses
        let out = try await s.store.transaction { () -> [String] in
            let (d, changed) = try await svc.completeNamingChanges(answers, at: s.now)
            var out = ["DIAGNOSTIC \(week.isoWeekLabel)", ""]
            for r in d.responses {
                let b = try await s.repos.bugs.getById(r.bugId)
                let name = b.map { s.style.paint($0.title, $0.color) } ?? r.bugId.uuidString
                out.append("  " + name + ": " + r.intensity.rawValue + (r.primaryContext.map { " @" + $0.word } ?? ""))
            }
            // A loud week can send a stable bug back to active: said, not left for `status` to show.
            if !changed.isEmpty { out += [""] + changed.map { OutcomeCommand.transitionLine($0.transition, of: $0.bug) } }
            out += [""] + (try await weekSummary(s, week: week, began: user.createdAt))
            out += ["", s.style.dim("// Recorded. It feeds the patterns, not a score.")]
            return out
        }
        s.print(out)
    }

    /// The completion screen's weekly summary: the reviewed week's outcomes and crashes, beside the week before.
    func weekSummary(_ s: Session, week: LocalDay, began: Date) async throws -> [String] {
        let completions = try await s.repos.completions.getAll()
        let crashes = try await s.repos.crashes.getAll()
        func counts(_ start: LocalDay) -> (applied: Int, skipped: Int, failed: Int, crashes: Int) {
            let end = start.adding(days: 7)
            var a = 0, sk = 0, f = 0
            for c in completions where c.deletedAt == nil {
                guard let done = c.completedAt else { continue }
                let d = LocalDay(done, calendar: s.calendar)
                guard d >= start && d < end else { continue }
                switch c.outcome {
                case .applied: a += 1
                case .skipped: sk += 1
                case .failed: f += 1
                case .pending: break
                }
            }
            let x = crashes.filter { c in
                let d = LocalDay(c.crashedAt, calendar: s.calendar)
                return c.deletedAt == nil && d >= start && d < end
            }.count
            return (a, sk, f, x)
        }
        let now = counts(week), before = counts(week.adding(days: -7))
        // The practice's first week has no week before it to compare with (it was compared with
        // a week of zeros, as the site's first week page is not).
        if LocalDay(began, calendar: s.calendar) >= week {
            return ["WEEK \(week.isoWeekLabel)   applied \(now.applied)   skipped \(now.skipped)   failed \(now.failed)   crashes \(now.crashes)",
                    s.style.dim("// The practice's first week: no week before it to compare.")]
        }
        func cell(_ n: Int, _ was: Int) -> String { n == was ? "\(n)" : "\(n) (\(was))" }
        let differs = now != before
        return ["WEEK \(week.isoWeekLabel)   applied \(cell(now.applied, before.applied))   skipped \(cell(now.skipped, before.skipped))   "
                + "failed \(cell(now.failed, before.failed))   crashes \(cell(now.crashes, before.crashes))",
                s.style.dim(differs ? "// In parentheses: the week before, where it differs." : "// The same as the week before.")]
    }

    func parse(_ r: String, _ s: Session) async throws -> BugDiagnosticResponse {
        let parts = r.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw CLIError("--rate '\(r)': expected slug=quiet|present|loud[@context].") }
        let bug = try await s.bug(slug: parts[0])
        // Empty parts kept: "loud@" is a malformed context, not "loud".
        let valueParts = parts[1].split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let intensity = BugIntensity(rawValue: valueParts[0].lowercased()) else {
            throw CLIError("--rate '\(r)': '\(valueParts[0])' is not quiet, present or loud.")
        }
        var ctx: EventContext?
        if valueParts.count == 2 {
            // "unsure" is what the asking form offers; it is stored as unknown.
            guard let c = EventContext.parse(valueParts[1]) else {
                throw CLIError("--rate '\(r)': unknown context '\(valueParts[1])'. Use one of: \(EventContext.words).")
            }
            // The context says where the bug was loudest, so it is asked only when it was not quiet (spec).
            guard intensity != .quiet else {
                throw CLIError("--rate '\(r)': a quiet bug has no context. Drop '@\(valueParts[1])', or rate it present or loud.")
            }
            ctx = c
        }
        return BugDiagnosticResponse(bugId: bug.id, intensity: intensity, primaryContext: ctx)
    }

    /// Nothing is recorded for a skip; the store only notes the week, so that `today`, `status`
    /// and `remind` stop asking about it (`egofix diagnostic` still takes it). Best effort: on a
    /// store this user cannot write, skipping still succeeds and costs nothing.
    /// Notes the skip (best effort: a store that cannot be written still skips); answers whether it did.
    @discardableResult
    private func noteSkipped(_ s: Session, _ week: LocalDay) -> Bool {
        (try? s.store.setMeta(Session.skippedDiagnosticKey, String(week.ordinal))) != nil
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Version, streak, your bugs, the pending fix.")
    @OptionGroup var options: StoreOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let s = try Session.open(options)
        let (snap, marked) = try await s.store.transaction { () -> (StatusSnapshot, (completion: FixCompletion, fix: Fix)?) in
            try s.ensureCatalogue()
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
        out.append(s.style.dim("longest: \(snap.longestStreak)   freeze this week: \(snap.freezeAvailable ? "available" : "used")"))
        out.append("")
        out.append("YOUR BUGS")
        if snap.activeBugs.isEmpty { out.append("  None. `egofix bug activate SLUG` starts one.") }
        for b in snap.activeBugs {
            out.append("  " + s.style.paint(pad(b.title, 24), b.color) + " " + pad(b.status.rawValue, 10) + (b.isPrimary ? s.style.dim("primary") : ""))
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
            if let hint = rest.hint, !snap.activeBugs.isEmpty { out.append("  " + hint) }
        } else if let m = marked, m.completion.outcome != .pending {
            // Today's is done: "`egofix today` shows today's" read as something left to do.
            out.append(s.style.dim("No pending fix. Today's, \(m.fix.label), is marked \(m.completion.outcome.rawValue)."))
        } else {
            out.append(s.style.dim("No pending fix. `egofix today` shows today's."))
        }
        if snap.openCrashes > 0 { out += ["", "\(Text.plural(snap.openCrashes, "open crash", "open crashes")). `egofix reboot` closes \(snap.openCrashes == 1 ? "it" : "them")."] }
        if snap.diagnosticDue { out += [""] + Text.fitted(ReminderCopy.diagnosticOpen) }
        s.print(out)
    }
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }

struct Bugs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bugs", abstract: "The bug library.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let s = try Session.open(options, ifMissing: .inMemory)
        try s.ensureCatalogue()
        let user = try await s.repos.users.get()
        // As the rules have them now, as `status` shows them: a bug stable by time alone read as
        // active here until a command that writes saved it, for weeks on a quiet practice.
        let bugs = try await (user == nil ? s.repos.bugs.getAll() : LifecycleService(repos: s.repos, calendar: s.calendar).current(at: s.now))
            .sorted { $0.slug < $1.slug }
        var out: [String] = []
        for b in bugs {
            let state = b.stateWords
            let primary = b.id == user?.primaryBugId
            out.append(s.style.paint(pad(b.slug, 20), b.color) + " " + (primary ? pad(state, 19) + " " + s.style.dim("primary") : state))
            out += Text.wrap(b.description, indent: "  ").map { s.style.dim($0) }
        }
        out += ["", s.style.dim("// egofix bug activate SLUG | egofix bug deactivate SLUG")]
        s.print(out)
    }
}

struct BugCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bug", abstract: "Activate or deactivate a bug, or make it your primary bug.",
                                                    subcommands: [Activate.self, Deactivate.self, Primary.self])

    /// The bug `slug` read, changed by `decide` (which saves what it changes and says what it did)
    /// and the line printed: one transaction.
    static func change(_ options: StoreOptions, slug: String,
                       _ decide: @escaping @Sendable (Session, Bug) async throws -> String) async throws {
        let s = try Session.open(options)
        let out = try await s.store.transaction { () -> String in
            try s.ensureCatalogue()
            _ = try await s.profile()
            // What time alone made due is saved first, as `today` does ("already active (stable)").
            try await LifecycleService(repos: s.repos, calendar: s.calendar).reconcile(at: s.now)
            return try await decide(s, try await s.bug(slug: slug))
        }
        s.print([out])
    }

    struct Activate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "activate", abstract: "Start getting fixes for a bug.")
        @OptionGroup var options: StoreOptions
        @Argument(help: ArgumentHelp("The bug's slug.", valueName: "slug")) var slug: String

        func run() async throws {
            try await BugCommand.change(options, slug: slug) { s, b in
                if b.isActive { return "\(b.title) is already active" + (b.status == .active ? "" : " (\(b.status.rawValue))") + ". Nothing was changed." }
                let again = b.activatedAt != nil
                try await s.repos.bugs.save(BugLifecycle.activate(b, at: s.now))
                return s.style.paint(b.title, b.color) + " activated. Its fixes join the rotation from the next fix given."
                    + (again ? "\n" + s.style.dim("// Activated again: its severity restarts at low.") : "")
            }
        }
    }

    /// The primary bug picked at `init` could not be changed: a wrong pick stayed the crash
    /// default and first in the day's turn for good.
    struct Primary: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "primary", abstract: "Make a bug your primary bug: what a crash is about unless named, first in the day's turn.",
            discussion: "Activates it when it is not active. The earlier primary bug stays active.")
        @OptionGroup var options: StoreOptions
        @Argument(help: ArgumentHelp("The bug's slug.", valueName: "slug")) var slug: String

        func run() async throws {
            try await BugCommand.change(options, slug: slug) { s, b in
                guard var user = try await s.repos.users.get() else { throw PracticeError.noProfile }
                if user.primaryBugId == b.id && b.isActive { return "\(b.title) is already your primary bug. Nothing was changed." }
                let before: Bug? = if let p = user.primaryBugId { try await s.repos.bugs.getById(p) } else { nil }
                // First in the day's turn only while active (a stable bug gets retests, not daily fixes).
                let turn = b.isActive && b.status != .active ? "" : "; it comes first in the day's turn"
                var lines = Text.wrap(b.title + " is your primary bug" + (before.map { $0.id == b.id ? "" : " (was \($0.title.lowercased()))" } ?? "")
                                      + ". A crash is about it unless you name another" + turn + ".")
                if !b.isActive {
                    let again = b.activatedAt != nil
                    try await s.repos.bugs.save(BugLifecycle.activate(b, at: s.now))
                    lines.append(s.style.dim("// Activated" + (again ? " again: its severity restarts at low." : ": its fixes join the rotation from the next fix given.")))
                }
                user.primaryBugId = b.id
                try await s.repos.users.save(user)
                return lines.joined(separator: "\n")
            }
        }
    }

    struct Deactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "deactivate", abstract: "Stop getting fixes for a bug. Its history stays.")
        @OptionGroup var options: StoreOptions
        @Argument(help: ArgumentHelp("The bug's slug.", valueName: "slug")) var slug: String

        func run() async throws {
            try await BugCommand.change(options, slug: slug) { s, b in
                if !b.isActive { return "\(b.title) is not active. Nothing was changed." }
                try await s.repos.bugs.save(BugLifecycle.deactivate(b, at: s.now))
                // Still the bug a crash is about unless named: said, with the way to change it.
                let primary = try await s.repos.users.get()?.primaryBugId == b.id
                return b.title + " deactivated. The history stays; the fixes stop."
                    + (primary ? "\n" + Text.wrapComment("It is still your primary bug: a crash is about it unless you name another. `egofix bug primary SLUG` names another.")
                        .map { s.style.dim($0) }.joined(separator: "\n") : "")
            }
        }
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write the whole store as canonical JSON.")
    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The file to write ('-' for standard output).", valueName: "file")) var file: String

    func run() async throws {
        let s = try Session.open(options)
        if file != "-", SafeFile.isStore(file, store: s.storePath) {
            throw CLIError("refused to write \(file): it is the store itself. Give another path for the export. Nothing was written.")
        }
        // The profile's streak and freeze as they stand at the clock, so the file does not carry a
        // streak that has since ended (the store is not written).
        let streak = StreakService(repos: s.repos, calendar: s.calendar)
        let now = s.now
        let data = try s.store.exportJSON(profile: { streak.settled($0, at: now) })
        if file == "-" {
            try StandardStreams.write(data)
            return
        }
        try SafeFile.replace(file, with: data, mode: 0o600)
        s.print(["Exported to \(Terminal.visible(file)) (\(data.count) bytes)."])
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a whole store from an export. Validates everything before writing anything; backs the store up first.")
    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The export file.", valueName: "file")) var file: String
    @Flag(help: "Replace a store that already holds a practice (a backup is kept).") var replace = false

    func run() async throws {
        // A FIFO or a device would be read forever or for nonsense.
        var st = stat()
        if stat(file, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            throw CLIError("cannot import \(file): it is not a regular file. Give the path of an export. Nothing was changed.")
        }
        // Read whole, a file takes several times its size in memory before it could be refused.
        if st.st_size > SQLiteStore.maxImportBytes {
            throw CLIError("cannot import \(file): it is \(st.st_size / 1_048_576) MB, over the \(SQLiteStore.maxImportBytes / 1_048_576) MB an import reads "
                           + "(a century of daily reflections of a few KB is under 200 MB). Give the path of an export. Nothing was changed.")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            // The system's reason: "Permission denied" sent nobody to check the path.
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            let reason = fd < 0 ? String(cString: strerror(errno)) : "it cannot be read"
            if fd >= 0 { close(fd) }
            throw CLIError("cannot read \(file) (\(reason)). Check the path and its permissions. Nothing was changed.")
        }
        // A store file (the backup an import keeps, a copy of a store) is not an export: it said
        // "not valid JSON", and the way to restore it was nowhere.
        if data.starts(with: Array("SQLite format 3\u{0}".utf8)) {
            let f = Terminal.visible(file)
            throw CLIError("\(f) is a store file (an import's backup, or a copy of a store), not an export. To restore it: "
                           + "`egofix export --store \(f) restored.json`, then `egofix import restored.json --replace`. Nothing was changed.")
        }
        let s = try Session.open(options, ifMissing: .create)
        // A store this import made holds nothing to back up.
        var backup: String?
        if !s.createdStore {
            let stamp = ISO8601.format(s.now).replacingOccurrences(of: ":", with: "")
            var path = s.storePath + ".backup-" + stamp
            var n = 2
            while FileManager.default.fileExists(atPath: path) {
                path = s.storePath + ".backup-" + stamp + "-\(n)"
                n += 1
            }
            backup = path
        }
        let report: ImportReport
        do {
            report = try s.store.importJSON(data, replace: replace, backupPath: backup, now: s.now)
        } catch {
            // A refused import leaves no trace: not even the empty store opened for it.
            // (Only when no other process has it open and it still holds no practice.)
            s.discardMadeStore()
            throw error
        }
        s.print(["Imported \(Terminal.visible(file)): \(report.summary)."] + (backup.map { [s.style.dim("// Backup of the previous store: \(Terminal.visible($0))")] } ?? []))
    }
}

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Check the store file: SQLite's integrity check, its settings, and that an export of it imports again.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let s = try Session.open(options)
        let result = try s.store.integrityCheck()
        var out = ["store: \(Terminal.visible(s.storePath))", "integrity: \(result)"]
        for (k, v) in try s.store.settings() { out.append("\(k): " + Check.shown(k, v)) }
        let export = result == "ok" ? s.store.exportProblem() : nil
        out.append("export: " + (result != "ok" ? "not tried"
            : export.map { $0.unreadable ? "cannot be made: " + Terminal.visible($0.reason) : "would not import again (\(Terminal.visible($0.reason)))" }
              ?? "imports again"))
        s.print(out)
        if result != "ok" {
            throw CLIError("the store failed SQLite's integrity check. Export what it still holds (`egofix export FILE`) before restoring a backup, "
                           + "which may be older than your last days.")
        }
        if let export, export.unreadable {
            throw CLIError("the store's records cannot all be read (above), so the commands that read them fail too. Keep a copy of the store file "
                           + "as it is, then restore your last backup or export (`egofix import --replace FILE`).")
        }
        if export != nil {
            throw CLIError("an export of this store would be refused by `egofix import` (the record named above). The store still works, "
                           + "but its export is no backup: keep a copy of the store file itself.")
        }
    }

    /// A setting as SQLite's documentation names its value: "FULL (2)", "ON (1)", "DELETE"
    /// (a bare 2 or 1 said nothing to whoever had not read it). A value it does not name stays
    /// as SQLite gave it.
    static func shown(_ pragma: String, _ value: String) -> String {
        let names: [String]
        switch pragma {
        case "synchronous": names = ["OFF", "NORMAL", "FULL", "EXTRA"]
        case "foreign_keys": names = ["OFF", "ON"]
        case "journal_mode": return value.uppercased()
        default: return value
        }
        guard let n = Int(value), names.indices.contains(n) else { return value }
        return "\(names[n]) (\(n))"
    }
}
