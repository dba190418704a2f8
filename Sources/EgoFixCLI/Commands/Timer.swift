import ArgumentParser
import Dispatch
import EgoFixCore
import EgoFixStore
import Foundation

struct TimerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer",
        abstract: "Run the pending fix's timer: a countdown, the bell, a desktop notification.",
        discussion: """
        On a terminal, a bar with the time left; otherwise a line a minute. Ctrl-C stops it and records \
        nothing. At the end the timer is recorded as done (the outcome you mark next says so without \
        --timer-done) and, in a terminal, the outcome is asked for.
        """)

    @OptionGroup var options: StoreOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Run this many seconds instead of the fix's own duration, 1 to \(TimerFace.maxSeconds).", valueName: "n"))
    var seconds: Int?

    func run() async throws {
        if let n = seconds, !(1...TimerFace.maxSeconds).contains(n) {
            throw CLIError("--seconds must be between 1 and \(TimerFace.maxSeconds). Nothing to run.", code: 64)
        }
        let s = try Session.open(options)
        try await s.refuseAClockBeforeThePractice()
        let (completion, fix, daily) = try await s.store.transaction { () -> (FixCompletion, Fix, Fix?) in
            try await s.ensureCatalogue()
            let (c, f): (FixCompletion, Fix)
            // ("no pending fix to mark": the timer marks nothing.)
            do { (c, f) = try await OutcomeService(repos: s.repos, calendar: s.calendar).target(at: s.now) } catch PracticeError.noPendingFix {
                throw CLIError("no pending fix to time. `egofix today` gives today's, if the day has one. Nothing to run.")
            } catch PracticeError.yesterdaysFixClosed(let fix) {
                throw CLIError("no pending fix to time: yesterday's, \(fix), closed unmarked at midnight. `egofix today` gives today's, if the day has one. Nothing to run.")
            }
            // Behind a crash's quick fix, the day's fix `today` shows (and says `timer` runs).
            guard f.type == .quickFix else { return (c, f, nil) }
            let fixes = Dictionary(try await s.repos.fixes.getAll().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let daily = PendingFixRule.todaysDailyFix(in: try await s.repos.completions.getAll(), fixesById: fixes, today: s.today,
                                                      dayOf: { LocalDay($0, calendar: s.calendar) })
            return (c, f, daily.flatMap { $0.completion.outcome == .pending ? $0.fix : nil })
        }
        guard case .timed(let config)? = try? fix.configuration() else {
            // The day's timed fix waits behind a crash's quick fix: said, where "FIX #106 is a
            // standard fix" left the person at a card that says `egofix timer` runs it.
            if let daily, daily.interactionType == .timed {
                throw CLIError("\(fix.label), the quick fix a crash queued, comes first: mark it (`egofix applied`, skipped or failed), "
                               + "then `egofix timer` runs \(daily.label)'s timer. Nothing to run yet.")
            }
            throw CLIError("\(fix.label) is \(FixCard.kind(fix.interactionType)) fix; it has no timer. Nothing to run.")
        }
        let total = seconds ?? config.durationSeconds
        var head = ["TIMER // \(fix.label) // \(TimerFace.clock(total))"]
        if let prompt = config.prompt { head += Text.wrap(prompt).map { s.style.dim($0) } }
        s.print(head)
        try StandardStreams.finish()

        // Nothing is held while the timer runs: no transaction, no lock.
        let started = ContinuousClock.now
        if let left = await Countdown.run(seconds: total, terminal: isatty(STDOUT_FILENO) == 1) {
            // Stopped on purpose: said where the countdown was, not as an error; 130 as for any Ctrl-C.
            s.print(["Stopped with \(TimerFace.clock(left)) left. Nothing recorded. `egofix timer` starts it again."])
            try StandardStreams.finish()
            Foundation.exit(130)
        }
        let elapsed = ContinuousClock.now - started
        let end = s.now.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        Swift.print("\u{7}" + ReminderCopy.timerComplete)
        try StandardStreams.finish()
        DesktopNotification.send(title: ReminderCopy.notificationTitle, body: ReminderCopy.timerComplete)

        do {
            try await s.store.transaction {
                // Still unmarked: marked (or taken back) elsewhere meanwhile, it is not recorded. A
                // daily fix whose countdown ran past midnight is recorded, and stays the one to mark
                // (after a quick fix) until the day the timer ended is over (`PendingFixRule`).
                let now = try await s.repos.completions.getById(completion.id)
                guard let now, now.deletedAt == nil, now.outcome == .pending else {
                    throw CLIError("\(fix.label) is no longer pending (marked elsewhere meanwhile); the timer is not recorded.")
                }
                let dayOf = { (t: Date) in LocalDay(t, calendar: s.calendar) }
                guard fix.type == .quickFix || now.givenDay(dayOf) >= dayOf(end).adding(days: -1) else {
                    throw CLIError("\(fix.label) is no longer pending: its day is over; the timer is not recorded.")
                }
                try await TimerService(repos: s.repos, calendar: s.calendar).recordCompleted(fix, at: end)
            }
        } catch StoreError.diskFull(let path, _) {
            // "Run the command again" would be the whole countdown again.
            throw CLIError("the disk holding store \(path) is full: the timer ran, and is not recorded. Free some space; then `egofix applied` "
                           + "(or skipped, failed) marks \(fix.label), without a second countdown.")
        }
        guard Prompt.interactive else {
            s.print(Text.fitted("// Timer recorded. `egofix applied` (or skipped, failed) marks \(fix.label) with the timer done.").map { s.style.dim($0) })
            return
        }
        // Asked after the store is let go: the answer may take a while. An answer that is none of
        // them is asked again; enter (or end of input) leaves the fix open.
        let marksLater = "`egofix applied` (or skipped, failed) marks it later."
        let leftOpen = "// Timer recorded. Left open: " + marksLater
        let interrupt = Prompt.onInterrupt(saying: "Stopped. The timer is recorded; \(fix.label) is left open: " + marksLater)
        defer { interrupt.cancel() }
        // Keys pressed during the countdown are not answers to a question not yet asked.
        Prompt.discardTypeahead()
        var outcome: FixOutcome?
        while outcome == nil {
            let answer = Prompt.ask("Applied, skipped or failed? [a/s/f, enter leaves it open]")
            if answer == nil { Swift.print("") }
            switch answer?.lowercased() {
            case "a", "applied": outcome = .applied
            case "s", "skipped": outcome = .skipped
            case "f", "failed": outcome = .failed
            case nil, "":
                s.print(Text.fitted(leftOpen).map { s.style.dim($0) })
                return
            default: Swift.print("  a, s or f, or enter to leave it open")
            }
        }
        guard let outcome else { return }
        // The outcome command's own options, parsed as its command line would be (options made
        // by hand cannot be read: the outcome and the reflection were lost to an internal error).
        var args = ["--timer-done"]
        if let store = options.store { args.append("--store=" + store) }
        if let now = options.now { args.append("--now=" + now) }
        // The end of input here is no reflection; the outcome is still recorded. A reflection that
        // cannot be stored as typed is asked for again (the timer is recorded already).
        var typed: String?
        while true {
            do {
                if case .text(let text?) = try Prompt.askText("Reflection (optional; enter for none):", what: "reflection",
                                                              longer: "`egofix \(outcome.rawValue) -e` takes a longer one.",
                                                              refused: "Type it again, or enter for none.") {
                    typed = text
                    args.append("--message=" + text)
                } else {
                    // None, asked and answered: not told afterwards how to add one.
                    args += ["--message", ""]
                }
                break
            } catch {
                Swift.print("  " + (EgoFix.userFacingMessage(error) ?? "\(error)"))
            }
        }
        interrupt.cancel()
        do {
            try await OutcomeCommand.run(outcome, try OutcomeOptions.parse(args))
        } catch {
            // A crash logged in another terminal while the question waited puts its quick fix
            // first: said so, not as a --timer-done nobody typed that "does not apply".
            var refusal = error
            if let next = try? await s.store.rolledBack({ try await OutcomeService(repos: s.repos, calendar: s.calendar).target(at: end) }),
               next.1.id != fix.id {
                let after = next.1.type == .quickFix ? " `egofix \(outcome.rawValue)` marks \(fix.label) once \(next.1.label) is marked." : ""
                refusal = CLIError("the fix to mark changed while the question waited: it is \(next.1.label) now, not \(fix.label). "
                                   + "The outcome is not recorded; the timer is." + after)
            }
            // Typed at the prompt, the reflection exists nowhere else: a refused outcome keeps it,
            // as a piped one is kept.
            guard let typed else { throw refusal }
            throw ReflectionInput.keeping(typed, what: "reflection", refusedBy: refusal)
        }
    }
}

/// The countdown itself: the bar on a terminal (redrawn in place with \r), a line a minute
/// otherwise; Ctrl-C ends it early.
enum Countdown {
    /// The bar's width that fits the terminal's line (a wider one wrapped, and each redraw added
    /// a line): `TimerFace.barWidth` at most, none on a terminal too narrow for a bar.
    static func barWidth(total: Int) -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return TimerFace.barWidth }
        let rest = "[] ".count + TimerFace.clock(total).count + " left".count + 1
        return max(0, min(TimerFace.barWidth, Int(size.ws_col) - rest))
    }

    /// Set by SIGINT, read by the countdown.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        func raise() { lock.lock(); raised = true; lock.unlock() }
        var isRaised: Bool { lock.lock(); defer { lock.unlock() }; return raised }
    }

    /// Runs `seconds`; nil when it ran out, else the seconds that were left when Ctrl-C stopped it.
    static func run(seconds total: Int, terminal: Bool) async -> Int? {
        let interrupted = Flag()
        let watch = InterruptWatch { interrupted.raise() }
        defer { watch.cancel() }
        let clock = ContinuousClock()
        let start = clock.now
        var shown = -1
        // Each frame as wide as the widest before it: "10:00" to "9:59" is a character shorter,
        // and the redraw left "9:59 leftt" for the whole of a ten-minute timer.
        var widest = 0
        while true {
            let left = total - Int((clock.now - start).components.seconds)
            if interrupted.isRaised {
                if terminal { Swift.print("") }
                return max(0, left)
            }
            if left != shown {
                shown = left
                if terminal {
                    let frame = TimerFace.bar(remaining: left, total: total, width: barWidth(total: total))
                    widest = max(widest, frame.count)
                    Swift.print("\r" + frame + String(repeating: " ", count: widest - frame.count), terminator: left <= 0 ? "\n" : "")
                } else if let line = TimerFace.plainLine(remaining: left, total: total) {
                    Swift.print(line)
                }
                fflush(nil)
            }
            if left <= 0 { return nil }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
