import Foundation
import XCTest

/// Issue 29's cases run as a new user would run them: the real binary, `--now` moving the clock,
/// TZ=Europe/Berlin.
final class LifetimeCommandTests: XCTestCase {
    func ok(_ cli: CLI, _ args: [String], _ now: String) throws -> String {
        let r = try cli.run(args, at: now)
        XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
        return r.out
    }

    func test_Status_freezeNotSpentWhenTheStreakBrokeAnyway() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-15T10:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-18T10:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-19T10:00:00+01:00")
        let status = try ok(cli, ["status"], "2026-03-19T12:00:00+01:00")
        XCTAssertTrue(status.contains("freeze this week: available"), status)
        XCTAssertTrue(status.contains("day 2 "), status)
        // Missing only Friday later: the freeze covers it.
        _ = try ok(cli, ["today"], "2026-03-21T10:00:00+01:00")
        let after = try ok(cli, ["status"], "2026-03-21T12:00:00+01:00")
        XCTAssertTrue(after.contains("day 3 "), after)
        XCTAssertTrue(after.contains("freeze this week: used"), after)
    }

    func test_Crash_secondCrashShowsItsOwnBugsQuickFix() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-15T10:00:00+01:00")
        let first = try ok(cli, ["crash", "need-to-be-right"], "2026-03-15T13:00:00+01:00")
        XCTAssertTrue(first.contains("quick fix"), first)
        _ = try ok(cli, ["bug", "activate", "need-to-impress"], "2026-03-15T13:01:00+01:00")
        let second = try ok(cli, ["crash", "need-to-impress"], "2026-03-15T14:00:00+01:00")
        // The first crash's quick fix still waits, so this one comes after it, and says so.
        XCTAssertFalse(second.contains("QUICK FIX // shown next"), second)
        let card = second.components(separatedBy: "QUICK FIX // after FIX #").last ?? ""
        XCTAssertTrue(card.contains("need to impress"), "the quick fix shown is need-to-impress's: \(second)")
        XCTAssertFalse(card.contains("need to be right"), second)
        // Another crash about the same bug queues nothing new: its quick fix is said to be
        // still waiting, not announced again as if queued.
        let third = try ok(cli, ["crash", "need-to-impress"], "2026-03-15T15:00:00+01:00")
        XCTAssertTrue(third.contains("QUICK FIX // still waiting"), third)
        let label = { (out: String) in out.components(separatedBy: "QUICK FIX // ").last?.split(separator: "\n").dropFirst(2).first.map(String.init) }
        XCTAssertEqual(label(third)?.prefix(8), label(second)?.prefix(8), third)
    }

    /// Two crashes about two bugs queue two quick fixes. `today` showed only the first, the
    /// outcome after it said "Today's fix is still open", and the next `skipped` marked the second
    /// quick fix, which no card had shown since the crash (helper 110). Every fix waiting is
    /// shown, and each outcome names what the next one marks.
    func test_Crash_aSecondQuickFixIsShownAndTheOutcomesNameWhatComesNext() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-02T09:00:00+01:00")
        _ = try ok(cli, ["bug", "activate", "need-to-impress"], "2026-03-02T09:01:00+01:00")
        let first = try ok(cli, ["crash", "need-to-be-right"], "2026-03-02T10:00:00+01:00")
        XCTAssertTrue(first.contains("QUICK FIX // shown next"), first)
        let second = try ok(cli, ["crash", "need-to-impress"], "2026-03-02T10:01:00+01:00")
        func label(_ out: String, after heading: String) -> String? {
            out.components(separatedBy: heading).dropFirst().first?.split(separator: "\n").first { $0.hasPrefix("FIX #") }.map { String($0.prefix(8)) }
        }
        let q1 = try XCTUnwrap(label(first, after: "QUICK FIX // shown next"))
        let q2 = try XCTUnwrap(label(second, after: "QUICK FIX // after \(q1)"), second)
        let today = try ok(cli, ["today"], "2026-03-02T10:03:00+01:00")
        XCTAssertEqual(label(today, after: "QUICK FIX // after the crash, first"), q1, today)
        XCTAssertEqual(label(today, after: "QUICK FIX // after the crash, second"), q2, today)
        let daily = try XCTUnwrap(label(today, after: "TODAY // 2026-03-02"), today)
        let flat = today.replacingOccurrences(of: "\n// ", with: " ")
        XCTAssertTrue(flat.contains("The outcome commands mark them in this order: \(q1), \(q2), then this one."), today)
        // The first outcome marks the first quick fix and names the two still to mark, in order.
        let one = try ok(cli, ["skipped"], "2026-03-02T10:04:00+01:00")
        XCTAssertTrue(one.contains("FIX SKIPPED  \(q1)"), one)
        XCTAssertTrue(one.replacingOccurrences(of: "\n// ", with: " ").contains("Still to mark, in this order: \(q2), a quick fix; then today's fix, \(daily). `egofix today` shows them."), one)
        let two = try ok(cli, ["skipped"], "2026-03-02T10:05:00+01:00")
        XCTAssertTrue(two.contains("FIX SKIPPED  \(q2)"), two)
        XCTAssertTrue(two.contains("Today's fix, \(daily), is still open"), two)
        let three = try ok(cli, ["applied"], "2026-03-02T10:06:00+01:00")
        XCTAssertTrue(three.contains("FIX APPLIED  \(daily)"), three)
        XCTAssertFalse(three.contains("Still to mark") || three.contains("still open"), three)
        // Today's marked, two more crashes: the first outcome names the one quick fix left.
        _ = try ok(cli, ["crash", "need-to-be-right"], "2026-03-02T11:00:00+01:00")
        let fourth = try ok(cli, ["crash", "need-to-impress"], "2026-03-02T11:01:00+01:00")
        let q4 = try XCTUnwrap(fourth.components(separatedBy: "QUICK FIX // after FIX #").last?.split(separator: "\n").first { $0.hasPrefix("FIX #") }.map { String($0.prefix(8)) }, fourth)
        let five = try ok(cli, ["skipped"], "2026-03-02T11:02:00+01:00")
        XCTAssertTrue(five.replacingOccurrences(of: "\n// ", with: " ").contains("Still to mark: \(q4), a quick fix. `egofix today` shows it."), five)
    }

    func test_Today_unmarkedQuickFixComesFirstAndTheDaysFixStillComes() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-15T10:00:00+01:00")
        _ = try ok(cli, ["crash"], "2026-03-15T13:00:00+01:00")
        let next = try ok(cli, ["today"], "2026-03-16T09:00:00+01:00")
        XCTAssertTrue(next.contains("QUICK FIX"), next)
        XCTAssertTrue(next.contains("TODAY // 2026-03-16"), "the day's fix is assigned and shown: \(next)")
        // The JSON holds both too: the quick fix first, the day's fix as `daily`.
        let json = try cli.json(["today"], at: "2026-03-16T09:01:00+01:00")
        XCTAssertEqual(json["quickFix"] as? Bool, true)
        let daily = try XCTUnwrap(json["daily"] as? [String: Any], "\(json)")
        let quick = try XCTUnwrap((json["fix"] as? [String: Any])?["number"] as? Int)
        XCTAssertNotEqual((daily["fix"] as? [String: Any])?["number"] as? Int, quick)
        XCTAssertEqual((daily["completion"] as? [String: Any])?["outcome"] as? String, "pending")
        let week = try ok(cli, ["today"], "2026-03-23T09:00:00+01:00")
        XCTAssertFalse(week.contains("QUICK FIX"), "the quick fix expired after 7 days: \(week)")
        let history = try ok(cli, ["history", "--days", "10"], "2026-03-23T09:05:00+01:00")
        XCTAssertTrue(history.contains("expired"), history)
    }

    func test_Today_andOutcomesMentionTheOpenDiagnostic() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-15T10:00:00+01:00")
        let sunday = try ok(cli, ["today"], "2026-03-22T19:00:00+01:00")
        XCTAssertTrue(sunday.contains("Weekly diagnostic open"), sunday)
        let marked = try ok(cli, ["applied"], "2026-03-22T19:05:00+01:00")
        XCTAssertTrue(marked.contains("Weekly diagnostic open"), marked)
        let weekday = try ok(cli, ["today"], "2026-03-18T09:00:00+01:00")
        XCTAssertFalse(weekday.contains("diagnostic"), weekday)
    }

    /// A week's diagnostic done in Berlin is still done the next morning in London, or after
    /// crossing the date line: the stored week is not read as the Sunday before it.
    func test_Diagnostic_doneOnceAWeekWhereverYouAre() throws {
        for (zone, monday) in [("Europe/London", "2026-03-09T09:00:00+00:00"), ("Pacific/Pago_Pago", "2026-03-09T09:00:00-11:00")] {
            let cli = try CLI()
            _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-02T08:00:00+01:00")
            _ = try ok(cli, ["diagnostic", "--rate", "need-to-be-right=present@work"], "2026-03-08T19:00:00+01:00")
            let status = try cli.run(["status"], at: monday, env: ["TZ": zone])
            XCTAssertEqual(status.status, 0, status.err)
            XCTAssertFalse(status.out.contains("Weekly diagnostic open"), "\(zone): \(status.out)")
            let again = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: monday, env: ["TZ": zone])
            XCTAssertNotEqual(again.status, 0, "\(zone): recorded twice")
            XCTAssertTrue(again.err.contains("already done. --redo takes it again, its ratings replaced; the next one opens the coming Sunday at 18:00."), again.err)
            // Skipping what is done says so, rather than that something was skipped.
            let skipped = try cli.run(["diagnostic", "--skip"], at: monday, env: ["TZ": zone])
            XCTAssertEqual(skipped.status, 0, skipped.err)
            XCTAssertTrue(skipped.out.contains("is already done. Nothing to skip."), skipped.out)
            let export = try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any]
            XCTAssertEqual((export?["diagnostics"] as? [Any])?.count, 1, zone)
        }
    }

    /// One word list for where it happened: `crash` and `diagnostic` both take "unsure" (and the
    /// stored "unknown"), and print "unsure".
    func test_Context_unsureIsOneWordForCrashAndDiagnostic() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-02T08:00:00+01:00")
        _ = try ok(cli, ["crash", "--context", "unsure"], "2026-03-03T12:00:00+01:00")
        _ = try ok(cli, ["crash", "--context", "Unknown"], "2026-03-04T12:00:00+01:00")
        let rated = try ok(cli, ["diagnostic", "--rate", "need-to-be-right=loud@unsure"], "2026-03-08T19:00:00+01:00")
        XCTAssertTrue(rated.contains("@unsure") && !rated.contains("@unknown"), rated)
        let bad = try cli.run(["crash", "--context", "office"], at: "2026-03-05T12:00:00+01:00")
        XCTAssertTrue(bad.err.contains("work, home, social, family, online, unsure."), bad.err)
    }

    /// A bug's few quick fixes come round again after as many crashes: not reruns (a rerun is a
    /// daily fix applied long ago coming back).
    func test_History_quickFixesComingRoundAreNotReruns() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-01T08:00:00+01:00")
        for d in 10...18 {
            _ = try ok(cli, ["crash"], "2026-03-\(d)T10:00:00+01:00")
            _ = try ok(cli, ["applied"], "2026-03-\(d)T10:05:00+01:00")
        }
        let history = try ok(cli, ["history", "--days", "10"], "2026-03-18T12:00:00+01:00")
        XCTAssertFalse(history.contains("rerun"), history)
    }

    /// One Tokyo morning, the fix opened and applied a minute apart and a crash logged, read in Los
    /// Angeles: all on the one day it was there (the opening was on the 14th and the outcome on
    /// the 13th, read in the reader's zone).
    func test_History_aMorningAwayStaysOneDay() throws {
        let cli = try CLI(zone: "Asia/Tokyo")
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-10T09:00:00+09:00")
        _ = try ok(cli, ["today"], "2026-03-14T08:00:00+09:00")
        _ = try ok(cli, ["applied"], "2026-03-14T08:01:00+09:00")
        _ = try ok(cli, ["crash", "--note", "at breakfast"], "2026-03-14T08:30:00+09:00")
        let la = try cli.run(["history", "--days", "5", "--json"], at: "2026-03-14T09:00:00-07:00", env: ["TZ": "America/Los_Angeles"])
        XCTAssertEqual(la.status, 0, la.err)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(la.out.utf8)) as? [String: Any])
        let days = try XCTUnwrap(doc["days"] as? [[String: Any]])
        func day(_ date: String) -> [String: Any] { days.first { $0["date"] as? String == date } ?? [:] }
        XCTAssertEqual((day("2026-03-14")["fixes"] as? [[String: Any]])?.first?["outcome"] as? String, "applied", "\(days)")
        XCTAssertEqual(day("2026-03-14")["crashes"] as? Int, 1, "\(days)")
        XCTAssertEqual((day("2026-03-13")["fixes"] as? [Any])?.count ?? 0, 0, "\(days)")
        XCTAssertEqual(day("2026-03-13")["crashes"] as? Int ?? 0, 0, "\(days)")
    }

    /// A reboot the day after its crash, on a day with nothing else: the history says so in words
    /// (it read ", rebootopened"), and the week page does not add "Nothing recorded." under it. `crash -m` takes the note, as `applied -m` takes the reflection.
    /// The per-bug totals under a --days window say they are all time.
    func test_History_aDayWithOnlyARebootReadsAsOne() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-09T09:00:00+01:00")
        _ = try ok(cli, ["crash", "-m", "Corrected a waiter."], "2026-03-10T09:00:00+01:00")
        _ = try ok(cli, ["applied"], "2026-03-10T09:05:00+01:00")
        _ = try ok(cli, ["reboot"], "2026-03-11T09:00:00+01:00")
        let history = try ok(cli, ["history", "--days", "7"], "2026-03-12T09:00:00+01:00")
        XCTAssertTrue(history.contains("2026-03-11  1 reboot\n"), history)
        XCTAssertTrue(history.contains("all time, by bug  applied  skipped  failed  rate\nNeed to be right "), history)
        XCTAssertTrue(try ok(cli, ["export", "-"], "2026-03-12T09:01:00+01:00").contains("Corrected a waiter."))
        // The week page shows the reboot, not "Nothing recorded." under it.
        let site = cli.workdir + "/site"
        _ = try ok(cli, ["build", "--out", site], "2026-03-12T09:02:00+01:00")
        let week = try String(contentsOfFile: site + "/weeks/2026-W11/index.html", encoding: .utf8)
        let day = week.components(separatedBy: "aria-label=\"2026-03-11\"").dropFirst().first?.components(separatedBy: "</section>").first ?? ""
        XCTAssertTrue(day.contains(">reboot<"), day)
        XCTAssertFalse(day.contains("day-empty"), day)
    }

    /// A fix given for the 13th in Tokyo and left unmarked, read after a flight to Los Angeles: the
    /// history and the week page list it on the 13th (they listed it on the 12th, and the 14th's
    /// opening on the 13th), and the week counts two days engaged, not three.
    func test_History_aFixGivenBeforeAFlightStaysOnItsDay() throws {
        let cli = try CLI(zone: "Asia/Tokyo")
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-06-13T09:00:00+09:00")
        _ = try ok(cli, ["today"], "2026-06-14T08:00:00+09:00")
        let la = ["TZ": "America/Los_Angeles"]
        XCTAssertEqual(try cli.run(["applied", "-m", "x"], at: "2026-06-14T10:05:00-07:00", env: la).status, 0)
        let history = try cli.run(["history", "--days", "5"], at: "2026-06-15T08:00:00-07:00", env: la)
        let days = history.out.split(separator: "\n").filter { $0.hasPrefix("2026-") }.map { String($0.prefix(10)) }
        XCTAssertEqual(days, ["2026-06-14", "2026-06-13"], history.out)
        XCTAssertTrue(history.out.contains("2026-06-13  FIX #"), history.out)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-06-15T08:00:00-07:00", env: la).status, 0)
        let week = try String(contentsOfFile: site + "/weeks/2026-W24/index.html", encoding: .utf8)
        func day(_ date: String) -> String {
            week.components(separatedBy: "aria-label=\"\(date)\"").dropFirst().first?.components(separatedBy: "</section>").first ?? ""
        }
        XCTAssertFalse(day("2026-06-12").contains("FIX #"), day("2026-06-12"))
        XCTAssertTrue(day("2026-06-13").contains("not marked"), day("2026-06-13"))
        XCTAssertTrue(day("2026-06-14").contains("applied"), day("2026-06-14"))
        XCTAssertTrue(week.contains("days engaged</span><span class=\"value\">2<"), week)
    }

    /// In a terminal, enter on one bug of the diagnostic skips that bug and keeps the answers given
    /// (it dropped them all: "Skipped. Nothing recorded"); Ctrl-D leaves with nothing recorded.
    /// A crash's Ctrl-D at "What resurfaced?" logs nothing (it logged one for the primary bug).
    func test_Prompts_skipOneBugKeepsTheOthersAndCtrlDCancels() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-09T09:00:00+01:00")
        _ = try ok(cli, ["bug", "activate", "need-to-impress"], "2026-03-09T09:01:00+01:00")
        let left = try cli.runInTerminal(["diagnostic"], at: "2026-03-15T19:00:00+01:00", input: "")
        XCTAssertTrue(left.out.contains("Left. Nothing recorded, nothing owed."), left.out)
        let r = try cli.runInTerminal(["diagnostic"], at: "2026-03-15T19:01:00+01:00", input: "1\n\n")
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains("// Recorded."), r.out)
        // What enter does is said with the choices, before it is needed (the copy audit).
        XCTAssertTrue(r.out.contains("  3  Loud\r\n  (1 to 3, or enter to skip this bug)\r\n"), r.out)
        // It says what it is before the first question (it opened on a tidbit, then a question).
        let head = try XCTUnwrap(r.out.range(of: "DIAGNOSTIC 2026-W11  // 2 bugs, 30 seconds. Enter skips one.\r\n"), r.out)
        XCTAssertLessThan(head.lowerBound, try XCTUnwrap(r.out.range(of: "This week, ")).lowerBound, r.out)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let diagnostics = try XCTUnwrap(doc["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual((diagnostics.first?["responses"] as? [[String: Any]])?.count, 1, "the bug answered is kept, the one skipped left out")
        let crash = try cli.runInTerminal(["crash"], at: "2026-03-16T10:00:00+01:00", input: "")
        XCTAssertTrue(crash.out.contains("Nothing logged."), crash.out)
        // The bugs in the spec's crash log order (the catalogue's), not by title.
        let listed = ["Need to be right", "Need to be liked", "Need to impress", "Need to be busy", "Fear of being ordinary"]
            .map { crash.out.range(of: $0)?.lowerBound }
        XCTAssertFalse(listed.contains(nil), crash.out)
        XCTAssertEqual(listed.compactMap { $0 }, listed.compactMap { $0 }.sorted(), crash.out)
        XCTAssertFalse(crash.out.contains("CRASH LOGGED"), crash.out)
        XCTAssertEqual(((try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])?["crashes"] as? [Any])?.count, 0)
    }

    /// The tidbit the diagnostic shows in the terminal is the one the week's page shows under
    /// "Why" (they were drawn with two different seeds), and next week's is another.
    func test_Diagnostic_theWeekPageShowsTheTidbitTheDiagnosticShowed() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-09T09:00:00+01:00")
        var shown: [String] = []
        for (sunday, week) in [("2026-03-15", "2026-W11"), ("2026-03-22", "2026-W12")] {
            let r = try cli.runInTerminal(["diagnostic"], at: "\(sunday)T19:00:00+01:00", input: "1\n")
            XCTAssertEqual(r.status, 0, r.out)
            _ = try ok(cli, ["build"], "\(sunday)T19:05:00+01:00")
            let page = try String(contentsOfFile: cli.workdir + "/site/weeks/\(week)/index.html", encoding: .utf8)
            let why = try XCTUnwrap(page.components(separatedBy: "<h2>Why</h2>\n<p class=\"comment\">").dropFirst().first?
                .components(separatedBy: "</p>").first, page)
            let words = why.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&").split(separator: " ").prefix(4).joined(separator: " ")
            let said = r.out.replacingOccurrences(of: "\r\n", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(said.contains(words), "the page's \"\(words)\" in the terminal: \(r.out)")
            shown.append(words)
        }
        XCTAssertNotEqual(shown[0], shown[1], "two weeks in a row, two tidbits")
    }

    /// `applied -e` in a terminal: the editor owns the terminal (started in a process group of
    /// its own, it was stopped at its first read and egofix waited for ever).
    func test_Prompts_anEditorInATerminalCanReadIt() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-09T09:00:00+01:00")
        let editor = cli.workdir + "/editor.sh"
        try "#!/bin/sh\nIFS= read -r line < /dev/tty\nprintf '%s' \"$line\" > \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(editor, 0o755), 0)
        let r = try cli.runInTerminal(["applied", "-e"], at: "2026-03-09T09:10:00+01:00", input: "Typed in the editor.\n", env: ["EDITOR": editor])
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains("FIX APPLIED"), r.out)
        XCTAssertTrue(String(decoding: try cli.export(), as: UTF8.self).contains("\"Typed in the editor.\""))
    }

    /// The crash note typed at the prompt: a paste of several lines is the note, whole (only the
    /// first line was kept, and the others ran as shell commands once egofix ended); text the
    /// terminal cut, text that is not UTF-8 and control characters are refused as with -m (they
    /// were stored, and the export no longer imported). Ctrl-D and Ctrl-C log nothing, and say so.
    func test_Prompts_aPastedNoteIsTakenWholeAndCheckedAsMIs() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-09T09:00:00+01:00")
        func crashes() throws -> [[String: Any]] {
            try XCTUnwrap((try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])?["crashes"] as? [[String: Any]])
        }
        let pasted = try cli.runInTerminal(["crash"], at: "2026-03-10T10:00:00+01:00", input: "\nfirst line\necho LEAKED\nthird line\n",
                                           then: "timeout --foreground 1 sed 's/^/LEFT:/'")
        XCTAssertTrue(pasted.out.contains("CRASH LOGGED"), pasted.out)
        XCTAssertFalse(pasted.out.contains("LEFT:"), "nothing typed is left for the shell: \(pasted.out)")
        XCTAssertEqual(try crashes().first?["note"] as? String, "first line\necho LEAKED\nthird line")
        // Refused, the note is asked for again (the bug kept); the end of input then logs nothing.
        for (input, says) in [("\nx\u{1B}[31mred\n", "control character U+001B"), ("\n" + String(repeating: "\u{FC}", count: 3000) + "\n", "4,095 bytes")] {
            let r = try cli.runInTerminal(["crash"], at: "2026-03-10T11:00:00+01:00", input: input)
            XCTAssertTrue(r.out.contains(says) && r.out.contains("Type it again, or enter for none."), r.out)
            XCTAssertTrue(r.out.contains("Nothing logged."), r.out)
            XCTAssertEqual(try crashes().count, 1, r.out)
        }
        // A paste whose last line has no line break: all of it.
        let pieces = try cli.runInTerminal(["crash"], at: "2026-03-10T11:30:00+01:00", input: "\nline one\nline two\nno break",
                                           then: "timeout --foreground 1 sed 's/^/LEFT:/'")
        XCTAssertFalse(pieces.out.contains("LEFT:"), pieces.out)
        XCTAssertEqual(try crashes().last?["note"] as? String, "line one\nline two\nno break")
        let ended = try cli.runInTerminal(["crash"], at: "2026-03-10T12:00:00+01:00", input: "\n\u{04}")
        XCTAssertTrue(ended.out.contains("Nothing logged."), ended.out)
        let interrupted = try cli.runInTerminal(["crash"], at: "2026-03-10T12:00:00+01:00", input: "\n", later: "\u{03}")
        XCTAssertEqual(interrupted.status, 130, interrupted.out)
        XCTAssertTrue(interrupted.out.contains("Nothing logged."), interrupted.out)
        // Ctrl-C at the menu, in a terminal set not to echo: it is left so (a question sets line
        // mode while it asks; Ctrl-C left that mode on). The shell around egofix ignores Ctrl-C,
        // to read the mode after it.
        let quiet = try cli.runInTerminal(["crash"], at: "2026-03-10T12:00:00+01:00", input: "", later: "\u{03}",
                                          before: "stty -echo; trap '' INT",
                                          then: "stty -a | tr ' ;' '\\n\\n' | grep -x -e -echo -e echo | sed 's/^/MODE:/'")
        XCTAssertTrue(quiet.out.contains("Nothing logged."), quiet.out)
        XCTAssertTrue(quiet.out.contains("MODE:-echo"), quiet.out)
        XCTAssertEqual(try crashes().count, 2)
    }

    /// init's menu, the first screen a person sees, keeps within the terminal's line at 80 and at
    /// 40 columns, each description wrapped at its words (three of the five ran past 80 columns
    /// and broke mid-word).
    func test_Prompts_initsMenuKeepsWithinTheTerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        for columns in [80, 40] {
            let cli = try CLI()
            let r = try cli.runInTerminal(["init"], at: "2026-03-09T08:59:00+01:00", input: "", before: "stty cols \(columns)")
            let lines = r.out.components(separatedBy: "\r\n")
            let menu = lines.drop { $0 != "Primary bug:" }.prefix { !$0.hasPrefix(">") }
            XCTAssertGreaterThan(menu.count, 5, r.out)
            for line in menu { XCTAssertLessThanOrEqual(line.count, columns, line) }
            // And the line above the menu (52 columns).
            for line in lines.prefix(while: { $0 != "Primary bug:" }) { XCTAssertLessThanOrEqual(line.count, columns, line) }
            XCTAssertTrue(menu.joined(separator: " ").contains("Adjusting your opinions"), r.out)
        }
    }

    /// On a 40-column terminal (a phone's SSH client) `status`, `history` and the diagnostic keep
    /// within it, and a command in backticks is never split: the history's totals ran to 47
    /// columns, the diagnostic's heading to 61, and "`egofix" ended one line of `status`.
    func test_Prompts_statusHistoryAndTheDiagnosticKeepWithinANarrowTerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try CLI(zone: "Europe/Berlin")
        XCTAssertEqual(try cli.run(["demo", "--years", "1"], at: "2026-11-22T19:00:00Z").status, 0)
        let monday = "2026-11-23T19:00:00+01:00"
        for args in [["status"], ["history"], ["bugs"], ["diagnostic"]] {
            // The diagnostic answered, a wrong answer first: its re-prompt and the week's summary too.
            let r = try cli.runInTerminal(args, at: monday, input: args == ["diagnostic"] ? "9\n1\n1\n1\n" : "\u{04}", before: "stty cols 40")
            let lines = r.out.components(separatedBy: "\r\n").filter { !$0.hasPrefix(">") }
            XCTAssertGreaterThan(lines.count, 8, r.out)
            if args == ["bugs"] { XCTAssertTrue(lines.contains("  active  primary"), r.out) }
            for line in lines {
                XCTAssertLessThanOrEqual(line.count, 40, line)
                XCTAssertEqual(line.filter { $0 == "`" }.count % 2, 0, "a command split: \(line)")
            }
            if args == ["history"] { XCTAssertTrue(lines.contains("  applied  skipped  failed  rate"), r.out) }
            if args == ["diagnostic"] {
                XCTAssertTrue(lines.contains("DIAGNOSTIC 2026-W47"), r.out)
                // (After "> ": the answers typed ahead were echoed before the questions.)
                XCTAssertTrue(r.out.contains("  a number from 1 to 3, or enter to skip\r\n  this bug\r\n"), r.out)
                XCTAssertTrue(lines.contains("WEEK 2026-W47"), r.out)
            }
        }
    }

    /// init's menu numbers the bugs as the crash log does (it listed them by title), and enter
    /// there asks again (it said "enter to skip", then ended with "no bug chosen").
    func test_Prompts_initNumbersTheBugsAsTheCrashLogDoes() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try CLI()
        let ended = try cli.runInTerminal(["init"], at: "2026-03-09T08:59:00+01:00", input: "")
        XCTAssertTrue(ended.out.contains("Nothing started."), ended.out)
        XCTAssertTrue(ended.out.contains("  (1 to 5, or Ctrl-D to leave)\r\n"), "the way out is said: \(ended.out)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.store), "no store made for it")
        let r = try cli.runInTerminal(["init"], at: "2026-03-09T09:00:00+01:00", input: "\n2\n")
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertFalse(r.out.contains("enter to skip"), r.out)
        XCTAssertTrue(r.out.contains("a number from 1 to 5\r\n"), r.out)
        XCTAssertTrue(r.out.contains("Primary bug: Need to be liked."), r.out)
        let crash = try cli.runInTerminal(["crash"], at: "2026-03-10T10:00:00+01:00", input: "")
        // "  1  Need to be right  // ..." in init's menu, "  1  Need to be right" in the crash log's.
        func numbered(_ out: String) -> [String] {
            out.components(separatedBy: "\r\n").compactMap { line -> String? in
                let parts = line.components(separatedBy: "  ")
                return parts.count >= 3 && parts[0].isEmpty && Int(parts[1]) != nil ? parts[2] : nil
            }
        }
        XCTAssertEqual(numbered(r.out).count, 5, r.out)
        XCTAssertEqual(numbered(r.out), numbered(crash.out), crash.out)
    }

    /// TZ as glibc also takes it, a zone file's path (TZ=:/etc/localtime is a common default), names that zone.
    func test_TimeZone_aZoneFilesPathInTZ() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-02T08:00:00+01:00")
        let tokyo = try cli.run(["today"], at: "2026-03-11T20:00:00Z", env: ["TZ": ":/usr/share/zoneinfo/Asia/Tokyo"])
        XCTAssertEqual(tokyo.status, 0, tokyo.err)
        XCTAssertTrue(tokyo.out.contains("TODAY // 2026-03-12"), tokyo.out)
        let system = try cli.run(["status"], at: "2026-03-11T20:00:00Z", env: ["TZ": ":/etc/localtime"])
        XCTAssertEqual(system.status, 0, system.err)
    }

    /// A practice begun on a Monday is not asked about the week before it began; its first
    /// diagnostic opens that Sunday evening.
    func test_Diagnostic_notAskedAboutTheWeekBeforeDayOne() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-09T09:00:00+01:00")
        XCTAssertFalse(try ok(cli, ["status"], "2026-03-09T09:05:00+01:00").contains("Weekly diagnostic open"))
        XCTAssertTrue(try ok(cli, ["status"], "2026-03-15T19:00:00+01:00").contains("Weekly diagnostic open"))
    }

    /// Begun on a Monday morning in Tokyo, which is still Sunday in Los Angeles: read there that
    /// Sunday evening, the practice began on Monday, where it began, as the site's pages have it.
    /// The diagnostic is not due for the week before (it asked about a week the site calls
    /// "before the practice began", and the summary compared it with nothing).
    func test_Diagnostic_theFirstDayIsTheDayThePracticeBeganWhereItBegan() throws {
        let cli = try CLI()
        let tokyo = ["TZ": "Asia/Tokyo"], la = ["TZ": "America/Los_Angeles"]
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-16T08:00:00+09:00", env: tokyo).status, 0)
        let status = try cli.run(["status"], at: "2026-03-15T19:00:00-07:00", env: la)
        XCTAssertEqual(status.status, 0, status.err)
        XCTAssertFalse(status.out.contains("Weekly diagnostic open"), status.out)
        let asked = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-15T19:05:00-07:00", env: la)
        XCTAssertNotEqual(asked.status, 0)
        XCTAssertTrue(asked.err.contains("no diagnostic for 2026-W11: the practice began after that week."), asked.err)
        // The week after is the practice's first: asked, and compared with nothing.
        let next = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-22T19:00:00-07:00", env: la)
        XCTAssertEqual(next.status, 0, next.err)
        XCTAssertTrue(next.out.contains("// The practice's first week: no week before it to compare."), next.out)
    }

    /// Flying west on the same calendar date: the fix given in Tokyo on the 14th is still the 14th's
    /// in Los Angeles, where it is still the 14th; it can be marked, and today shows it (it was
    /// yesterday's there, could not be marked, and a second fix came for the same date).
    func test_Today_theDaysFixStaysTheDaysAfterAFlight() throws {
        let cli = try CLI()
        let tokyo = ["TZ": "Asia/Tokyo"], la = ["TZ": "America/Los_Angeles"]
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-13T08:00:00+09:00", env: tokyo).status, 0)
        let given = try cli.run(["today"], at: "2026-03-14T08:00:00+09:00", env: tokyo)
        XCTAssertTrue(given.out.contains("TODAY // 2026-03-14"), given.out)
        let label = try XCTUnwrap(given.out.range(of: #"FIX #\d{3}"#, options: .regularExpression).map { String(given.out[$0]) })
        let there = try cli.run(["today"], at: "2026-03-14T20:00:00-07:00", env: la)
        XCTAssertTrue(there.out.contains("TODAY // 2026-03-14") && there.out.contains(label), there.out)
        let marked = try cli.run(["applied", "-m", "Let Tom finish."], at: "2026-03-14T20:01:00-07:00", env: la)
        XCTAssertEqual(marked.status, 0, marked.err)
        let doc = try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any]
        let daily = (doc?["completions"] as? [[String: Any]] ?? []).filter { $0["deletedAt"] == nil }
        XCTAssertEqual(daily.count, 2, "the 13th's and the 14th's, no second one for the 14th: \(daily)")
    }

    func test_Diagnostic_endsWithTheWeeklySummary() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-16T10:00:00+01:00")
        _ = try ok(cli, ["applied"], "2026-03-16T20:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-17T10:00:00+01:00")
        _ = try ok(cli, ["skipped"], "2026-03-17T20:00:00+01:00")
        _ = try ok(cli, ["crash"], "2026-03-18T13:00:00+01:00")
        let out = try ok(cli, ["diagnostic", "--rate", "need-to-be-right=present@work"], "2026-03-22T19:00:00+01:00")
        XCTAssertTrue(out.contains("WEEK 2026-W12   applied 1   skipped 1   failed 0   crashes 1"), out)
        XCTAssertTrue(out.contains("// The practice's first week: no week before it to compare."), out)
        _ = try ok(cli, ["today"], "2026-03-23T10:00:00+01:00")
        _ = try ok(cli, ["applied"], "2026-03-23T20:00:00+01:00")
        let next = try ok(cli, ["diagnostic", "--rate", "need-to-be-right=quiet"], "2026-03-29T19:00:00+02:00")
        XCTAssertTrue(next.contains("WEEK 2026-W13   applied 1   skipped 0 (1)   failed 0   crashes 0 (1)"), next)
    }

    func test_Export_showsTheStreakAsItStandsToday() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-15T10:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-16T10:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-17T10:00:00+01:00")
        let path = cli.workdir + "/later.json"
        _ = try ok(cli, ["export", path], "2026-04-01T10:00:00+02:00")
        let doc = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: path) ?? Data()) as? [String: Any]
        let user = (doc?["users"] as? [[String: Any]])?.first
        XCTAssertEqual(user?["currentStreak"] as? Int, 0, "not the 3 it was two weeks ago")
        XCTAssertEqual(user?["longestStreak"] as? Int, 3)
    }

    /// The 7th fix applied at 00:04 by a clock ten minutes fast makes v1.1; the clock corrected,
    /// the 8th is applied at 23:59 the day before. The changelog lists 7 under v1.0 and 1 toward
    /// v1.2, as status counts them, and history by version agrees (it listed 8 under v1.0, by
    /// the stamps, and nothing toward v1.2).
    func test_Changelog_aClockSetBackAfterABumpKeepsSevenFixesAVersion() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-02T09:00:00+01:00")
        for day in ["02", "03", "04", "05", "06", "07"] {
            _ = try ok(cli, ["today"], "2026-03-\(day)T09:00:00+01:00")
            _ = try ok(cli, ["applied"], "2026-03-\(day)T10:00:00+01:00")
        }
        _ = try ok(cli, ["today"], "2026-03-09T00:03:00+01:00")
        _ = try ok(cli, ["applied"], "2026-03-09T00:04:00+01:00")
        _ = try ok(cli, ["crash", "need-to-be-right", "-m", "Late."], "2026-03-08T23:58:00+01:00")
        _ = try ok(cli, ["applied"], "2026-03-08T23:59:00+01:00")
        XCTAssertTrue(try ok(cli, ["status"], "2026-03-09T09:00:00+01:00").contains("v1.1  // 6 more applied fixes"))
        let site = cli.workdir + "/site"
        _ = try ok(cli, ["build", "--out", site], "2026-03-09T09:00:00+01:00")
        let changelog = try String(contentsOfFile: site + "/changelog/index.html", encoding: .utf8)
        XCTAssertTrue(changelog.contains("applied under v1.0, making v1.1: 7 fixes"), changelog)
        XCTAssertTrue(changelog.contains("applied under v1.1, toward v1.2: 1 fix"), changelog)
        let history = try String(contentsOfFile: site + "/history/index.html", encoding: .utf8)
        let v10 = try XCTUnwrap(history.range(of: "v1.0")), v11 = try XCTUnwrap(history.range(of: "v1.1"))
        XCTAssertLessThan(v11.lowerBound, v10.lowerBound, "history by version lists v1.1, with its one applied fix, before v1.0")
    }

    /// A clock six minutes fast reads Saturday at 23:58 on Friday; corrected, Friday is counted
    /// after Saturday. The streak keeps every day the records count (Monday to Saturday, the
    /// week's freeze over Wednesday): day 5, as a sync replays it, not a break at Friday (day 1).
    func test_Streak_aDayCountedAfterALaterOneStillJoinsTheStreak() throws {
        let cli = try CLI()
        _ = try ok(cli, ["init", "--bug", "need-to-be-right"], "2026-03-02T09:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-03T09:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-05T09:00:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-07T00:04:00+01:00")
        _ = try ok(cli, ["today"], "2026-03-06T23:59:00+01:00")
        let status = try ok(cli, ["status"], "2026-03-07T09:00:00+01:00")
        XCTAssertTrue(status.contains("day 5 "), status)
        XCTAssertTrue(status.contains("longest: 5"), status)
        // A sync with no other machine replays the same days and agrees.
        try FileManager.default.createDirectory(atPath: cli.workdir + "/sync", withIntermediateDirectories: true)
        _ = try ok(cli, ["sync", cli.workdir + "/sync"], "2026-03-07T09:01:00+01:00")
        XCTAssertTrue(try ok(cli, ["status"], "2026-03-07T09:02:00+01:00").contains("day 5 "))
    }

    /// A crash logged twice, or by mistake, can be taken back the same day, before a reboot: it
    /// counted in the changelog, the crash counts and the patterns for good ("All 3 of your
    /// crashes happened on a Tuesday"). What it made goes with it (a quick fix still waiting);
    /// its note stays in the store, deleted. A reboot closes it, and a crash that regressed a
    /// stable bug stays.
    func test_Crash_todaysLastCrashCanBeTakenBack() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "-m", "real"], at: "2026-03-02T09:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-02T09:30:00Z").status, 0, "the quick fix, done")
        let twice = try cli.run(["crash", "-m", "the same one again"], at: "2026-03-02T10:12:00Z")
        XCTAssertTrue(twice.out.contains("QUICK FIX // shown next"), twice.out)
        let undo = try cli.run(["crash", "--undo"], at: "2026-03-02T10:13:00Z")
        XCTAssertEqual(undo.status, 0, undo.err)
        XCTAssertTrue(undo.out.hasPrefix("CRASH TAKEN BACK  need to be right"), undo.out)
        XCTAssertTrue(undo.out.replacingOccurrences(of: "\n", with: " ").contains("The crash logged at 10:12 is gone from the changelog, the counts and the patterns. So is the quick fix it queued, FIX #"), undo.out)
        let status = try cli.run(["status"], at: "2026-03-02T10:14:00Z").out
        XCTAssertTrue(status.contains("1 open crash"), status)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-03-02T10:15:00Z").status, 0)
        let changelog = try String(contentsOfFile: site + "/changelog/index.html", encoding: .utf8)
        XCTAssertEqual(changelog.components(separatedBy: "<span class=\"outcome crash\">crash</span>").count - 1, 1, changelog)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let crashes = (doc["crashes"] as? [[String: Any]]) ?? []
        XCTAssertEqual(crashes.filter { $0["deletedAt"] == nil }.compactMap { $0["note"] as? String }, ["real"])
        XCTAssertEqual(crashes.filter { $0["deletedAt"] != nil }.compactMap { $0["note"] as? String }, ["the same one again"], "the note is kept")
        let queued = ((doc["completions"] as? [[String: Any]]) ?? []).filter { ($0["assignedAt"] as? String)?.hasPrefix("2026-03-02T10:12") == true }
        XCTAssertEqual(queued.count, 1, "\(queued)")
        XCTAssertNotNil(queued.first?["deletedAt"], "the quick fix it queued goes with it")
        XCTAssertTrue(try cli.run(["check"], at: "2026-03-02T10:16:00Z").out.contains("export: imports again"))
        // The earlier crash is done: the quick fix it queued was marked. Then a reboot closes it.
        XCTAssertEqual(try cli.run(["reboot"], at: "2026-03-02T11:00:00Z").status, 0)
        let closed = try cli.run(["crash", "--undo"], at: "2026-03-02T11:01:00Z")
        XCTAssertTrue(closed.err.contains("closed by the reboot at 11:00"), closed.err)
        let tomorrow = try cli.run(["crash", "--undo"], at: "2026-03-03T08:00:00Z")
        XCTAssertTrue(tomorrow.err.contains("no crash logged today to take back (the last was on 2026-03-02"), tomorrow.err)
        XCTAssertEqual(try cli.run(["crash", "--undo", "need-to-be-right"], at: "2026-03-03T08:00:00Z").status, 64)
    }

    /// Two crashes logged at one instant (a pinned clock): taking one back removes its own
    /// changelog line, event and quick fix, and leaves the other's (both quick fixes went, and
    /// the changelog lost both lines).
    func test_Crash_takingBackOneOfTwoAtOneInstantLeavesTheOther() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["bug", "activate", "need-to-impress"], at: "2026-03-02T08:01:00Z").status, 0)
        for bug in ["need-to-be-right", "need-to-impress"] {
            XCTAssertEqual(try cli.run(["crash", bug], at: "2026-03-02T09:00:00Z").status, 0)
        }
        let undo = try cli.run(["crash", "--undo"], at: "2026-03-02T09:05:00Z")
        XCTAssertEqual(undo.status, 0, undo.err)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let bugs = Dictionary(uniqueKeysWithValues: ((doc["bugs"] as? [[String: Any]]) ?? []).compactMap { b in (b["id"] as? String).map { ($0, b["slug"] as? String ?? "") } })
        let fixes = Dictionary(uniqueKeysWithValues: ((doc["fixes"] as? [[String: Any]]) ?? []).compactMap { f in (f["id"] as? String).map { ($0, f) } })
        let crashes = (doc["crashes"] as? [[String: Any]]) ?? []
        let taken = try XCTUnwrap(crashes.first { $0["deletedAt"] != nil }, "\(crashes)")
        let kept = try XCTUnwrap(crashes.first { $0["deletedAt"] == nil }, "\(crashes)")
        let takenBug = try XCTUnwrap(bugs[taken["bugId"] as? String ?? ""]), keptBug = try XCTUnwrap(bugs[kept["bugId"] as? String ?? ""])
        XCTAssertNotEqual(takenBug, keptBug)
        XCTAssertTrue(undo.out.hasPrefix("CRASH TAKEN BACK  " + takenBug.replacingOccurrences(of: "-", with: " ")), undo.out)
        // One quick fix left, for the crash that stays.
        let quick = ((doc["completions"] as? [[String: Any]]) ?? []).filter { c in
            (fixes[c["fixId"] as? String ?? ""]?["type"] as? String) == "quickFix"
        }
        let live = quick.filter { $0["deletedAt"] == nil }
        XCTAssertEqual(live.count, 1, "\(quick)")
        XCTAssertEqual(live.first.flatMap { fixes[$0["fixId"] as? String ?? ""]?["bugId"] as? String }.flatMap { bugs[$0] }, keptBug)
        let changelog = ((doc["versions"] as? [[String: Any]]) ?? []).filter { $0["changeType"] as? String == "crash" && $0["deletedAt"] == nil }
        XCTAssertEqual(changelog.compactMap { $0["description"] as? String }, ["Crash: " + keptBug.replacingOccurrences(of: "-", with: " ") + "."])
        XCTAssertTrue(try cli.run(["status"], at: "2026-03-02T09:06:00Z").out.contains("1 open crash"))
    }

    /// The primary bug picked at `init` can be changed: it was the crash default and first in the
    /// day's turn for good. A bug not active is activated; the earlier primary stays active.
    func test_Bug_thePrimaryBugCanBeChanged() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-liked"], at: "2026-03-02T08:00:00Z").status, 0)
        let r = try cli.run(["bug", "primary", "need-to-be-right"], at: "2026-03-02T08:01:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Need to be right is your primary bug (was Need to be liked)."), r.out)
        XCTAssertTrue(r.out.contains("// Activated"), r.out)
        let status = try cli.run(["status"], at: "2026-03-02T08:02:00Z").out
        XCTAssertTrue(status.contains("Need to be right         active    primary") && status.contains("Need to be liked         active"), status)
        XCTAssertTrue(try cli.run(["crash", "-m", "x"], at: "2026-03-02T08:03:00Z").out.hasPrefix("CRASH LOGGED  need to be right"))
        let again = try cli.run(["bug", "primary", "need-to-be-right"], at: "2026-03-02T08:04:00Z")
        XCTAssertTrue(again.out.contains("already your primary bug. Nothing was changed."), again.out)
        XCTAssertNotEqual(try cli.run(["bug", "primary", "nope"], at: "2026-03-02T08:05:00Z").status, 0)
        // Deactivated, it is still the crash default: said, with the way to name another.
        let off = try cli.run(["bug", "deactivate", "need-to-be-right"], at: "2026-03-02T08:06:00Z")
        XCTAssertTrue(off.out.contains("It is still your primary bug") && off.out.contains("`egofix bug primary SLUG`"), off.out)
        let on = try cli.run(["bug", "primary", "need-to-be-right"], at: "2026-03-02T08:07:00Z")
        XCTAssertTrue(on.out.contains("// Activated again: its severity restarts at low."), on.out)
    }

    /// A crash taken back leaves its day counted for the streak where a sync replays it from the
    /// records: the crash's event was that day's only record, and the sync reset the streak.
    func test_Crash_anUndoneCrashKeepsItsDayForTheStreak() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        func day(_ d: Int) throws {
            let at = String(format: "2026-03-%02dT", d)
            XCTAssertEqual(try cli.run(["today"], at: at + "09:00:00Z").status, 0)
            XCTAssertEqual(try cli.mark("applied", at: at + "19:00:00Z").status, 0)
        }
        try day(2)
        try day(4)  // 03-03 missed: the week's freeze
        XCTAssertEqual(try cli.run(["crash", "-m", "not really"], at: "2026-03-05T10:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "--undo"], at: "2026-03-05T10:05:00Z").status, 0)
        try day(6)
        try day(7)
        let before = try cli.json(["status"], at: "2026-03-07T20:00:00Z")["streak"] as? Int
        XCTAssertEqual(before, 5, "03-02, then 03-04 to 03-07 (03-03 frozen)")
        XCTAssertEqual(try cli.run(["sync", cli.workdir + "/shared"], at: "2026-03-07T20:10:00Z").status, 0)
        XCTAssertEqual(try cli.json(["status"], at: "2026-03-07T20:11:00Z")["streak"] as? Int, before, "the sync's replay keeps 03-05")
    }

    /// A crash about a deactivated stable bug regresses it, and says it stays deactivated: "Back to
    /// active" read as taken up again, while `bugs` and `status` said deactivated.
    func test_Lifecycle_aDeactivatedBugsRegressionSaysItStaysDeactivated() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        for d in ["08", "15", "22", "29"] {
            XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-\(d)T19:00:00Z").status, 0)
        }
        XCTAssertEqual(try cli.run(["bug", "deactivate", "need-to-be-right"], at: "2026-03-31T09:01:00Z").status, 0)
        let r = try cli.run(["crash", "need-to-be-right", "-m", "x"], at: "2026-03-31T09:02:00Z")
        XCTAssertTrue(r.out.contains("Need to be right: regression, crash logged. It stays deactivated: `egofix bug activate need-to-be-right` takes it up again."), r.out)
        XCTAssertFalse(r.out.contains("Back to active"), r.out)
        XCTAssertTrue(try cli.run(["bugs"], at: "2026-03-31T09:03:00Z").out.contains("need-to-be-right     deactivated"))
    }

    /// A crash or a loud week about a bug `status` shows as stable sends it back to active, and the
    /// command says so. Both said nothing ("Logged. The version number stays where it is."), and
    /// when no `today` had saved the stable state, the bug page showed no regression either.
    func test_Lifecycle_aCrashOrALoudWeekThatSendsAStableBugBackSaysSo() throws {
        for how in ["crash", "diagnostic"] {
            let cli = try CLI(zone: "UTC")
            XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
            for d in ["08", "15", "22", "29"] {
                XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-\(d)T19:00:00Z").status, 0)
            }
            XCTAssertTrue(try cli.run(["status"], at: "2026-04-01T09:00:00Z").out.contains("Need to be right         stable"))
            let r = how == "crash" ? try cli.run(["crash", "need-to-be-right", "-m", "x"], at: "2026-04-01T10:00:00Z")
                : try cli.run(["diagnostic", "--rate", "need-to-be-right=loud"], at: "2026-04-05T19:00:00Z")
            XCTAssertEqual(r.status, 0, r.err)
            let why = how == "crash" ? "crash logged" : "rated loud in the weekly diagnostic"
            XCTAssertTrue(r.out.contains("Need to be right: regression, \(why). Back to active."), "\(how): \(r.out)")
            if how == "crash" {
                // That crash stays: the stable dates went with the regression.
                let undo = try cli.run(["crash", "--undo"], at: "2026-04-01T10:01:00Z")
                XCTAssertTrue(undo.err.contains("sent Need to be right back to active, and the bug's stable dates went with it. The crash stays."), undo.err)
            }
            XCTAssertTrue(try cli.run(["status"], at: "2026-04-05T19:05:00Z").out.contains("Need to be right         active"))
            let site = cli.workdir + "/site"
            XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-04-05T19:05:00Z").status, 0)
            let page = try String(contentsOfFile: site + "/bugs/need-to-be-right/index.html", encoding: .utf8)
            XCTAssertTrue(page.contains("Back to active 2026-04-0\(how == "crash" ? 1 : 5), a regression"), "\(how): \(page)")
            // A quiet week says nothing of the kind.
            let quiet = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-04-12T19:00:00Z")
            XCTAssertFalse(quiet.out.contains("regression"), quiet.out)
        }
    }
}

/// Issue 31 (copy): a rest day says which of its two reasons it is.
final class RestDayCommandTests: XCTestCase {
    func test_today_aRestDayWithNoActiveBugSaysSo() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let off = try cli.run(["bug", "deactivate", "need-to-impress"], at: "2026-03-02T20:00:00+01:00")
        XCTAssertEqual(off.status, 0, off.err)
        // The last active bug: what follows is said where it happened.
        XCTAssertTrue(off.out.replacingOccurrences(of: "\n// ", with: " ").contains("No bug is active now, so no fix comes until one is: `egofix bug activate SLUG`."), off.out)
        let today = try cli.run(["today"], at: "2026-03-03T09:00:00+01:00")
        XCTAssertEqual(today.status, 0, today.err)
        XCTAssertTrue(today.out.contains("REST DAY"), today.out)
        XCTAssertTrue(today.out.contains("No fix today: no bug is active.\n`egofix bug activate SLUG` starts one."), today.out)
        let marked = try cli.run(["applied"], at: "2026-03-03T19:00:00+01:00")
        XCTAssertNotEqual(marked.status, 0)
        // (The fix `init` gave yesterday was left unmarked: the refusal says it closed.)
        XCTAssertTrue(marked.err.contains("no pending fix to mark: yesterday's, FIX #") && marked.err.contains("`egofix today` gives today's, if the day has one."), marked.err)
        // Status and the diagnostic say so too (the diagnostic asked for --rate for each of no bugs).
        let status = try cli.run(["status"], at: "2026-03-03T19:01:00+01:00").out
        XCTAssertTrue(status.contains("  None. `egofix bug activate SLUG` starts one."), status)
        // In `today`'s words: "`egofix today` shows today's" sent the user to a command with none.
        XCTAssertTrue(status.contains("\nREST DAY  No fix today: no bug is active.\n"), status)
        XCTAssertFalse(status.contains("No pending fix") || status.contains("shows today's"), status)
        XCTAssertEqual(status.components(separatedBy: "egofix bug activate SLUG").count, 2, "the hint once: \(status)")
        let diagnostic = try cli.run(["diagnostic"], at: "2026-03-08T19:00:00+01:00")
        XCTAssertEqual(diagnostic.status, 0, diagnostic.err)
        XCTAssertTrue(diagnostic.out.hasPrefix("No active bugs to rate. Nothing recorded."), diagnostic.out)
        // Gone by, the day is still called a rest day (the week page said "Opened. Nothing
        // marked.", as if a fix had been left undone), and `history` says no fix was given.
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-09T09:00:00+01:00").status, 0)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W10/index.html", encoding: .utf8)
        let tuesday = try XCTUnwrap(week.range(of: "2026-03-03").map { String(week[$0.lowerBound...].prefix(600)) }, week)
        XCTAssertTrue(tuesday.contains("Rest day. No fix given."), tuesday)
        XCTAssertFalse(week.contains("Nothing marked"), week)
        let history = try cli.run(["history"], at: "2026-03-09T09:00:00+01:00").out
        XCTAssertTrue(history.contains("2026-03-03  opened, no fix given\n"), history)
    }

    /// A deactivated bug's page says so as `egofix bugs` does: it read "Status: active, not
    /// active. Active since 2026-03-02." (the copy audit).
    func test_site_aDeactivatedBugsPageSaysDeactivated() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["bug", "deactivate", "need-to-impress"], at: "2026-03-02T20:00:00+01:00").status, 0)
        XCTAssertTrue(try cli.run(["bugs"], at: "2026-03-03T09:00:00+01:00").out.contains("deactivated"))
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-03T09:00:00+01:00").status, 0)
        let page = try String(contentsOfFile: cli.workdir + "/site/bugs/need-to-impress/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("Status: deactivated. First active 2026-03-02."), page)
        XCTAssertFalse(page.contains("not active") || page.contains("Active since"), page)
    }
}

/// The copy audit: `status` on a rest day says what `today` says, not "`egofix today` shows today's".
final class RestDayStatusTests: XCTestCase {
    /// A catalogue whose one daily fix is applied: the next day is a rest day with the bug still
    /// in its active period.
    func test_status_aRestDayAfterEveryFixHadItsTurnSaysSo() throws {
        let cli = try CLI()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Seeds/fixes.json"))
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let bugs = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("Seeds/bugs.json"))) as? [[String: Any]])
        let right = try XCTUnwrap(bugs.first { $0["slug"] as? String == "need-to-be-right" }?["id"] as? String)
        let daily = try XCTUnwrap(all.first { $0["bugId"] as? String == right && $0["type"] as? String == "daily"
                                             && $0["interactionType"] as? String == "standard" && $0["severity"] as? String == "low"
                                             && $0["retired"] as? Bool != true })
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Seeds", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: [daily] + all.filter { $0["type"] as? String == "quickFix" })
            .write(to: URL(fileURLWithPath: cli.workdir + "/Seeds/fixes.json"))
        let started = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00")
        XCTAssertEqual(started.status, 0, started.err)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-02T19:00:00+01:00", stdin: "").status, 0)
        // A day with its fix marked is no rest day, and says which fix was marked and how (it
        // said "`egofix today` shows today's", as if something were left to do).
        let marked = try cli.run(["status"], at: "2026-03-02T20:00:00+01:00")
        XCTAssertTrue(marked.out.contains("No pending fix. Today's, FIX #"), marked.out)
        XCTAssertTrue(marked.out.contains(", is marked applied."), marked.out)
        XCTAssertFalse(marked.out.contains("REST DAY"), marked.out)
        XCTAssertEqual(try cli.json(["status"], at: "2026-03-02T20:00:00+01:00")["restDay"] as? Bool, false)
        // Before `today` is run, and after.
        for at in ["2026-03-03T07:00:00+01:00", "2026-03-03T19:00:00+01:00"] {
            let status = try cli.run(["status"], at: at)
            XCTAssertEqual(status.status, 0, status.err)
            XCTAssertTrue(status.out.contains("\nREST DAY  No fix today. Every fix that fits has had its turn lately.\n"), status.out)
            XCTAssertFalse(status.out.contains("shows today's"), status.out)
            let json = try cli.json(["status"], at: at)
            XCTAssertEqual(json["restDay"] as? Bool, true)
            XCTAssertEqual(json["restDayReason"] as? String, "everyFixHadItsTurn")
            if at.hasSuffix("T07:00:00+01:00") {
                let today = try cli.run(["today"], at: "2026-03-03T09:00:00+01:00")
                XCTAssertTrue(today.out.hasPrefix("REST DAY\n\nNo fix today. Every fix that fits has had its turn lately."), today.out)
            }
        }
        // The dashboard's Pending says it in the same words.
        let build = try cli.run(["build"], at: "2026-03-03T19:30:00+01:00")
        XCTAssertEqual(build.status, 0, build.err)
        let html = try String(contentsOfFile: cli.workdir + "/site/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<p class=\"muted\">Rest day. No fix today. Every fix that fits has had its turn lately.</p>"), html)
        XCTAssertFalse(html.contains("No pending fix."), html)
    }
}

/// Issue 31 (lifetime): history after a flight west over the date line.
final class DateLineHistoryTests: XCTestCase {
    /// Kiritimati (UTC+14) at 00:45 on Friday, then Pago Pago (UTC−11) at noon on the same Friday,
    /// 25 hours later: the day's fix is the one given in Kiritimati, not a second one.
    func test_Today_theDaysFixIsFoundAcrossTheWidestGapBetweenZones() throws {
        let cli = try CLI(zone: "Pacific/Pago_Pago")
        let pago = ["TZ": "Pacific/Pago_Pago"], kiritimati = ["TZ": "Pacific/Kiritimati"]
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2025-10-08T20:00:00Z", env: pago).status, 0)
        let first = try cli.run(["today", "--json"], at: "2025-10-09T10:45:00Z", env: kiritimati)
        let again = try cli.run(["today", "--json"], at: "2025-10-10T23:00:00Z", env: pago)
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(again.status, 0, again.err)
        func fix(_ out: String) throws -> Int? {
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
            return (json["fix"] as? [String: Any])?["number"] as? Int
        }
        XCTAssertNotNil(try fix(first.out))
        XCTAssertEqual(try fix(again.out), try fix(first.out), again.out)
        let history = try cli.run(["history", "--days", "3", "--json"], at: "2025-10-10T23:05:00Z", env: pago)
        let days = (try JSONSerialization.jsonObject(with: Data(history.out.utf8)) as? [String: Any])?["days"] as? [[String: Any]] ?? []
        let friday = days.first { $0["date"] as? String == "2025-10-10" }
        XCTAssertEqual((friday?["fixes"] as? [[String: Any]])?.count, 1, "one fix given for the Friday: \(days)")
    }

    /// Los Angeles on Wednesday evening, Tokyo on Friday morning, 19 hours later: the Thursday the
    /// calendar skipped is not a missed day. The freeze stays this week's, in `status`, after a
    /// sync (which replays the streak from the records) and on the site's dashboard. A day that
    /// did pass whole still counts: back in Los Angeles, a Saturday missed takes the freeze.
    func test_Streak_aDayTheDateLineSkippedIsNotMissed() throws {
        let cli = try CLI(zone: "America/Los_Angeles")
        let la = ["TZ": "America/Los_Angeles"], tokyo = ["TZ": "Asia/Tokyo"]
        func run(_ args: [String], _ at: String, _ env: [String: String]) throws -> String {
            let r = try cli.run(args, at: at, env: env)
            XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
            return r.out
        }
        _ = try run(["init", "--bug", "need-to-be-right"], "2026-11-16T09:00:00-08:00", la)   // Monday
        _ = try run(["applied"], "2026-11-16T09:05:00-08:00", la)
        _ = try run(["today"], "2026-11-17T20:00:00-08:00", la)
        _ = try run(["applied"], "2026-11-17T20:05:00-08:00", la)
        _ = try run(["today"], "2026-11-18T20:00:00-08:00", la)                               // Wednesday
        _ = try run(["applied"], "2026-11-18T20:05:00-08:00", la)
        // Friday 08:00 in Tokyo is Thursday 15:00 in Los Angeles.
        let friday = try run(["status"], "2026-11-20T08:00:00+09:00", tokyo)
        XCTAssertTrue(friday.contains("day 3 "), friday)
        XCTAssertTrue(friday.contains("freeze this week: available"), friday)
        _ = try run(["today"], "2026-11-20T08:10:00+09:00", tokyo)
        _ = try run(["applied"], "2026-11-20T08:15:00+09:00", tokyo)
        let after = try run(["status"], "2026-11-20T09:00:00+09:00", tokyo)
        XCTAssertTrue(after.contains("day 4 "), after)
        XCTAssertTrue(after.contains("freeze this week: available"), after)
        // A sync replays the streak from the records: the same.
        _ = try run(["sync", cli.workdir + "/shared"], "2026-11-20T09:05:00+09:00", tokyo)
        let synced = try run(["status"], "2026-11-20T09:10:00+09:00", tokyo)
        XCTAssertTrue(synced.contains("day 4 "), synced)
        XCTAssertTrue(synced.contains("freeze this week: available"), synced)
        let site = cli.workdir + "/site"
        _ = try run(["build", "--out", site], "2026-11-20T09:15:00+09:00", tokyo)
        let dashboard = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertTrue(dashboard.contains("day 4 "), "the dashboard's streak")
        // Back in Los Angeles on Friday evening, still Friday there. Saturday passes whole without
        // the tool: the week's freeze covers it, as it could not had Thursday taken it.
        _ = try run(["today"], "2026-11-20T19:00:00-08:00", la)
        let sunday = try run(["status"], "2026-11-22T10:00:00-08:00", la)
        XCTAssertTrue(sunday.contains("day 4 "), sunday)
        _ = try run(["today"], "2026-11-22T10:05:00-08:00", la)
        let covered = try run(["status"], "2026-11-22T10:10:00-08:00", la)
        XCTAssertTrue(covered.contains("day 5 "), covered)
        // Monday passes whole too: the new week's freeze covers it.
        let tuesday = try run(["status"], "2026-11-24T10:00:00-08:00", la)
        XCTAssertTrue(tuesday.contains("day 5 "), tuesday)
        XCTAssertTrue(tuesday.contains("freeze this week: used"), tuesday)
    }

    /// A Sunday in Auckland, read the same hour in Honolulu, where it is still Saturday: the
    /// Sunday's fix and crash stay in history's days, as status and the site count them.
    func test_History_aDayAheadOverTheDateLineIsListed() throws {
        let cli = try CLI(zone: "Pacific/Auckland")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2027-08-06T20:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2027-08-06T20:05:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2027-08-07T14:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2027-08-07T14:01:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash"], at: "2027-08-07T14:02:00Z").status, 0)
        let r = try cli.run(["history", "--days", "3", "--json"], at: "2027-08-07T23:00:00Z", env: ["TZ": "Pacific/Honolulu"])
        XCTAssertEqual(r.status, 0, r.err)
        let history = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let days = (history["days"] as? [[String: Any]]) ?? []
        let applied = days.compactMap { $0["applied"] as? Int }.reduce(0, +)
        let crashes = days.compactMap { $0["crashes"] as? Int }.reduce(0, +)
        XCTAssertEqual(applied, 2, "\(days)")
        XCTAssertEqual(crashes, 1, "\(days)")
        XCTAssertEqual(history["to"] as? String, "2027-08-08")
        let text = try cli.run(["history", "--days", "3"], at: "2027-08-07T23:00:00Z", env: ["TZ": "Pacific/Honolulu"])
        // From the practice's first day, not three days back: 08-07, the day it began in Auckland,
        // as the site's "since" has it (08-06 was Honolulu's date of that instant).
        XCTAssertTrue(text.out.hasPrefix("HISTORY  2027-08-07 to 2027-08-08"), text.out)
    }

    /// A record from a clock years ahead does not stretch history to it: two days past today at
    /// most, the widest gap between two zones' dates. Nor does history reach back before the
    /// practice's first day (a practice begun that Monday showed the Friday before it).
    func test_History_aRecordYearsAheadDoesNotStretchIt() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "-m", "clock glitch"], at: "2099-12-31T09:00:00Z").status, 0)
        let r = try cli.run(["history", "--days", "7"], at: "2026-03-05T09:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("HISTORY  2026-03-02 to 2026-03-05"), r.out)
        XCTAssertLessThan(r.out.split(separator: "\n").map(\.count).max() ?? 0, 200, r.out)
    }

    /// A day whose only entry is the diagnostic is an "o" in the strip, which the legend called
    /// "opened"; it is a day with no outcome, as the site's graph says.
    func test_History_aDiagnosticOnlyDayIsADayWithNoOutcome() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-08T19:00:00Z").status, 0)
        let r = try cli.run(["history", "--days", "7"], at: "2026-03-09T09:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first { $0.hasPrefix("Sun ") }?.hasPrefix("Sun o"), true, r.out)
        XCTAssertTrue(lines.contains("A applied  s skipped  F failed  X crash  o no outcome  . nothing"), r.out)
        XCTAssertTrue(lines.contains("2026-03-08  weekly diagnostic"), r.out)
    }

    /// The same record on the site: the week pages stop at this week, not at 2099 (it made 3,853
    /// of them), and the build says the record waits for its day.
    func test_build_aRecordYearsAheadWaitsForItsDay() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "-m", "clock glitch"], at: "2099-12-31T09:00:00Z").status, 0)
        let site = cli.workdir + "/site"
        let r = try cli.run(["build", "--out", site], at: "2026-03-05T09:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        let weeks = try FileManager.default.contentsOfDirectory(atPath: site + "/weeks").filter { $0.hasPrefix("20") }.sorted()
        XCTAssertEqual(weeks, ["2026-W10"])
        XCTAssertTrue(r.err.contains("egofix: warning: records on 1 day after 2026-03-05 (the latest 2099-12-31) are not on the site"), r.err)
        // Nor anywhere else: the changelog, the feed, the history and the rollups' counts.
        for page in ["changelog/index.html", "changelog/feed.xml", "history/index.html", "index.html", "months/2026-03/index.html", "years/2026/index.html"] {
            let text = try String(contentsOfFile: site + "/" + page, encoding: .utf8)
            XCTAssertFalse(text.contains("2099"), "\(page) shows the record from 2099")
            XCTAssertFalse(text.contains("clock glitch"), "\(page) shows the record from 2099")
        }
        let month = try String(contentsOfFile: site + "/months/2026-03/index.html", encoding: .utf8)
        XCTAssertFalse(month.contains("crashes</span><span class=\"value\">1<"), month)
    }

    /// What a record from a clock that ran ahead changed leaves the site with it: a crash kept is
    /// not shown as rebooted in 2029, and the streak is the one the days shown make (it read
    /// "day 1" beside five days in a row).
    func test_build_whatARecordYearsAheadChangedWaitsWithIt() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        for d in 2...6 {
            _ = try cli.run(["today"], at: "2026-03-0\(d)T09:00:00Z")
            XCTAssertEqual(try cli.run(["applied", "-m", "x"], at: "2026-03-0\(d)T10:00:00Z").status, 0)
        }
        XCTAssertEqual(try cli.run(["crash"], at: "2026-03-06T11:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["reboot"], at: "2029-06-01T12:00:00Z").status, 0)
        _ = try cli.run(["today"], at: "2029-06-01T12:05:00Z")
        XCTAssertEqual(try cli.run(["applied", "-m", "y"], at: "2029-06-01T12:06:00Z").status, 0)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-03-06T13:00:00Z").status, 0)
        for page in ["weeks/2026-W10/index.html", "bugs/need-to-be-right/index.html", "index.html"] {
            XCTAssertFalse(try String(contentsOfFile: site + "/" + page, encoding: .utf8).contains("2029"), page)
        }
        let dashboard = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertTrue(dashboard.contains("streak</span><span class=\"value\">day 5<"), dashboard)
    }

    /// A record made in Kiritimati (+14) on a day after the horizon of a reader at -12 is less
    /// than a day ahead of the reader's clock: it waits for its day too, at any hour (at 11:30
    /// it was on the site, at 10:00 not, and a no-change rebuild kept whichever came first).
    func test_build_aRecordAheadFromTheFarEastWaitsAtAnyHour() throws {
        let cli = try CLI(zone: "Pacific/Kiritimati")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-01T09:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right"], at: "2026-03-03T10:30:00Z").status, 0)
        for t in ["10:00", "11:30"] {
            let site = cli.workdir + "/site-" + t
            let r = try cli.run(["build", "--out", site], at: "2026-03-02T\(t):00Z", env: ["TZ": "Etc/GMT+12"])
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertTrue(r.err.contains("(the latest 2026-03-04) are not on the site"), "\(t): \(r.err)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: site + "/weeks").filter { $0.hasPrefix("20") }, ["2026-W09"], t)
        }
    }

    /// A bug that became stable by time alone (28 days, three quiet weeks, no crash) reads as
    /// stable in `status`, `remind` and the site before the next `today` saves it: `remind` said
    /// "Fix #039 is ready." for a fix `today` would not give. Neither writes the store. `bugs`
    /// reads it so too, and `bug activate` saves it before it answers ("already active (stable)").
    func test_Status_andRemindReadABugStableByTimeAlone() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        for d in ["08", "15", "22", "29"] {
            let r = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-\(d)T19:00:00Z")
            XCTAssertEqual(r.status, 0, r.err)
        }
        let at = "2026-03-31T09:00:00Z"
        let status = try cli.run(["status"], at: at)
        XCTAssertTrue(status.out.contains("Need to be right         stable"), status.out)
        // `bugs` as well: it said "active" until a command that writes saved the change.
        let bugs = try cli.run(["bugs"], at: at)
        XCTAssertTrue(bugs.out.contains("need-to-be-right     stable"), bugs.out)
        let remind = try cli.run(["remind"], at: at)
        XCTAssertEqual(remind.status, 0, remind.err)
        XCTAssertFalse(remind.out.contains("is ready"), remind.out)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: at).status, 0)
        let bugPage = try String(contentsOfFile: site + "/bugs/need-to-be-right/index.html", encoding: .utf8)
        XCTAssertTrue(bugPage.contains("stable"), bugPage)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let stored = (doc["bugs"] as? [[String: Any]])?.first { $0["slug"] as? String == "need-to-be-right" }?["status"] as? String
        XCTAssertEqual(stored, "active", "reading changes nothing; the next today saves it")
        // Both only read: they work on a store this user cannot write (as root, run as nobody).
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cli.workdir)
            // As after an upgrade: the store's catalogue is not the binary's (it cannot be written
            // here; the store's own is read).
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
                p.arguments = [cli.store, "UPDATE meta SET value = 'an older catalogue' WHERE key = 'catalogue'"]
                try p.run()
                p.waitUntilExit()
                XCTAssertEqual(p.terminationStatus, 0)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cli.store)
            for command in ["status", "remind", "bugs"] {
                let r = try cli.run([command], at: at, wrapper: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
                XCTAssertEqual(r.status, 0, "\(command) on a store it cannot write: \(r.err)")
                if command != "remind" { XCTAssertTrue(r.out.contains("stable"), r.out) }
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: cli.store)
        }
        let activate = try cli.run(["bug", "activate", "need-to-be-right"], at: "2026-03-31T09:00:30Z")
        XCTAssertTrue(activate.out.contains("Need to be right is already active (stable). Nothing was changed."), activate.out + activate.err)
        XCTAssertTrue(try cli.run(["today"], at: "2026-03-31T09:01:00Z").out.contains("REST DAY"))
    }

    /// A bug's "stable since" is the day its conditions first held (here its 28th active day,
    /// 2026-03-30), whichever command or build sees it first: the site said 03-31 when built on
    /// the 31st, 04-02 when built on the 2nd, and `today` saved the day it ran. Read in a zone to
    /// the west it is still that day.
    func test_Lifecycle_stableSinceIsTheDayTheConditionsFirstHeld() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        for d in ["08", "15", "22"] {
            let r = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-\(d)T19:00:00Z")
            XCTAssertEqual(r.status, 0, r.err)
        }
        func stableSince(builtAt at: String) throws -> String {
            let site = cli.workdir + "/site"
            let r = try cli.run(["build", "--out", site], at: at)
            XCTAssertEqual(r.status, 0, r.err)
            let page = try String(contentsOfFile: site + "/bugs/need-to-be-right/index.html", encoding: .utf8)
            guard let range = page.range(of: #"Stable since \d{4}-\d{2}-\d{2}"#, options: .regularExpression) else { return "none" }
            return String(page[range])
        }
        XCTAssertEqual(try stableSince(builtAt: "2026-03-29T23:00:00Z"), "none", "27 days active")
        XCTAssertEqual(try stableSince(builtAt: "2026-03-31T09:00:00Z"), "Stable since 2026-03-30")
        XCTAssertEqual(try stableSince(builtAt: "2026-04-02T09:00:00Z"), "Stable since 2026-03-30")
        XCTAssertEqual(try cli.run(["today"], at: "2026-04-02T09:05:00Z").status, 0)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let bug = try XCTUnwrap((doc["bugs"] as? [[String: Any]])?.first { $0["slug"] as? String == "need-to-be-right" })
        XCTAssertEqual(bug["status"] as? String, "stable")
        XCTAssertEqual(bug["stableSince"] as? String, "2026-03-30T12:00:00.000Z", "saved as the day it became stable, not the day today ran")
        XCTAssertEqual(try stableSince(builtAt: "2026-04-03T09:00:00Z"), "Stable since 2026-03-30")
        let site = cli.workdir + "/site-west"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-04-03T15:00:00Z", env: ["TZ": "America/New_York"]).status, 0)
        let page = try String(contentsOfFile: site + "/bugs/need-to-be-right/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("Stable since 2026-03-30"), page)
    }

    /// Dated when it took effect, one change can make the next due at once: a bug nobody looked at
    /// from March to July was stable since March 30 and so resolved since June 28. `status`, the
    /// site and `today` all say so, the first time as every time after, and no retest is handed to
    /// a bug resolved by the rules.
    func test_Lifecycle_aChangeThatMakesTheNextDueAppliesBoth() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        for d in ["08", "15", "22"] {
            XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-\(d)T19:00:00Z").status, 0)
        }
        let at = "2026-07-15T09:00:00Z"
        XCTAssertTrue(try cli.run(["status"], at: at).out.contains("Need to be right         resolved"))
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: at).status, 0)
        let page = try String(contentsOfFile: site + "/bugs/need-to-be-right/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("Stable since 2026-03-30") && page.contains("Resolved 2026-06-28"), page)
        let today = try cli.run(["today"], at: at)
        XCTAssertEqual(today.status, 0, today.err)
        XCTAssertFalse(today.out.lowercased().contains("retest"), today.out)
        XCTAssertTrue(try cli.run(["status"], at: "2026-07-15T09:01:00Z").out.contains("Need to be right         resolved"))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let bug = try XCTUnwrap((doc["bugs"] as? [[String: Any]])?.first { $0["slug"] as? String == "need-to-be-right" })
        XCTAssertEqual(bug["status"] as? String, "resolved")
        XCTAssertEqual(bug["resolvedAt"] as? String, "2026-06-28T12:00:00.000Z")
        XCTAssertNil(bug["lastRetestAt"] as? String)
    }

    /// `remind_at = "02:30"` on the night Berlin's clocks go back: `remind` said "ready" at 02:45
    /// summer time, then nothing at 02:15 winter time, and `applied` was refused ("no pending fix")
    /// until 02:30 came round again.
    func test_Reminders_aRemindAtInTheRepeatedHourStaysCome() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        _ = FileManager.default.createFile(atPath: cli.workdir + "/egofix.toml", contents: Data("remind_at = \"02:30\"\n".utf8))
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2027-10-30T09:00:00+02:00").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2027-10-30T09:01:00+02:00").status, 0)
        XCTAssertEqual(try cli.run(["remind"], at: "2027-10-31T00:25:00Z").out, "", "02:25 summer time")
        XCTAssertTrue(try cli.run(["remind"], at: "2027-10-31T00:45:00Z").out.contains("is ready."), "02:45 summer time")
        let later = try cli.run(["remind"], at: "2027-10-31T01:15:00Z")
        XCTAssertTrue(later.out.contains("is ready."), "02:15 winter time: \(later.out)")
        let applied = try cli.run(["applied"], at: "2027-10-31T01:15:00Z")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.out.contains("FIX APPLIED"), applied.out)
    }

    /// A month whose first day is still to come has a page when this week's Thursday falls in it;
    /// its graph drew that first day as "no activity" and said "October 2026, 2026-10-01 to
    /// 2026-10-01: nothing recorded.", a day after the build. It says "Not yet.", as a week page
    /// says of its days to come.
    func test_build_aMonthNotBegunSaysSo() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-09-20T09:00:00Z").status, 0)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-09-28T09:00:00Z").status, 0)
        for (page, title) in [("months/2026-10", "October 2026"), ("quarters/2026-Q4", "Q4 2026")] {
            let html = try String(contentsOfFile: site + "/" + page + "/index.html", encoding: .utf8)
            XCTAssertTrue(html.contains("aria-label=\"Contribution graph, \(title)\"><p class=\"muted\">Not yet.</p></div>"), html)
            XCTAssertFalse(html.contains("2026-10-01 to 2026-10-01") || html.contains("<svg"), html)
        }
        let september = try String(contentsOfFile: site + "/months/2026-09/index.html", encoding: .utf8)
        XCTAssertTrue(september.contains("September 2026, 2026-09-01 to 2026-09-28:"), september)
    }

    /// A status bar asking `today --json` every minute recorded an opening each time, and the
    /// detectors' baseline filled with them (40 polls moved a crash-timing finding from insight to
    /// observation). The JSON records no opening; the card does. The day counts either way, as the
    /// day's fix given counts it in a sync's replay (a first cut that did not count it here had a
    /// streak of 0 that became 4 at the next sync).
    func test_Today_jsonRecordsNoOpeningForThePatterns() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        func openings() throws -> Int {
            String(decoding: try cli.export(), as: UTF8.self).components(separatedBy: "\"appOpened\"").count - 1
        }
        let before = try openings()
        for minute in 10..<20 {
            let r = try cli.run(["today", "--json"], at: "2026-03-04T09:\(minute):00Z")
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertTrue(r.out.contains("\"fix\""), r.out)
        }
        XCTAssertEqual(try openings(), before)
        let status = try cli.run(["status", "--json"], at: "2026-03-04T09:30:00Z").out
        let synced = try cli.run(["sync", cli.workdir + "/shared"], at: "2026-03-04T09:30:30Z")
        XCTAssertEqual(synced.status, 0, synced.err)
        let after = try cli.run(["status", "--json"], at: "2026-03-04T09:30:40Z").out
        func streak(_ s: String) -> Int? { (try? JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any])?["streak"] as? Int }
        XCTAssertEqual(streak(status), streak(after), "a sync's replay agrees with the streak the commands kept")
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-04T09:31:00Z").status, 0)
        XCTAssertEqual(try openings(), before + 1)
    }

    /// A person back after more than a week is told the time since and welcomed back by `today`
    /// itself (only a site built before the return said it; `today` then counted as an entry and
    /// the site stopped saying it); once, and not after a week or less (a person who comes only
    /// for Sunday's diagnostic was welcomed back every Sunday).
    func test_Today_aReturnAfterMoreThanAWeekIsWelcomedOnce() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-02T08:00:00Z").status, 0)
        let six = try cli.run(["today"], at: "2026-03-08T08:00:00Z").out
        XCTAssertFalse(six.contains("Welcome back"), six)
        let back = try cli.run(["today"], at: "2026-03-18T08:00:00Z").out
        XCTAssertTrue(back.hasPrefix("10 days since the last entry. Welcome back. Nothing to make up;"), back)
        XCTAssertFalse(try cli.run(["today"], at: "2026-03-18T09:00:00Z").out.contains("Welcome back"))
        let week = try cli.run(["today"], at: "2026-03-25T08:00:00Z").out
        XCTAssertFalse(week.contains("Welcome back"), week)
        XCTAssertFalse(try cli.run(["today", "--json"], at: "2026-04-30T09:00:00Z").out.contains("Welcome back"))
    }

    /// The time since the last entry counts from the day that entry counted where it was made,
    /// in `today` as on the dashboard. A fix marked on Tuesday morning in Tokyo is Monday evening
    /// in Los Angeles: after the flight, `today` counted 9 days on the 18th where the dashboard
    /// built a moment before counted 8.
    func test_Today_aReturnAfterAFlightCountsFromTheDayTheLastEntryCounted() throws {
        let cli = try CLI(zone: "Asia/Tokyo")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-10T08:00:00+09:00").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-10T08:30:00+09:00").status, 0)
        let la = ["TZ": ":/usr/share/zoneinfo/America/Los_Angeles"]
        let built = try cli.run(["build"], at: "2026-03-18T09:00:00-07:00", env: la)
        XCTAssertEqual(built.status, 0, built.err)
        let page = try String(contentsOfFile: cli.workdir + "/site/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("8 days since the last entry."), "the dashboard counts from Tuesday 10 March")
        let back = try cli.run(["today"], at: "2026-03-18T09:01:00-07:00", env: la).out
        XCTAssertTrue(back.hasPrefix("8 days since the last entry. Welcome back."), back)
    }

    /// The first diagnostic's week summary compares with nothing (it showed "crashes 1 (0)" beside
    /// a week before the practice began, which the site's first week page does not); the second
    /// compares with the first.
    func test_Diagnostic_theFirstWeekHasNoWeekBeforeToCompare() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right", "--note", "x"], at: "2026-03-03T07:00:00Z").status, 0)
        let first = try cli.run(["diagnostic", "--rate", "need-to-be-right=loud@work"], at: "2026-03-08T19:00:00Z")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.contains("WEEK 2026-W10   applied 0   skipped 0   failed 0   crashes 1\n// The practice's first week: no week before it to compare."), first.out)
        let second = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-15T19:00:00Z")
        XCTAssertTrue(second.out.contains("crashes 0 (1)\n// In parentheses: the week before, where it differs."), second.out)
        // Begun on a Wednesday: the next week is not set against the five days of the first
        // (their Monday and Tuesday counted as zeros), as the site's week pages are not.
        let late = try CLI(zone: "UTC")
        XCTAssertEqual(try late.run(["init", "--bug", "need-to-be-right"], at: "2026-03-04T07:00:00Z").status, 0)
        XCTAssertEqual(try late.run(["crash", "need-to-be-right", "--note", "x"], at: "2026-03-05T07:00:00Z").status, 0)
        XCTAssertEqual(try late.run(["diagnostic", "--rate", "need-to-be-right=loud"], at: "2026-03-08T19:00:00Z").status, 0)
        let partway = try late.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-15T19:00:00Z")
        XCTAssertTrue(partway.out.contains("WEEK 2026-W11   applied 0   skipped 0   failed 0   crashes 0\n"
                                           + "// The practice began partway through the week before: no whole week to compare."), partway.out)
    }

    /// `diagnostic --skip` with no diagnostic open (a Wednesday) says there is nothing to skip
    /// (it said "Skipped." as if one had been), and the week's own diagnostic still opens on Sunday.
    func test_Diagnostic_aSkipWithNothingOpenSaysSo() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        let wednesday = try cli.run(["diagnostic", "--skip"], at: "2026-03-04T12:00:00Z")
        XCTAssertEqual(wednesday.status, 0, wednesday.err)
        XCTAssertEqual(wednesday.out, "No diagnostic due. It opens Sunday at 18:00 and stays open through Monday. Nothing to skip.\n")
        XCTAssertTrue(try cli.run(["status"], at: "2026-03-08T18:30:00Z").out.contains("Weekly diagnostic open: `egofix diagnostic`, 30 seconds, or `--skip`."))
        XCTAssertTrue(try cli.run(["diagnostic", "--skip"], at: "2026-03-08T18:31:00Z").out.contains("Skipped. No ratings recorded; nothing owed, and nothing asks again this week."))
    }

    /// "Skipped. No ratings recorded; nothing owed, and nothing asks again this week." and then nothing asks again that week: `remind`,
    /// `status` and `today` named the open diagnostic until Monday night. `egofix diagnostic`
    /// still takes it, and next week's opens as usual.
    /// A skip on a store this user cannot write still skips, and says it was not noted (it said
    /// "Skipped." and `remind` went on asking, unexplained).
    func test_Diagnostic_aSkipOnAStoreThatCannotBeWrittenSaysItIsNotNoted() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("needs root and setpriv") }
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cli.workdir)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cli.store)
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let r = try cli.run(["diagnostic", "--skip"], at: "2026-03-08T18:30:00Z", wrapper: nobody)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Skipped. No ratings recorded; nothing owed, and nothing asks again this week."), r.out)
        XCTAssertTrue(r.out.contains("the skip is not noted"), r.out)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: cli.store)
        let writable = try cli.run(["diagnostic", "--skip"], at: "2026-03-08T18:31:00Z")
        XCTAssertFalse(writable.out.contains("not noted"), writable.out)
    }

    func test_Diagnostic_aSkipStopsTheAskingForThatWeek() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        XCTAssertTrue(try cli.run(["remind"], at: "2026-03-08T18:29:00Z").out.contains("Weekly diagnostic open"))
        XCTAssertTrue(try cli.run(["diagnostic", "--skip"], at: "2026-03-08T18:30:00Z").out.contains("Skipped. No ratings recorded; nothing owed, and nothing asks again this week."))
        for (args, at) in [(["remind"], "2026-03-08T18:31:00Z"), (["status"], "2026-03-08T18:31:00Z"), (["today"], "2026-03-09T10:00:00Z")] {
            let r = try cli.run(args, at: at)
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertFalse(r.out.contains("diagnostic open"), "\(args): \(r.out)")
        }
        let rated = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-09T10:05:00Z")
        XCTAssertEqual(rated.status, 0, rated.err)
        XCTAssertTrue(try cli.run(["remind"], at: "2026-03-15T18:31:00Z").out.contains("Weekly diagnostic open"), "next week asks again")
        // Skipped in a terminal (enter on every bug): the same. Mid-week with --anyway, it skips
        // nothing that opens later: that Sunday's diagnostic is asked as usual.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/script") {
            let skipped = try cli.runInTerminal(["diagnostic"], at: "2026-03-15T19:00:00Z", input: "\n")
            XCTAssertTrue(skipped.out.contains("Skipped. No ratings recorded; nothing owed, and nothing asks again this week."), skipped.out)
            XCTAssertFalse(try cli.run(["status"], at: "2026-03-15T19:01:00Z").out.contains("diagnostic open"))
            let midWeek = try cli.runInTerminal(["diagnostic", "--anyway"], at: "2026-03-18T12:00:00Z", input: "\n")
            XCTAssertTrue(midWeek.out.contains("Skipped."), midWeek.out)
            XCTAssertTrue(try cli.run(["status"], at: "2026-03-22T19:00:00Z").out.contains("diagnostic open"))
        }
    }

    /// A reboot made where it is already tomorrow (Tonga) while the site is built in New York:
    /// history listed it on its day and no week page did (a reboot did not count as activity for
    /// the site's last day).
    func test_build_aRebootOnTomorrowsDateHasItsWeekPage() throws {
        let cli = try CLI(zone: "America/New_York")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2025-04-21T09:00:00-04:00").status, 0)
        XCTAssertEqual(try cli.run(["crash"], at: "2025-04-27T18:00:00-04:00").status, 0)
        XCTAssertEqual(try cli.run(["reboot"], at: "2025-04-28T12:00:00+13:00", env: ["TZ": "Pacific/Tongatapu"]).status, 0)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2025-04-27T19:10:00-04:00").status, 0)
        let week = try String(contentsOfFile: site + "/weeks/2025-W18/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("reboot"), week)
    }

    /// The dashboard's "since" is the day the practice began where it began (Honolulu, 1 March),
    /// as history has it, not that instant read in Kiritimati (2 March).
    func test_build_theDashboardsSinceIsTheDayThePracticeBegan() throws {
        let cli = try CLI(zone: "Pacific/Honolulu")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-01T22:00:00-10:00").status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "x"], at: "2026-03-01T22:05:00-10:00").status, 0)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-03-03T10:00:00+14:00", env: ["TZ": "Pacific/Kiritimati"]).status, 0)
        let dashboard = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertTrue(dashboard.contains("since 2026-03-01"), dashboard)
    }

    /// A practice begun in Los Angeles on Monday 9 March, a crash logged there on Friday the 13th
    /// at 15:00, the site built in Tokyo (Saturday the 14th, 07:00 there): every page puts them on
    /// the days they were recorded on, as history and the week pages do. The changelog and the
    /// bug page read them in Tokyo (the crash on the 14th, v1.0 on the 10th), and the week page
    /// gave Friday's crash the time 07:00, which it was nowhere on a Friday.
    func test_build_changelogAndBugPagesDateRecordsOnTheDaysTheyWereRecorded() throws {
        let cli = try CLI(zone: "America/Los_Angeles")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-09T08:00:00-07:00").status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right", "-m", "In the air."], at: "2026-03-13T15:00:00-07:00").status, 0)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-03-14T16:00:00+09:00", env: ["TZ": "Asia/Tokyo"]).status, 0)
        func page(_ path: String) throws -> String { try String(contentsOfFile: site + "/" + path, encoding: .utf8) }
        let changelog = try page("changelog/index.html"), bug = try page("bugs/need-to-be-right/index.html")
        let week = try page("weeks/2026-W11/index.html")
        XCTAssertTrue(changelog.contains("v1.0 <span class=\"muted\">· 2026-03-09 · initial release"), changelog)
        XCTAssertTrue(changelog.contains("<span class=\"outcome crash\">crash</span> <span class=\"muted\">2026-03-13</span>"), changelog)
        XCTAssertTrue(bug.contains("<span class=\"outcome crash\">crash</span> <span class=\"muted\">2026-03-13</span>"), bug)
        XCTAssertTrue(bug.contains("Active since 2026-03-09."), bug)
        XCTAssertFalse(changelog.contains("muted\">2026-03-14<") || bug.contains("2026-03-14 07:00"), "no record on Tokyo's Saturday")
        XCTAssertTrue(week.contains("<h3>Friday 2026-03-13</h3>"), week)
        XCTAssertFalse(week.contains("07:00"), "no time of day that was not Friday's")
        // Built in Los Angeles, the crash keeps its time.
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-03-14T00:00:00-07:00").status, 0)
        XCTAssertTrue(try page("bugs/need-to-be-right/index.html").contains("2026-03-13 15:00"))
    }

    /// A week lived in Berlin whose Sunday was spent in Los Angeles (the 7th fix applied at 21:30
    /// and a crash at 22:00 there, Monday morning in Berlin), read at home: every part of the
    /// week's page, the bug page, the diagnostic's summary and `history` put them on that Sunday,
    /// as the week's counts and the changelog did. The header said "1 more applied fix to v1.1"
    /// beside 7 applied, the mirror check "1 crash" above two, the bug page dated the fix Monday,
    /// the summary counted 1 crash, and `history` in Los Angeles began the day before day one.
    func test_build_aWeekWhoseSundayWasSpentAbroadAgreesWithItselfAtHome() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        let la = ["TZ": "America/Los_Angeles"]
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-06-01T05:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right", "-m", "early"], at: "2026-06-01T05:30:00Z").status, 0)
        for d in 1...6 {
            XCTAssertEqual(try cli.run(["today"], at: "2026-06-0\(d)T06:00:00Z").status, 0)
            XCTAssertEqual(try cli.run(["applied"], at: "2026-06-0\(d)T18:00:00Z").status, 0)
        }
        XCTAssertEqual(try cli.run(["reboot"], at: "2026-06-06T19:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2026-06-07T15:00:00Z", env: la).status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-06-08T04:30:00Z", env: la).status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right"], at: "2026-06-08T05:00:00Z", env: la).status, 0)
        let diagnostic = try cli.run(["diagnostic", "--rate", "need-to-be-right=loud@work"], at: "2026-06-08T06:30:00Z", env: la)
        XCTAssertTrue(diagnostic.out.contains("WEEK 2026-W23   applied 7   skipped 0   failed 0   crashes 2"), diagnostic.out)
        let history = try cli.run(["history", "--days", "14", "--json"], at: "2026-06-08T06:40:00Z", env: la)
        XCTAssertTrue(history.out.contains("\"from\" : \"2026-06-01\""), history.out)

        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-06-08T18:00:00Z").status, 0)
        func text(_ path: String) throws -> String { try String(contentsOfFile: site + "/" + path, encoding: .utf8) }
        let week = try text("weeks/2026-W23/index.html"), next = try text("weeks/2026-W24/index.html")
        XCTAssertTrue(week.contains("2026-06-01 to 2026-06-07 · v1.0 → v1.1 · 7 more applied fixes to v1.2 at the week&#39;s end"), week)
        XCTAssertTrue(next.contains("2026-06-08 to 2026-06-14 · v1.1 · 7 more applied fixes to v1.2"), next)
        XCTAssertTrue(week.contains("Need to be right: You said loud. You logged 2 crashes about it."), week)
        let bug = try text("bugs/need-to-be-right/index.html")
        XCTAssertTrue(bug.contains("· severity low · 2026-06-07 · <span class=\"outcome applied\">"), bug)
        XCTAssertFalse(bug.contains("· 2026-06-08 ·"), "no fix on the bug page was marked on Monday: \(bug)")
    }

    /// The seeded demo, lived in Berlin, built in New York: the regression pattern dates the crash
    /// that sent the bug back on the day it was logged in Berlin, as the bug page and the week
    /// page do (it said 2026-10-07, the day before, New York's date of that instant).
    func test_build_theRegressionPatternDatesItsCrashWhereItWasLogged() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        XCTAssertEqual(try cli.run(["demo", "--years", "2"], at: "2026-11-22T19:00:00Z").status, 0)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-11-24T04:58:00Z", env: ["TZ": "America/New_York"]).status, 0)
        let patterns = try String(contentsOfFile: site + "/patterns/index.html", encoding: .utf8)
        let bug = try String(contentsOfFile: site + "/bugs/need-to-be-busy/index.html", encoding: .utf8)
        XCTAssertTrue(bug.contains("Back to active 2026-10-08, a regression"), bug)
        XCTAssertTrue(patterns.contains("A crash about it was logged on 2026-10-08, 123 days after it went stable."), patterns)
    }

    /// `diagnostic --anyway` on a Wednesday sets the three days against the same three days of
    /// the week before, as the week's page does (it set them against the whole week: "applied 3 (7)").
    func test_Diagnostic_anywayMidweekComparesTheSameDays() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00+01:00").status, 0)
        for day in 2...18 {
            let d = String(format: "2026-03-%02d", day)
            XCTAssertEqual(try cli.run(["today"], at: d + "T08:00:00+01:00").status, 0)
            XCTAssertEqual(try cli.run(["applied"], at: d + "T18:00:00+01:00").status, 0)
        }
        let r = try cli.run(["diagnostic", "--anyway", "--rate", "need-to-be-right=quiet"], at: "2026-03-18T20:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("WEEK 2026-W12   applied 3   skipped 0   failed 0   crashes 0\n"), r.out)
        XCTAssertTrue(r.out.contains("// Unchanged from the same days of the week before."), r.out)
    }
}

/// A day's fix closes at midnight.
final class MidnightCommandTests: XCTestCase {
    /// `today` at 23:59, `applied` at 00:01: the refusal said only "no pending fix to mark", not
    /// that the fix just seen had closed.
    func test_Outcome_afterMidnightSaysYesterdaysFixClosed() throws {
        let cli = try CLI(zone: "Asia/Kolkata")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+05:30").status, 0)
        let seen = try cli.run(["today"], at: "2026-03-03T23:59:00+05:30")
        let label = try XCTUnwrap(seen.out.split(separator: "\n").first { $0.hasPrefix("FIX #") }.map { String($0.prefix(8)) }, seen.out)
        let late = try cli.run(["applied"], at: "2026-03-04T00:01:00+05:30")
        XCTAssertEqual(late.status, 1)
        XCTAssertEqual(late.err, "egofix: no pending fix to mark: yesterday's, \(label), closed unmarked at midnight. "
                       + "`egofix today` gives today's, if the day has one.\n")
        // Once today's is given and marked, the refusal is the other one.
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-04T08:00:00+05:30").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-04T08:05:00+05:30").status, 0)
        XCTAssertTrue(try cli.run(["applied"], at: "2026-03-04T08:06:00+05:30").err.contains("is already marked applied"))
    }
}
