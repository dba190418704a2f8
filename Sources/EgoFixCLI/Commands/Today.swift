import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Today: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show today's fix (a quick fix first, after a crash). Counts as opening it.")

    @OptionGroup var options: StoreOptions
    @Flag(help: "Print JSON instead of the card. Records no opening for the patterns, for scripts that ask often.") var json = false

    func run() async throws {
        let s = try Session.open(options)
        try await s.refuseAClockBeforeThePractice()
        // One transaction: two `today` at the same moment assign one fix, and what is printed is stored.
        let out = try await s.store.transaction { try await show(s) }
        s.print(out)
    }

    func show(_ s: Session) async throws -> [String] {
        try await s.ensureCatalogue()
        // The detectors run on another core while the day's fix is chosen and recorded, on what the
        // store held before: read first, so the run is the same whichever thread is quicker.
        let reads = json ? nil : try await DetectionReads.read(s.repos, now: s.now, calendar: s.calendar)
        let detection: Task<PatternRun, Error>? = reads.map { r in Task { r.run() } }
        // The last entry before this one (opening counts as one): more than a week ago, the first
        // line says so, as the dashboard does until then.
        let welcome = (json ? nil : try await s.repos.users.get()
            .flatMap { StreakState(of: $0) { LocalDay($0, calendar: s.calendar) }.lastEngagedDay }
            .flatMap { StreakRules.welcomeBack(daysSince: s.today.days(since: $0)) })
            .map { Text.wrap($0) + [""] } ?? []
        var vm = TodayViewModel(repos: s.repos, calendar: s.calendar)
        try await vm.load(at: s.now, recordingOpening: !json)
        switch vm.state {
        case .loaded(let card):
            if json {
                _ = try await detection?.value
                return [try JSONOut.encode(TodayJSON(card, restDay: false, daily: vm.daily, today: s.today))]
            }
            let run = if let detection { try await detection.value } else { try await Surfacer.run(s) }
            var out = welcome + (try await Surfacer.surface(s, moment: .beforeDailyFix, run: run))
            out += try await TodayLines.lines(s, card: card, daily: vm.daily)
            return out
        case .restDay(let tidbit):
            _ = try await detection?.value
            if json { return [try JSONOut.encode(TodayJSON(nil, restDay: true, today: s.today))] }
            // Which of the rule's two reasons: no bug in its active period, or every fix of the
            // active ones had its turn lately (applied, or skipped or failed within its days).
            let rest = RestDay(bugs: try await s.repos.bugs.getAll())
            var out = welcome + [RestDay.heading, "", rest.reason] + (rest.hint.map { Text.wrap($0) } ?? [])
            if let t = tidbit { out += [""] + Text.wrap(t.body).map { s.style.dim($0) } }
            out += try await TodayLines.diagnosticLine(s)
            return out
        case .loading, .marked:
            _ = try await detection?.value
            return []
        }
    }

    /// The card first (a pending quick fix, or yesterday's fix whose timer ran out after midnight,
    /// else the day's fix); with either of the first two, the day's fix as `daily`, as the card
    /// shows both.
    struct TodayJSON: Encodable {
        struct Daily: Encodable {
            let fix: Fix
            let bug: Bug?
            let completion: FixCompletion
            let rerun: Bool
            let retest: Bool
        }
        /// The day the card is for, as the card's heading and `history --json` write it.
        let date: String
        let fix: Fix?
        let bug: Bug?
        let completion: FixCompletion?
        let restDay: Bool
        let rerun: Bool
        /// A stable bug's retest: failing it sends the bug back to active.
        let retest: Bool
        let quickFix: Bool
        /// Yesterday's fix whose timer ran out after midnight, first on the card ("YESTERDAY'S FIX").
        let yesterdays: Bool
        let daily: Daily?

        /// A completion as the card has it, without its reflection: the card never shows one, and a
        /// status bar that asks every minute (and logs or shows what it is given) is no place for
        /// private text. `history --json` and `export` carry reflections.
        static func asOnTheCard(_ c: FixCompletion) -> FixCompletion {
            var c = c
            c.reflection = nil
            return c
        }

        init(_ card: TodayCard?, restDay: Bool, daily: TodayCard? = nil, today: LocalDay) {
            date = (daily ?? card).map { LocalDay(ordinal: $0.completion.day ?? today.ordinal) }?.description ?? today.description
            fix = card?.fix
            bug = card?.bug
            completion = card.map { Self.asOnTheCard($0.completion) }
            self.restDay = restDay
            rerun = card?.isRerun ?? false
            retest = card?.isRetest ?? false
            quickFix = card?.isQuickFix ?? false
            yesterdays = card.map { !$0.isQuickFix && ($0.completion.day.map { $0 != today.ordinal } ?? false) } ?? false
            if let card, let d = daily, d.completion.id != card.completion.id {
                self.daily = Daily(fix: d.fix, bug: d.bug, completion: Self.asOnTheCard(d.completion), rerun: d.isRerun, retest: d.isRetest)
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
        // Yesterday's fix whose timer ran out after midnight comes first too (`PendingFixRule`).
        let yesterdays = !card.isQuickFix && card.completion.givenDay({ LocalDay($0, calendar: s.calendar) }) != s.today
        if card.isQuickFix || yesterdays {
            let heading = card.isQuickFix ? "QUICK FIX // after the crash, first" : "YESTERDAY'S FIX // its timer ran out after midnight, first"
            out += FixCard.lines(fix: card.fix, bug: card.bug, style: s.style, heading: heading, showCommands: true)
            // Whatever else waits before the day's fix (a second crash's quick fix, yesterday's
            // timed fix), each shown: the outcome commands mark them in this order, and a fix the
            // card did not show was marked unseen.
            let queue = try await OutcomeService(repos: s.repos, calendar: s.calendar).queue(at: s.now)
            let between = queue.filter { q in q.completion.id != card.completion.id && q.completion.id != daily?.completion.id }
            for (n, q) in between.enumerated() {
                let h = q.fix.type == .quickFix ? "QUICK FIX // after the crash, " + Self.ordinal(n + 2)
                    : "YESTERDAY'S FIX // its timer ran out after midnight, " + Self.ordinal(n + 2)
                out += ["", ""] + FixCard.lines(fix: q.fix, bug: try await s.repos.bugs.getById(q.fix.bugId), style: s.style, heading: h, showCommands: false)
            }
            let dailyPending = daily.map { $0.completion.id != card.completion.id && $0.completion.outcome == .pending } ?? false
            if let daily, daily.completion.id != card.completion.id {
                out += ["", ""]
                out += dailyLines(s, daily, showCommands: false)
            }
            if !between.isEmpty || dailyPending {
                // Named in order, or the second outcome meant for one marked another.
                let items = [card.fix.label] + between.map(\.fix.label) + (dailyPending ? ["this one"] : [])
                let order = items.count == 2 ? "\(items[0]) first, then \(items[1])"
                    : "them in this order: " + items.dropLast().joined(separator: ", ") + ", then " + (items.last ?? "")
                out += [""] + Text.fitted("// The outcome commands mark \(order).").map { s.style.dim($0) }
            }
        } else {
            out += dailyLines(s, card, showCommands: card.completion.outcome == .pending)
        }
        out += try await diagnosticLine(s)
        return out
    }

    static func ordinal(_ n: Int) -> String {
        switch n {
        case 1: return "first"
        case 2: return "second"
        case 3: return "third"
        case 4: return "fourth"
        default: return "number \(n)"
        }
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
            out += ["", "\(Plural.of(left, "unseen fix", "unseen fixes")) left for \(bug.title.lowercased()). After that, fixes come around again: failed ones after \(Thresholds.failedCooldownDays) days, skipped ones after \(Thresholds.skippedCooldownDays), applied ones after \(Thresholds.rerunAfterDays). Rest days in between.",
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
