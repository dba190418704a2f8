import ArgumentParser
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

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
    @Flag(help: "Skip this week. Records no ratings; today, status and remind stop asking about it.") var skip = false
    @Flag(help: "Record even outside the Sunday-evening-to-Monday window (reviews the current week).") var anyway = false
    @Flag(help: ArgumentHelp("Take the week's diagnostic again, its ratings replaced (one typed wrong). While it is open, "
                             + "or with --anyway for this week's.")) var redo = false

    func run() async throws {
        let s = try Session.open(options)
        try await s.refuseAClockBeforeThePractice()
        let svc = DiagnosticService(repos: s.repos, calendar: s.calendar)
        let (user, due) = try await s.store.transaction { () -> (UserProfile, Bool) in
            try await s.ensureCatalogue()
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
        if redo {
            guard !skip else { throw CLIError("--redo and --skip: pass one of them. Nothing recorded.", code: 64) }
            guard inWindow || anyway else {
                throw CLIError("no diagnostic open to take again. It opens Sunday at \(Thresholds.diagnosticOpensSundayHour):00 and stays "
                               + "open through Monday; --anyway --redo takes this week's again. Nothing recorded.")
            }
            try await takeAgain(s, svc, week: week, user: user)
            return
        }
        if skip {
            // Ratings with --skip would be dropped unread; which one was meant is the user's call.
            guard rate.isEmpty else { throw CLIError("--skip and --rate: pass one of them. Nothing recorded.", code: 64) }
            let done = try await done()
            let noted = done || !due || noteSkipped(s, week)
            // Outside the window there is nothing to skip (it said "Skipped" on a Wednesday).
            let said = done ? "The diagnostic for \(week.isoWeekLabel) is already done. Nothing to skip."
                : due ? "Skipped. No ratings recorded; nothing owed, and nothing asks again this week."
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
            throw CLIError("no diagnostic for \(week.isoWeekLabel): the practice began after that week. The first one opens Sunday at \(Thresholds.diagnosticOpensSundayHour):00.")
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
            let head = "DIAGNOSTIC \(week.isoWeekLabel)"
            s.print(Text.headed(head, width: head.count, comment: "// \(Plural.of(bugs.count, "bug")), 30 seconds. Enter skips one.",
                                style: s.style) + [""])
            if let tid = MicroEducationPicker.diagnostic(from: try await s.repos.education.getAll(), bugSlug: bugs.first?.slug ?? "",
                                                         userId: user.id, week: week) {
                s.print(Text.wrap(tid.body).map { s.style.dim($0) } + [""])
            }
            guard let answers = ask(bugs, s) else { return }
            responses = answers
            guard !responses.isEmpty else {
                // Only the week the window is open for (with --anyway mid-week, the week whose
                // diagnostic opens on Sunday is not skipped by it).
                if due, !(try await done()) { noteSkipped(s, week) }
                s.print([due ? "Skipped. No ratings recorded; nothing owed, and nothing asks again this week." : "Skipped. No ratings recorded; nothing owed."])
                return
            }
        } else {
            throw CLIError("not a terminal: pass --rate slug=quiet|present|loud[@context] for each bug, or --skip.")
        }
        let answers = responses
        let out = try await s.store.transaction { () -> [String] in
            let (d, changed) = try await svc.completeNamingChanges(answers, at: s.now)
            var out = ["DIAGNOSTIC \(week.isoWeekLabel)", ""]
            for r in d.responses { out.append("  " + (try await name(r.bugId, s)) + ": " + Self.words(r)) }
            // A loud week can send a stable bug back to active: said, not left for `status` to show.
            if !changed.isEmpty { out += [""] + changed.map { OutcomeCommand.transitionLine($0.transition, of: $0.bug) } }
            out += [""] + (try await weekSummary(s, week: week, user: user))
            out += ["", s.style.dim("// Recorded. It feeds the patterns, not a score.")]
            return out
        }
        s.print(out)
    }

    /// A rating as the command says it: "loud @work".
    static func words(_ r: BugDiagnosticResponse) -> String {
        r.intensity.rawValue + (r.primaryContext.map { " @" + $0.word } ?? "")
    }

    func name(_ bugId: UUID, _ s: Session) async throws -> String {
        let b = try await s.repos.bugs.getById(bugId)
        return b.map { s.style.paint($0.title, $0.color) } ?? bugId.uuidString
    }

    /// `--redo`: the week's diagnostic taken again, its ratings replaced in one transaction. In a
    /// terminal it asks about the bugs the first one asked about, showing the first ratings.
    func takeAgain(_ s: Session, _ svc: DiagnosticService, week: LocalDay, user: UserProfile) async throws {
        var responses: [BugDiagnosticResponse] = []
        if !rate.isEmpty {
            for r in rate { responses.append(try await parse(r, s)) }
        } else if Prompt.interactive {
            // The bugs the first one asked, asked again (those it rated, then those Enter
            // skipped); Enter keeps a first rating, or leaves a skipped bug unrated. A bug
            // deactivated since is not asked, and keeps its rating.
            let first = try await svc.redoTarget(at: s.now)
            let asked = try await svc.bugsAsked(in: first)
            let kept = Dictionary(first.responses.map { ($0.bugId, $0) }, uniquingKeysWith: { a, _ in a })
            // A loud rating that sent its bug back stands: not asked (every answer was typed, then
            // the whole redo refused).
            let stands = asked.filter { DiagnosticRedo.standingLoud(of: $0, in: first) != nil }
            let bugs = asked.filter { b in b.isActive && !stands.contains { $0.id == b.id } }
            var firstLines: [String] = []
            for r in first.responses {
                let b = asked.first { $0.id == r.bugId }
                let note = b.map { b in stands.contains { $0.id == b.id } ? "   // stands: it sent the bug back to active"
                    : b.isActive ? "" : "   // kept: the bug is not active" } ?? ""
                firstLines.append("  " + (try await name(r.bugId, s)) + ": " + Self.words(r) + (note.isEmpty ? "" : s.style.dim(note)))
            }
            for b in bugs where kept[b.id] == nil { firstLines.append("  " + s.style.paint(b.title, b.color) + ": not rated") }
            let head = "DIAGNOSTIC \(week.isoWeekLabel), taken again"
            s.print(Text.headed(head, width: head.count, comment: "// \(Plural.of(bugs.count, "bug")) asked again. Enter keeps a first rating.",
                                style: s.style)
                    + ["", s.style.dim("// The first ratings:")] + firstLines + [""])
            guard let answers = ask(bugs, s, keeping: kept) else { return }
            let carried = first.responses.filter { r in !bugs.contains { $0.id == r.bugId } }
            let all = first.responses.compactMap { r in (answers + carried).first { $0.bugId == r.bugId } }
                + answers.filter { a in !first.responses.contains { $0.bugId == a.bugId } }
            guard all != first.responses else {
                s.print(["Nothing changed. The first ratings stand."])
                return
            }
            responses = all
        } else {
            throw CLIError("not a terminal: pass --rate slug=quiet|present|loud[@context] for each bug with --redo.")
        }
        let answers = responses
        let out = try await s.store.transaction { () -> [String] in
            let r = try await svc.redo(answers, at: s.now)
            var out = ["DIAGNOSTIC \(week.isoWeekLabel), taken again", ""]
            let was = r.before.responses
            for n in r.after.responses {
                let before = was.first { $0.bugId == n.bugId }
                let note = before.map { $0 == n ? "" : "   (was " + Self.words($0) + ")" } ?? "   (not rated before)"
                out.append("  " + (try await name(n.bugId, s)) + ": " + Self.words(n) + s.style.dim(note))
            }
            for b in was where !r.after.responses.contains(where: { $0.bugId == b.bugId }) {
                out.append("  " + (try await name(b.bugId, s)) + ": not rated" + s.style.dim("   (was " + Self.words(b) + ")"))
            }
            var states = r.undone.map { b in
                b.status == .active ? b.title + ": active again. The rating that made it stable has changed."
                    : b.title + ": stable again, not resolved. The new ratings decide."
            }
            states += r.changed.map { OutcomeCommand.transitionLine($0.transition, of: $0.bug) }
            if !states.isEmpty { out += [""] + states }
            out += [""] + (try await weekSummary(s, week: week, user: user))
            out += ["", s.style.dim("// Recorded in place of the first ratings, which stay in the store, deleted.")]
            return out
        }
        s.print(out)
    }

    /// Asks about each bug in a terminal: quiet, present or loud, then where it was loudest.
    /// Enter skips one bug (the answers given are kept); Ctrl-D or Ctrl-C leaves the check-in
    /// with nothing recorded (nil, said). (Enter on a later bug dropped the answers already given.)
    /// `keeping`: a redo's first ratings, which Enter keeps (for a bug without one, Enter skips it).
    func ask(_ bugs: [Bug], _ s: Session, keeping: [UUID: BugDiagnosticResponse] = [:]) -> [BugDiagnosticResponse]? {
        var responses: [BugDiagnosticResponse] = []
        // A redo left midway owes nothing anyway: what matters is that the first ratings stand.
        let left = redo ? "Left. The first ratings stand." : "Left. Nothing recorded, nothing owed."
        let interrupt = Prompt.onInterrupt(saying: left)
        defer { interrupt.cancel() }
        for b in bugs {
            let i: Int
            let kept = keeping[b.id]
            switch Prompt.choose("This week, \(b.title.lowercased()) felt...", ["Quiet", "Present", "Loud"],
                                 skip: kept.map { "to keep " + Self.words($0) } ?? "to skip this bug") {
            case .picked(let n): i = n
            case .skipped:
                if let kept { responses.append(kept) }
                continue
            case .ended:
                s.print([left])
                return nil
            }
            let intensity = [BugIntensity.quiet, .present, .loud][i]
            var ctx: EventContext?
            if intensity != .quiet {
                let names = ["Work", "Home", "Social", "Family", "Online", "Unsure"]
                switch Prompt.choose("Where was it loudest?", names, skip: "to leave it out") {
                case .picked(let j): ctx = [EventContext.work, .home, .social, .family, .online, .unknown][j]
                case .skipped: break
                case .ended:
                    s.print([left])
                    return nil
                }
            }
            responses.append(BugDiagnosticResponse(bugId: b.id, intensity: intensity, primaryContext: ctx))
        }
        return responses
    }

    /// The completion screen's weekly summary: the reviewed week's outcomes and crashes, beside the
    /// week before, each record on the day it counted where it was made, as the week pages count
    /// them (a diagnostic taken on a Sunday in Los Angeles counted that Sunday's crash in another
    /// week). The days compared are the week page's (`WeekComparison`): a week still under way
    /// (`--anyway` midweek) is set against the same days of the week before.
    func weekSummary(_ s: Session, week: LocalDay, user: UserProfile) async throws -> [String] {
        let practice = try await s.store.readPractice()
        let recorded = RecordedDays(events: practice.events, calendar: s.calendar)
        let ledger = DayLedger(practice, calendar: s.calendar, recorded: recorded)
        func counts(_ days: ClosedRange<LocalDay>) -> (applied: Int, skipped: Int, failed: Int, crashes: Int) {
            var a = 0, sk = 0, f = 0, x = 0
            for d in ledger.days(from: days.lowerBound, to: days.upperBound.adding(days: 1)) {
                a += d.applied
                sk += d.skipped
                f += d.failed
                x += d.crashes
            }
            return (a, sk, f, x)
        }
        let now = counts(week...week.adding(days: 6))
        // The practice's first week has no week before it to compare with (it was compared with
        // a week of zeros), nor the week after one the practice began partway through (its days
        // before day one were counted as zeros): as the site's week pages.
        let first = recorded.practiceStart(of: user)
        // One line, or on a terminal too narrow for it (76 columns at most) a count a line.
        func counted(_ parts: [String]) -> [String] { Text.oneLineOrEach(parts, separator: "   ", restIndent: "  ") }
        guard let compared = WeekComparison.daysBefore(week: week, today: s.today, practiceStart: first) else {
            return counted(["WEEK \(week.isoWeekLabel)", "applied \(now.applied)", "skipped \(now.skipped)", "failed \(now.failed)", "crashes \(now.crashes)"])
                + Text.fitted(first >= week ? "// The practice's first week: no week before it to compare."
                                            : "// The practice began partway through the week before: no whole week to compare.").map { s.style.dim($0) }
        }
        let before = counts(compared)
        func cell(_ n: Int, _ was: Int) -> String { n == was ? "\(n)" : "\(n) (\(was))" }
        let differs = now != before
        let underWay = WeekComparison.isUnderWay(week: week, today: s.today)
        let than = underWay ? "the same days of the week before" : "the week before"
        return counted(["WEEK \(week.isoWeekLabel)", "applied \(cell(now.applied, before.applied))", "skipped \(cell(now.skipped, before.skipped))",
                        "failed \(cell(now.failed, before.failed))", "crashes \(cell(now.crashes, before.crashes))"])
            + Text.fitted(differs ? "// In parentheses: \(than), where it differs."
                                  : underWay ? "// Unchanged from \(than)." : "// The same as \(than).").map { s.style.dim($0) }
    }

    func parse(_ r: String, _ s: Session) async throws -> BugDiagnosticResponse {
        let parts = r.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw CLIError("--rate '\(r)': expected slug=quiet|present|loud[@context]. Nothing recorded.", code: 64) }
        let bug: Bug
        do { bug = try await s.bug(slug: parts[0]) } catch PracticeError.unknownBug(let typed, let nearest?) {
            // The nearest slug named when it is a bug the diagnostic cannot rate, and why: the
            // hint led to a second refusal ("not active").
            guard let near = try await s.repos.bugs.getBySlug(nearest), !near.isActive else { throw PracticeError.unknownBug(typed, nearest: nearest) }
            let active = try await s.repos.bugs.getActive().filter { $0.deletedAt == nil }.map(\.slug).sorted()
            throw CLIError("unknown bug '\(typed)' (\(nearest)? It is not active; the diagnostic rates "
                           + (active.isEmpty ? "active bugs, and none is" : "active bugs: " + active.joined(separator: ", ")) + "). Run `egofix bugs` to list the slugs.")
        }
        // Empty parts kept: "loud@" is a malformed context, not "loud".
        let valueParts = parts[1].split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let intensity = BugIntensity(rawValue: valueParts[0].lowercased()) else {
            throw CLIError("--rate '\(r)': '\(valueParts[0])' is not quiet, present or loud. Nothing recorded.", code: 64)
        }
        var ctx: EventContext?
        if valueParts.count == 2 {
            // "unsure" is what the asking form offers; it is stored as unknown.
            guard let c = EventContext.parse(valueParts[1]) else {
                throw CLIError("--rate '\(r)': unknown context '\(valueParts[1])'. Use one of: \(EventContext.words). Nothing recorded.", code: 64)
            }
            // The context says where the bug was loudest, so it is asked only when it was not quiet (spec).
            guard intensity != .quiet else {
                throw CLIError("--rate '\(r)': a quiet bug has no context. Drop '@\(valueParts[1])', or rate it present or loud. Nothing recorded.", code: 64)
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
