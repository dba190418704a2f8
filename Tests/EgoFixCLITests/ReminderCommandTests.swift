@testable import EgoFixCLI
import EgoFixCore
import Foundation
import XCTest

/// `egofix timer`, `egofix remind` and reminders.ics (issue 32), through the real binary.
final class ReminderCommandTests: XCTestCase {
    /// Wednesday 2026-11-25, in Berlin (UTC+1).
    let wednesdayEarly = "2026-11-25T07:30:00Z"     // 08:30 local, before remind_at
    let wednesdayMorning = "2026-11-25T08:30:00Z"   // 09:30 local
    let sundayEvening = "2026-11-29T17:30:00Z"      // 18:30 local

    static var repoRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func started(timedOnly: Bool = false) throws -> CLI {
        let cli = try CLI()
        if timedOnly {
            // A ./Seeds override whose only daily fixes are timed ones.
            let data = try Data(contentsOf: Self.repoRoot.appendingPathComponent("Seeds/fixes.json"))
            let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            let kept = all.filter { $0["interactionType"] as? String == "timed" || $0["type"] as? String == "quickFix" }
            try FileManager.default.createDirectory(atPath: cli.workdir + "/Seeds", withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: cli.workdir + "/Seeds/fixes.json"))
        }
        let r = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-24T08:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        return cli
    }

    /// A practice whose day's fix is timed and given (`today` at `wednesdayMorning`), for a timer
    /// run in a terminal (skipped where there is no `script`).
    func timedFixGiven() throws -> CLI {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try started(timedOnly: true)
        XCTAssertEqual(try cli.run(["today"], at: wednesdayMorning).status, 0)
        return cli
    }

    // MARK: remind

    func test_remind_weekdayMorningNamesTheUnmarkedFixThenNothingAfterTheOutcome() throws {
        let cli = try started()
        let early = try cli.run(["remind"], at: wednesdayEarly)
        XCTAssertEqual(early.status, 0, early.err)
        XCTAssertEqual(early.out, "", "before remind_at nothing is due")
        let due = try cli.run(["remind"], at: wednesdayMorning)
        XCTAssertEqual(due.status, 0, due.err)
        let line = due.out.trimmingCharacters(in: .newlines)
        XCTAssertTrue(line.range(of: #"^Fix #\d{3} is ready\.$"#, options: .regularExpression) != nil, line)
        // The fix named is the one `today` then shows: remind chose it without assigning it.
        let today = try cli.run(["today"], at: wednesdayMorning)
        let number = String(line.dropFirst(4).prefix(4))
        XCTAssertTrue(today.out.contains("FIX " + number), today.out)
        XCTAssertEqual(try cli.run(["applied"], at: wednesdayMorning, stdin: "").status, 0)
        let after = try cli.run(["remind"], at: "2026-11-25T09:00:00Z")
        XCTAssertEqual(after.status, 0, after.err)
        XCTAssertEqual(after.out, "", "a marked fix is not reminded")
        XCTAssertEqual(after.err, "")
    }

    func test_remind_sundayEveningIsTheDiagnosticAndRemindAtComesFromTheConfig() throws {
        let cli = try started()
        let sunday = try cli.run(["remind"], at: sundayEvening)
        XCTAssertEqual(sunday.status, 0, sunday.err)
        XCTAssertTrue(sunday.out.contains("Weekly diagnostic open"), sunday.out)
        for line in sunday.out.split(separator: "\n") {
            XCTAssertLessThan(line.count, 120)
            XCTAssertFalse(line.contains("!"))
        }
        try Data("remind_at = \"08:00\"\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/egofix.toml"))
        XCTAssertTrue(try cli.run(["remind"], at: wednesdayEarly).out.contains("is ready."))
        try Data("remind_at = \"8 am\"\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/egofix.toml"))
        let bad = try cli.run(["remind"], at: wednesdayEarly)
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.contains("remind_at must be a time of day as HH:MM"), bad.err)
    }

    func test_remind_notifySendsThroughNotifySendAndPrintsWithoutIt() throws {
        let cli = try started()
        let (bin, log) = try fakeNotifySend(cli)
        let sent = try cli.run(["remind", "--notify"], at: wednesdayMorning, env: ["PATH": bin + ":/usr/bin:/bin", "NOTIFY_LOG": log])
        XCTAssertEqual(sent.status, 0, sent.err)
        XCTAssertEqual(sent.out, "")
        let args = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(args.contains("EgoFix\n") && args.contains(" is ready."), args)
        // Sent once: the timer's next run the same day sends nothing more.
        try FileManager.default.removeItem(atPath: log)
        XCTAssertEqual(try cli.run(["remind", "--notify"], at: "2026-11-25T17:30:00Z", env: ["PATH": bin + ":/usr/bin:/bin", "NOTIFY_LOG": log]).out, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: log), "nothing sent again")
        // No notify-send: printed instead, and not taken as sent (the next run says it again).
        let printed = try cli.run(["remind", "--notify"], at: "2026-11-26T08:30:00Z")
        XCTAssertTrue(printed.out.contains(" is ready."), "no notify-send: printed instead")
        XCTAssertEqual(try cli.run(["remind", "--notify"], at: "2026-11-26T09:30:00Z").out, printed.out)
    }

    /// The timer runs at remind_at and at Sunday 18:00: each reminder goes out once. The fix
    /// still unmarked at 18:00 was sent again with the diagnostic, and the diagnostic again on
    /// Monday morning. Plain `remind`, asked in a terminal, still says all that is due.
    func test_remind_notifySendsEachReminderOnce() throws {
        let cli = try started()
        let (bin, log) = try fakeNotifySend(cli)
        /// What one timer run sent as a notification ("" when none).
        func run(_ at: String) throws -> String {
            try? FileManager.default.removeItem(atPath: log)
            XCTAssertEqual(try cli.run(["remind", "--notify"], at: at, env: ["PATH": bin + ":/usr/bin:/bin", "NOTIFY_LOG": log]).status, 0)
            return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        let morning = try run("2026-11-29T08:30:00Z")
        XCTAssertTrue(morning.contains(" is ready."), morning)
        XCTAssertFalse(morning.contains("Weekly diagnostic"), morning)
        let evening = try run("2026-11-29T17:00:00Z")
        XCTAssertTrue(evening.hasSuffix("EgoFix\nWeekly diagnostic open: 30 seconds, `egofix diagnostic`. Skipping costs nothing.\n"), evening)
        let monday = try run("2026-11-30T08:30:00Z")
        XCTAssertTrue(monday.contains(" is ready."), monday)
        XCTAssertFalse(monday.contains("Weekly diagnostic"), monday)
        let asked = try cli.run(["remind"], at: "2026-11-30T08:31:00Z")
        XCTAssertTrue(asked.out.contains(" is ready.") && asked.out.contains("Weekly diagnostic"), asked.out)
        let state = try FileManager.default.contentsOfDirectory(atPath: cli.workdir + "/.local/state/egofix")
        XCTAssertEqual(state.count, 1, "\(state)")
        let mode = try FileManager.default.attributesOfItem(atPath: cli.workdir + "/.local/state/egofix/" + state[0])[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    // MARK: timer

    func fakeNotifySend(_ cli: CLI) throws -> (bin: String, log: String) {
        let bin = cli.workdir + "/fakebin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$NOTIFY_LOG\"\n"
        _ = FileManager.default.createFile(atPath: bin + "/notify-send", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        return (bin, cli.workdir + "/notify.log")
    }

    /// A reminder that cannot be noted as sent is not sent: with a state folder it could not write
    /// (read-only, full), the timer sent the same notification on every run.
    func test_remind_aReminderThatCannotBeNotedIsNotSent() throws {
        let cli = try started()
        let (bin, log) = try fakeNotifySend(cli)
        let blocked = cli.workdir + "/a-file"
        XCTAssertTrue(FileManager.default.createFile(atPath: blocked, contents: Data("x".utf8)))
        let env = ["PATH": bin + ":/usr/bin:/bin", "NOTIFY_LOG": log, "XDG_STATE_HOME": blocked + "/state"]
        let r = try cli.run(["remind", "--notify"], at: wednesdayMorning, env: env)
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.contains("so nothing was sent: each run would send it again"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: log), "sent anyway")
        var ok = env
        ok["XDG_STATE_HOME"] = cli.workdir + "/state"
        XCTAssertEqual(try cli.run(["remind", "--notify"], at: wednesdayMorning, env: ok).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: log), "sent once it can be noted")
        try FileManager.default.removeItem(atPath: log)
        XCTAssertEqual(try cli.run(["remind", "--notify"], at: wednesdayMorning, env: ok).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: log), "and not again")
    }

    /// The timer installed with `remind --install --at 07:30` announces the day's fix at 07:30;
    /// `applied` at 07:45 said there was no pending fix to mark until remind_at (09:00). A fix the
    /// timer has announced can be marked at once.
    func test_remind_aFixTheTimerAnnouncedCanBeMarkedAtOnce() throws {
        let cli = try started()
        XCTAssertEqual(try cli.run(["applied"], at: "2026-11-24T08:05:00Z", stdin: "").status, 0, "Tuesday's fix")
        let unannounced = try cli.run(["applied"], at: "2026-11-25T06:35:00Z", stdin: "")
        XCTAssertNotEqual(unannounced.status, 0, "07:35, nothing announced, before remind_at: \(unannounced.out)")
        let (bin, log) = try fakeNotifySend(cli)
        let env = ["PATH": bin + ":/usr/bin:/bin", "NOTIFY_LOG": log]
        let r = try cli.run(["remind", "--notify", "--at", "07:30"], at: "2026-11-25T06:40:00Z", env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(try String(contentsOfFile: log, encoding: .utf8).contains(" is ready."))
        let applied = try cli.run(["applied"], at: "2026-11-25T06:45:00Z", stdin: "")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.out.contains("FIX APPLIED"), applied.out)
    }

    /// `egofix remind --at 07:30` asked in a terminal said the fix is ready; `applied` then
    /// refused it until remind_at (09:00). Printed into a pipe or a file, nobody was told.
    func test_remind_aFixSaidInATerminalCanBeMarkedAtOnce() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try started()
        XCTAssertEqual(try cli.run(["applied"], at: "2026-11-24T08:05:00Z", stdin: "").status, 0, "Tuesday's fix")
        let piped = try cli.run(["remind", "--at", "07:30"], at: "2026-11-25T06:38:00Z")
        XCTAssertTrue(piped.out.contains(" is ready."), piped.out)
        XCTAssertNotEqual(try cli.run(["applied"], at: "2026-11-25T06:39:00Z", stdin: "").status, 0, "said into a pipe: not seen")
        let r = try cli.runInTerminal(["remind", "--at", "07:30"], at: "2026-11-25T06:40:00Z", input: "")
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains(" is ready."), r.out)
        let applied = try cli.run(["applied"], at: "2026-11-25T06:45:00Z", stdin: "")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.out.contains("FIX APPLIED"), applied.out)
        // Said in a terminal is not sent: the timer still notifies that day.
        XCTAssertTrue(try cli.runInTerminal(["remind", "--at", "07:30"], at: "2026-11-26T06:40:00Z", input: "").out.contains(" is ready."))
        let (bin, log) = try fakeNotifySend(cli)
        let env = ["PATH": bin + ":/usr/bin:/bin", "NOTIFY_LOG": log]
        XCTAssertEqual(try cli.run(["remind", "--notify", "--at", "07:30"], at: "2026-11-26T06:41:00Z", env: env).status, 0)
        XCTAssertTrue(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains(" is ready."))
    }

    /// A disk that fills during the countdown: the timer's end cannot be recorded, and the error
    /// says how to mark the fix without a second countdown ("run the command again" meant one).
    func test_timer_aFullDiskAtItsEndSaysHowToMarkTheFix() throws {
        let full = try FaultTests.faulty("pwrite64:error=ENOSPC")
        let cli = try started(timedOnly: true)
        XCTAssertEqual(try cli.run(["today"], at: wednesdayMorning).status, 0)
        let r = try cli.run(["timer", "--seconds", "1"], at: wednesdayMorning, wrapper: full)
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.out.contains("Timer complete."), "the countdown ran: \(r.out)")
        XCTAssertTrue(r.err.contains("is full: the timer ran, and is not recorded. Free some space; then `egofix applied`"), r.err)
        XCTAssertTrue(r.err.contains("without a second countdown"), r.err)
        let applied = try cli.run(["applied"], at: wednesdayMorning)
        XCTAssertEqual(applied.status, 0, applied.err)
    }

    func test_timer_runsThreeSecondsRingsNotifiesAndRecordsTheTimer() throws {
        let cli = try started(timedOnly: true)
        XCTAssertEqual(try cli.run(["today"], at: wednesdayMorning).status, 0)
        let (bin, log) = try fakeNotifySend(cli)
        let env = ["PATH": bin + ":/usr/bin:/bin", "NOTIFY_LOG": log]
        let r = try cli.run(["timer", "--seconds", "3"], at: wednesdayMorning, env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("TIMER // FIX #"), r.out)
        XCTAssertTrue(r.out.contains("\n0:03 left\n"), "a plain line off a terminal: \(r.out)")
        XCTAssertTrue(r.out.contains("\u{7}Timer complete. How did it go?\n"), "the bell, then the line")
        XCTAssertTrue(r.out.contains("Timer recorded."))
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "--app-name=EgoFix\nEgoFix\nTimer complete. How did it go?\n")
        XCTAssertTrue(String(decoding: try cli.export(), as: UTF8.self).contains("\"timerCompleted\""))
        // The outcome marked next records the timer as done without --timer-done.
        XCTAssertEqual(try cli.run(["applied"], at: "2026-11-25T08:40:00Z", stdin: "").status, 0)
        let export = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let completions = try XCTUnwrap(export["completions"] as? [[String: Any]])
        let applied = try XCTUnwrap(completions.first { $0["outcome"] as? String == "applied" })
        let data = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(applied["outcomeData"] as? String)))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"timerCompleted":true}"#)
    }

    /// A countdown begun before midnight runs out after it: the timer is recorded and the fix it
    /// timed stays the one to mark through the next day, first on `today`'s card. It was refused
    /// ("no longer pending ... its day is over") after the bell, and the fix could not be marked
    /// at all; FIX #160's timer is 24 hours, so it always ended so.
    func test_timer_aCountdownPastMidnightIsRecordedAndItsFixStaysToMark() throws {
        let cli = try started(timedOnly: true)
        let lateEvening = "2026-11-25T22:59:58Z"  // 23:59:58 local
        let given = try cli.json(["today"], at: lateEvening)
        let number = try XCTUnwrap((given["fix"] as? [String: Any])?["number"] as? Int)
        let label = String(format: "FIX #%03d", number)
        let r = try cli.run(["timer", "--seconds", "3"], at: lateEvening)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Timer recorded. `egofix applied` (or skipped, failed) marks \(label)"), r.out)
        let status = try cli.run(["status"], at: "2026-11-26T06:00:00Z")
        XCTAssertTrue(status.out.contains("PENDING  \(label)"), status.out)
        let history = try cli.run(["history", "--days", "2"], at: "2026-11-26T06:00:00Z")
        XCTAssertTrue(history.out.contains("2026-11-25  \(label) pending"), "not \"not marked\": \(history.out)")
        let json = try cli.json(["today"], at: "2026-11-26T06:00:30Z")
        XCTAssertEqual(json["yesterdays"] as? Bool, true, "\(json)")
        XCTAssertEqual((json["fix"] as? [String: Any])?["number"] as? Int, number)
        XCTAssertNotNil(json["daily"], "today's fix behind it")
        let today = try cli.run(["today"], at: "2026-11-26T06:01:00Z")
        XCTAssertTrue(today.out.hasPrefix("YESTERDAY'S FIX // its timer ran out after midnight, first"), today.out)
        XCTAssertTrue(today.out.contains("TODAY // 2026-11-26"), "today's fix under it: \(today.out)")
        let applied = try cli.run(["applied"], at: "2026-11-26T06:05:00Z", stdin: "")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.out.contains("FIX APPLIED  \(label)"), applied.out)
        let export = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let completions = try XCTUnwrap(export["completions"] as? [[String: Any]])
        let marked = try XCTUnwrap(completions.first { $0["outcome"] as? String == "applied" })
        let data = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(marked["outcomeData"] as? String)))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"timerCompleted":true}"#)
        // Its own day had a fix: not a rest day, now that the fix counts on the day it was marked.
        let after = try cli.run(["history", "--days", "2"], at: "2026-11-26T06:06:00Z")
        XCTAssertTrue(after.out.contains("2026-11-25  opened, its fix marked on a later day"), after.out)
        XCTAssertEqual(try cli.run(["build", "--out", cli.workdir + "/site"], at: "2026-11-26T06:07:00Z").status, 0)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W48/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("Its fix was marked on a later day."), week)
        XCTAssertFalse(week.contains("Rest day."), week)
        let graph = try String(contentsOfFile: cli.workdir + "/site/history/index.html", encoding: .utf8)
        XCTAssertTrue(graph.contains("2026-11-25: opened, its fix marked on a later day"), graph)
        // Then today's own fix is the one to mark.
        let next = try cli.run(["applied"], at: "2026-11-26T06:10:00Z", stdin: "")
        XCTAssertEqual(next.status, 0, next.err)
        XCTAssertFalse(next.out.contains(label), next.out)
        // A fix whose timer ran out on its own day is over at midnight, as before.
        XCTAssertEqual(try cli.run(["today"], at: "2026-11-27T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["timer", "--seconds", "1"], at: "2026-11-27T08:00:00Z").status, 0)
        let closed = try cli.run(["applied"], at: "2026-11-28T08:00:00Z", stdin: "")
        XCTAssertTrue(closed.err.contains("closed unmarked at midnight"), closed.err)
    }

    /// A crash after midnight behind yesterday's fix whose timer ran out then: `today` names all
    /// three in the order the outcome commands take them. It said "the quick fix first, then this
    /// one", and the second outcome, meant for today's fix, marked yesterday's (helper 108).
    func test_timer_aQuickFixBeforeYesterdaysTimedFixIsSaidInOrder() throws {
        let cli = try started(timedOnly: true)
        let lateEvening = "2026-11-25T22:59:58Z"  // 23:59:58 local
        let given = try cli.json(["today"], at: lateEvening)
        let label = String(format: "FIX #%03d", try XCTUnwrap((given["fix"] as? [String: Any])?["number"] as? Int))
        XCTAssertEqual(try cli.run(["timer", "--seconds", "3"], at: lateEvening).status, 0)
        XCTAssertEqual(try cli.run(["crash", "-m", "Late."], at: "2026-11-25T23:02:00Z").status, 0)
        let today = try cli.run(["today"], at: "2026-11-25T23:03:00Z")
        let said = today.out.split(separator: "\n").map { $0.hasPrefix("// ") ? String($0.dropFirst(3)) : String($0) }.joined(separator: " ")
        XCTAssertTrue(said.contains("The outcome commands mark them in this order: FIX #") && said.contains(", \(label), then this one."), today.out)
        XCTAssertTrue(today.out.contains("YESTERDAY'S FIX // its timer ran out after midnight, second"), today.out)
    }

    /// A crash's quick fix comes before the day's timed fix, and `timer` says so, naming both (it
    /// said the quick fix "is a standard fix; it has no timer" while `today` showed the day's
    /// fix under it with "`egofix timer` runs it").
    func test_timer_behindACrashsQuickFixSaysWhatComesFirst() throws {
        let cli = try CLI()
        let data = try Data(contentsOf: Self.repoRoot.appendingPathComponent("Seeds/fixes.json"))
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let kept = all.filter {
            $0["type"] as? String == "quickFix" ? $0["interactionType"] as? String != "timed" : $0["interactionType"] as? String == "timed"
        }
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Seeds", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: cli.workdir + "/Seeds/fixes.json"))
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-24T08:00:00Z").status, 0)
        let given = try cli.json(["today"], at: wednesdayMorning)
        let daily = try XCTUnwrap((given["fix"] as? [String: Any])?["number"] as? Int)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right", "-m", "Again."], at: wednesdayMorning).status, 0)
        let card = try cli.json(["today"], at: wednesdayMorning)
        let quick = try XCTUnwrap((card["fix"] as? [String: Any])?["number"] as? Int)
        let r = try cli.run(["timer"], at: wednesdayMorning)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.err, String(format: "egofix: FIX #%03d, the quick fix a crash queued, comes first: mark it (`egofix applied`, skipped or failed), "
                                     + "then `egofix timer` runs FIX #%03d's timer. Nothing to run yet.\n", quick, daily))
    }

    /// A countdown from ten minutes: "10:00" to "9:59" is a character shorter, and each redraw
    /// left the longer frame's last letter behind ("9:59 leftt") for the whole run.
    func test_timer_aShorterClockLeavesNothingOfTheLongerFrameBehind() throws {
        let cli = try timedFixGiven()
        let r = try cli.runInTerminal(["timer", "--seconds", "600"], at: wednesdayMorning, input: "", later: "\u{03}", after: 2.5)
        XCTAssertTrue(r.out.contains("] 10:00 left\r"), r.out)
        // Padded to the first frame's width (the transcript is the bytes, not the screen).
        XCTAssertTrue(r.out.contains("] 9:59 left \r") || r.out.contains("] 9:59 left \n"), r.out)
        XCTAssertTrue(r.out.contains("Nothing recorded."), r.out)
    }

    /// Ctrl-C at the timer's question, after its countdown: the timer is recorded and the fix
    /// left open, and it says so (the keystroke was swallowed and the question waited on).
    func test_timer_ctrlCAtItsQuestionLeavesTheFixOpen() throws {
        let cli = try timedFixGiven()
        let r = try cli.runInTerminal(["timer", "--seconds", "1"], at: wednesdayMorning, input: "", later: "\u{03}", after: 3)
        XCTAssertTrue(r.out.contains("Stopped. The timer is recorded;"), r.out)
        XCTAssertTrue(r.out.contains(" is left open"), r.out)
        XCTAssertTrue(String(decoding: try cli.export(), as: UTF8.self).contains("\"timerCompleted\""))
    }

    /// Ctrl-C between the timer's countdown and its question (the desktop notification takes
    /// its time) ends the command, as Ctrl-C does where nothing asks (it was held on a dispatch
    /// thread that blocks signals, never delivered, and the question was asked anyway).
    func test_timer_ctrlCWhileTheNotificationIsSentEndsIt() throws {
        let cli = try timedFixGiven()
        let bin = cli.workdir + "/slowbin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: bin + "/notify-send", contents: Data("#!/bin/sh\nsleep 4\n".utf8), attributes: [.posixPermissions: 0o755])
        let r = try cli.runInTerminal(["timer", "--seconds", "1"], at: wednesdayMorning, input: "", later: "\u{03}", after: 2.5,
                                      env: ["PATH": bin + ":/usr/bin:/bin"])
        XCTAssertFalse(r.out.contains("Applied, skipped or failed?"), r.out)
    }

    /// On a terminal (a pseudo-terminal from util-linux's `script`, when there is one): the bar.
    func test_timer_showsABarOnATerminal() throws {
        let cli = try timedFixGiven()
        let command = [CLI.binary.path, "timer", "--seconds", "2", "--store", cli.store, "--now", wednesdayMorning]
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let r = try cli.run(["-qec", command, "/dev/null"], env: [:], executable: "/usr/bin/script")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("\r[------------------------------] 0:02 left"), r.out)
        XCTAssertTrue(r.out.contains("\r[##############################] 0:00 left"), r.out)
        XCTAssertTrue(r.out.contains("\u{7}Timer complete. How did it go?"), r.out)
    }

    /// In a terminal, the timer asks for the outcome and a reflection at its end; both are
    /// recorded (answering printed an internal error and lost them), and an answer that is none
    /// of a, s or f is asked again.
    func test_timer_outcomeAskedAtTheEndIsRecorded() throws {
        let cli = try timedFixGiven()
        // Enter pressed during the countdown is dropped (it answered "leave it open"); the
        // answers are typed once the questions are asked.
        let r = try cli.runInTerminal(["timer", "--seconds", "1"], at: wednesdayMorning, input: "\n",
                                      later: "x\na\nWrote it, did not send it.\n", after: 2.5)
        let out = r.out
        XCTAssertEqual(r.status, 0, out)
        XCTAssertEqual(out.components(separatedBy: "Applied, skipped or failed?").count - 1, 2, "asked again after 'x': \(out)")
        XCTAssertTrue(out.contains("a, s or f, or enter to leave it open"), "and says what it takes: \(out)")
        XCTAssertFalse(out.contains("parsable argument"), out)
        let export = String(decoding: try cli.export(), as: UTF8.self)
        XCTAssertTrue(export.contains("Wrote it, did not send it."), export)
        XCTAssertTrue(export.contains("\"outcome\" : \"applied\""), export)
    }

    /// A reflection typed at the timer's question, after which the outcome is refused (a crash
    /// logged in another terminal while the question waited made a quick fix the one to mark):
    /// the text existed nowhere else, so it is kept in a private file the error names.
    func test_timer_aTypedReflectionTheOutcomeRefusesIsKept() throws {
        let cli = try timedFixGiven()
        func quoted(_ args: [String]) -> String { args.map { "'" + $0 + "'" }.joined(separator: " ") }
        let poll = cli.workdir + "/poll.json"
        let export = quoted([CLI.binary.path, "export", poll, "--store", cli.store])
        let crash = quoted([CLI.binary.path, "crash", "need-to-be-right", "--note", "Another terminal.", "--store", cli.store, "--now", wednesdayMorning])
        // Once the countdown's end is recorded, the other terminal logs a crash.
        let other = "(until rm -f '\(poll)'; \(export) >/dev/null 2>&1 && grep -q timerCompleted '\(poll)'; do sleep 0.1; done; "
            + "\(crash) </dev/null >/dev/null 2>&1) & true"
        let r = try cli.runInTerminal(["timer", "--seconds", "1"], at: wednesdayMorning, input: "",
                                      later: "a\nWrote it, did not send it.\n", after: 4, before: other)
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.out.contains("the fix to mark changed while the question waited: it is FIX #"), r.out)
        XCTAssertTrue(r.out.contains("The outcome is not recorded; the timer is. `egofix applied` marks FIX #"), r.out)
        XCTAssertFalse(r.out.contains("--timer-done"), r.out)
        let path = try XCTUnwrap(r.out.range(of: "The reflection is kept in (\\S+)\\.", options: .regularExpression)
            .map { String(r.out[$0].dropFirst("The reflection is kept in ".count).dropLast()) }, r.out)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "Wrote it, did not send it.")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertFalse(String(decoding: try cli.export(), as: UTF8.self).contains("Wrote it, did not send it."), "not recorded")
    }

    /// A reflection typed at the timer's question that is only invisible characters (a zero width
    /// space, a word joiner) is none: the outcome is recorded without one.
    func test_timer_aReflectionOfInvisibleCharactersIsNone() throws {
        let cli = try timedFixGiven()
        let r = try cli.runInTerminal(["timer", "--seconds", "1"], at: wednesdayMorning, input: "",
                                      later: "a\n\u{200B} \u{2060}\u{FEFF}\n", after: 2.5)
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertFalse(r.out.contains("Reflection saved"), r.out)
        // Asked and answered none: not told afterwards how to add one.
        XCTAssertFalse(r.out.contains("No reflection."), r.out)
        let export = String(decoding: try cli.export(), as: UTF8.self)
        XCTAssertTrue(export.contains("\"outcome\" : \"applied\""), export)
        XCTAssertFalse(export.contains("\"reflection\" :"), export)
    }

    func test_timer_refusesAFixWithoutATimerAndCtrlCRecordsNothing() throws {
        let plain = try started()
        XCTAssertEqual(try plain.run(["today"], at: wednesdayMorning).status, 0)
        let card = try plain.run(["today", "--json"], at: wednesdayMorning).out
        if !card.contains("\"interactionType\" : \"timed\"") {
            let r = try plain.run(["timer"], at: wednesdayMorning)
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.out, "")
            XCTAssertTrue(r.err.hasPrefix("egofix: FIX #") && r.err.contains("it has no timer"), r.err)
            XCTAssertEqual(r.err.split(separator: "\n").count, 1)
        }
        let cli = try started(timedOnly: true)
        XCTAssertEqual(try cli.run(["today"], at: wednesdayMorning).status, 0)
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = ["timer", "--seconds", "60", "--store", cli.store, "--now", wednesdayMorning]
        p.environment = ["TZ": cli.zone, "NO_COLOR": "1", "HOME": cli.workdir, "PATH": "/usr/bin:/bin"]
        p.currentDirectoryURL = URL(fileURLWithPath: cli.workdir)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Interrupted once the countdown has printed its first line (Ctrl-C is caught by then).
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("left\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        XCTAssertTrue(String(decoding: seen, as: UTF8.self).hasPrefix("TIMER // "))
        Thread.sleep(forTimeInterval: 0.3)
        kill(p.processIdentifier, SIGINT)
        seen += out.fileHandleForReading.readDataToEndOfFile()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130)
        // Said as where it stopped, with the way back, not as an error.
        XCTAssertEqual(e, "")
        let said = String(decoding: seen, as: UTF8.self)
        XCTAssertTrue(said.contains("left\nStopped with ") && said.hasSuffix(" left. Nothing recorded. `egofix timer` starts it again.\n"), said)
        XCTAssertFalse(String(decoding: try cli.export(), as: UTF8.self).contains("timerCompleted"))
    }

    // MARK: systemd units

    /// systemd finds no 02:30 on the Sunday the clocks go forward and skips to Monday, where
    /// `remind` and reminders.ics take the gap's end, 03:00: the fix's reminder came with the
    /// Sunday 18:00 run, 15 hours late (helper 111). The timer runs at the gap's end too.
    func test_remindInstall_aTimeInTheSpringForwardGapAlsoRunsAtItsEnd() throws {
        let cli = try started()
        let printed = try cli.run(["remind", "--install", "--print", "--at", "02:30"], at: wednesdayMorning, env: [:])
        XCTAssertEqual(printed.status, 0, printed.err)
        XCTAssertTrue(printed.out.contains("OnCalendar=*-*-* 02:30:00 Europe/Berlin\nOnCalendar=Sun *-*-* 18:00:00 Europe/Berlin\n"
                                           + "# 02:30 is skipped on the night the clocks go forward: the gap's end, 03:00, that day (a quiet run on others).\n"
                                           + "OnCalendar=*-*-* 03:00:00 Europe/Berlin\n"), printed.out)
        let usual = try cli.run(["remind", "--install", "--print", "--at", "07:30"], at: wednesdayMorning, env: [:])
        XCTAssertFalse(usual.out.contains("clocks go forward"), usual.out)
        let zone = { (id: String) in try XCTUnwrap(TimeZone(identifier: id)) }
        let now = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-11-25T08:30:00Z"))
        for id in ["Europe/Berlin", "America/New_York", "Australia/Sydney"] {
            XCTAssertEqual(SystemdUnits.springForwardEnd(of: ReminderTime(hour: 2, minute: 30)!, in: try zone(id), from: now)?.description, "03:00", id)
            XCTAssertNil(SystemdUnits.springForwardEnd(of: ReminderTime(hour: 3, minute: 0)!, in: try zone(id), from: now), id)
            XCTAssertNil(SystemdUnits.springForwardEnd(of: ReminderTime(hour: 1, minute: 59)!, in: try zone(id), from: now), id)
        }
        // Lord Howe goes forward by half an hour; Tokyo not at all.
        XCTAssertEqual(SystemdUnits.springForwardEnd(of: ReminderTime(hour: 2, minute: 10)!, in: try zone("Australia/Lord_Howe"), from: now)?.description, "02:30")
        XCTAssertNil(SystemdUnits.springForwardEnd(of: ReminderTime(hour: 2, minute: 30)!, in: try zone("Asia/Tokyo"), from: now))
    }

    func test_remindInstall_writesUnitsThatVerifyAndUninstallRemovesThem() throws {
        let cli = try started()
        let config = cli.workdir + "/config"
        let env = ["XDG_CONFIG_HOME": config]
        let printed = try cli.run(["remind", "--install", "--print", "--at", "07:30"], env: env)
        XCTAssertEqual(printed.status, 0, printed.err)
        // The timer's time goes to the command it runs: the reminder it fires is due from 07:30.
        XCTAssertTrue(printed.out.contains("ExecStart=\"\(CLI.binary.resolvingSymlinksInPath().path)\" \"remind\" \"--notify\" \"--store\" \"\(cli.store)\" \"--at\" \"07:30\""), printed.out)
        XCTAssertTrue(printed.out.contains("OnCalendar=*-*-* 07:30:00 Europe/Berlin\nOnCalendar=Sun *-*-* 18:00:00 Europe/Berlin\n"), printed.out)
        // The zone TZ named goes to the service too: systemd's user manager runs it without the
        // shell's TZ, and remind, run in the system's zone, said nothing at 09:00 in Berlin.
        XCTAssertTrue(printed.out.contains("\nEnvironment=\"TZ=Europe/Berlin\"\n"), printed.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config + "/systemd/user"), "--print writes nothing")

        let r = try cli.run(["remind", "--install"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out.split(separator: "\n").last, "systemctl --user enable --now egofix-remind.timer")
        let folder = config + "/systemd/user"
        let units = [folder + "/egofix-remind.service", folder + "/egofix-remind.timer"]
        for u in units { XCTAssertTrue(FileManager.default.fileExists(atPath: u), u) }
        XCTAssertTrue(try String(contentsOfFile: units[1], encoding: .utf8).contains("OnCalendar=*-*-* 09:00:00 Europe/Berlin"))
        // This user's alone: the units name the store; the folders they are in, made under any
        // umask or left loose by an earlier egofix, are writable by no other account (which could
        // put its own unit there for this user's systemd to run).
        for u in units { XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: u)[.posixPermissions] as? Int, 0o600, u) }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int, 0o700)
        let loose = cli.workdir + "/loose"
        try FileManager.default.createDirectory(atPath: loose + "/systemd/user", withIntermediateDirectories: true)
        for f in [loose + "/systemd", loose + "/systemd/user"] { XCTAssertEqual(chmod(f, 0o777), 0) }
        XCTAssertEqual(try cli.run(["remind", "--install"], env: ["XDG_CONFIG_HOME": loose]).status, 0)
        for f in [loose + "/systemd", loose + "/systemd/user"] {
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: f)[.posixPermissions] as? Int, 0o755, f)
        }
        // The same units again say nothing of replacing; another time (or store) says they were
        // replaced (one reminder per user: it replaced them without a word).
        XCTAssertFalse(try cli.run(["remind", "--install"], env: env).out.contains("replace"))
        let moved = try cli.run(["remind", "--install", "--at", "07:30"], env: env)
        XCTAssertTrue(moved.out.contains("They replace the units that were there, which reminded this store at another time or in another zone"), moved.out)
        XCTAssertEqual(try cli.run(["remind", "--install"], env: env).status, 0)

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let runtime = cli.workdir + "/runtime"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let v = try cli.run(["--user", "verify"] + units, env: ["XDG_RUNTIME_DIR": runtime], executable: "/usr/bin/systemd-analyze")
            XCTAssertEqual(v.status, 0, v.err)
            XCTAssertEqual(v.err, "", "systemd-analyze reports no problem, not even one it ignores")
        }

        // A time with --uninstall is refused (it was taken silently, as if it chose what to remove).
        let timed = try cli.run(["remind", "--uninstall", "--at", "07:30"], env: env)
        XCTAssertEqual(timed.status, 64, "the command line itself: \(timed.out)")
        XCTAssertTrue(timed.err.contains("--at sets a time; --uninstall removes the units whatever their time."), timed.err)
        for u in units { XCTAssertTrue(FileManager.default.fileExists(atPath: u), "refused, yet removed \(u)") }
        let gone = try cli.run(["remind", "--uninstall"], env: env)
        XCTAssertEqual(gone.status, 0, gone.err)
        for u in units { XCTAssertFalse(FileManager.default.fileExists(atPath: u), u) }
        XCTAssertTrue(try cli.run(["remind", "--uninstall"], env: env).out.contains("Nothing removed."))
        let wrong = try cli.run(["remind", "--install", "--at", "25:00"], env: env)
        XCTAssertEqual(wrong.status, 64, "the command line itself")
        XCTAssertEqual(wrong.err, "egofix: --at '25:00' is not a time of day. Use HH:MM, such as 09:00 or 18:30.\n")
        // What that unit runs at 07:30 (08:30 local is before the default 09:00) names the fix.
        let early = try cli.run(["remind", "--at", "07:30"], at: wednesdayEarly)
        XCTAssertEqual(early.status, 0, early.err)
        XCTAssertTrue(early.out.hasPrefix("Fix #"), early.out)
        XCTAssertEqual(try cli.run(["remind", "--print"]).status, 64, "--print goes with --install: the command line itself")
    }

    /// The units keep what they were written with. The service read remind_at from egofix.toml
    /// while the timer kept the old time: moved to 10:00 without a new install, the 09:00 run
    /// found nothing due and no run came at 10:00, so the day's reminder never came. The service
    /// now runs with the timer's time, and the install says to run it again after a change.
    func test_remindInstall_theServiceRunsAtTheTimersTimeAndNamesTheStoreItReplaces() throws {
        let cli = try started()
        let config = cli.workdir + "/config"
        let env = ["XDG_CONFIG_HOME": config]
        let service = config + "/systemd/user/egofix-remind.service"
        let r = try cli.run(["remind", "--install"], env: env)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("after changing remind_at, time_zone or store, run `egofix remind --install` again."), r.out)
        XCTAssertTrue(try String(contentsOfFile: service, encoding: .utf8).contains("\"--store\" \"\(cli.store)\" \"--at\" \"09:00\""))
        try "remind_at = \"10:00\"\n".write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        let at9 = try cli.run(["remind", "--at", "09:00"], at: "2026-11-25T08:00:30Z")
        XCTAssertTrue(at9.out.hasPrefix("Fix #"), "what the 09:00 unit runs finds the fix due: \(at9.out)")

        // Another store's install takes the one reminder over, and says which store it reminded.
        let other = cli.workdir + "/other $x%y.sqlite"
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right", "--store", other], at: "2026-11-25T07:00:00Z").status, 0)
        let moved = try cli.run(["remind", "--install", "--store", other], env: env)
        XCTAssertTrue(moved.out.contains("They replace the units that were there, which reminded another store, \(cli.store) (one reminder per user)."), moved.out)
        let back = try cli.run(["remind", "--install"], env: env)
        XCTAssertTrue(back.out.contains("which reminded another store, \(other) (one reminder per user)."), back.out)
        // The shell's XDG_STATE_HOME goes to the service: what a terminal was told is not sent again.
        let state = cli.workdir + "/state"
        XCTAssertEqual(try cli.run(["remind", "--install"], env: env.merging(["XDG_STATE_HOME": state]) { $1 }).status, 0)
        XCTAssertTrue(try String(contentsOfFile: service, encoding: .utf8).contains("Environment=\"XDG_STATE_HOME=\(state)\""))
    }

    /// A TZ offset with no zone name (`UTC-5:30`, India's offset as POSIX writes it) became the
    /// zone "GMT+0530", which systemd does not read in OnCalendar (the timer never ran) and the
    /// C library reads as west. The timer now runs at the same instants in UTC, and the service
    /// gets TZ in POSIX's form.
    func test_remindInstall_anOffsetWithoutAZoneNameRunsInUTC() throws {
        let cli = try started()
        let config = cli.workdir + "/config"
        for (tz, daily, sunday, posix) in [("UTC-5:30", "*-*-* 03:30:00 UTC", "Sun *-*-* 12:30:00 UTC", "<+0530>-5:30"),
                                           ("<-0930>9:30", "*-*-* 18:30:00 UTC", "Mon *-*-* 03:30:00 UTC", "<-0930>9:30")] {
            let r = try cli.run(["remind", "--install"], env: ["XDG_CONFIG_HOME": config, "TZ": tz])
            XCTAssertEqual(r.status, 0, r.err)
            let timer = try String(contentsOfFile: config + "/systemd/user/egofix-remind.timer", encoding: .utf8)
            XCTAssertTrue(timer.contains("OnCalendar=\(daily)\nOnCalendar=\(sunday)\n"), timer)
            let service = try String(contentsOfFile: config + "/systemd/user/egofix-remind.service", encoding: .utf8)
            XCTAssertTrue(service.contains("Environment=\"TZ=\(posix)\""), service)
            // The service's TZ is the same zone to egofix: 09:00 there is the fix's time.
            let due = try cli.run(["remind"], at: tz == "UTC-5:30" ? "2026-11-25T03:30:30Z" : "2026-11-25T18:30:30Z", env: ["TZ": posix])
            XCTAssertTrue(due.out.hasPrefix("Fix #"), due.out + due.err)
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
                for spec in [daily, sunday] {
                    XCTAssertEqual(try cli.run(["calendar", spec], env: [:], executable: "/usr/bin/systemd-analyze").status, 0, spec)
                }
            }
        }
    }

    // MARK: reminders.ics

    func test_build_writesTheSameRemindersCalendarTwiceOutsideShareLinkedFromTheDashboard() throws {
        let cli = try started()
        var bytes: [Data] = []
        for out in ["a", "b"] {
            let r = try cli.run(["build", "--out", cli.workdir + "/" + out], at: out == "a" ? wednesdayEarly : "2026-11-25T22:00:00Z")
            XCTAssertEqual(r.status, 0, r.err)
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: cli.workdir + "/" + out + "/reminders.ics")))
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/" + out + "/share/reminders.ics"))
        }
        XCTAssertEqual(bytes[0], bytes[1], "two builds on the same local day give the same bytes")
        let text = String(decoding: bytes[0], as: UTF8.self)
        XCTAssertTrue(text.contains("DTSTAMP:20261124T230000Z"), "the build's local day, not its instant")
        let dashboard = try String(contentsOfFile: cli.workdir + "/a/index.html", encoding: .utf8)
        XCTAssertTrue(dashboard.contains("href=\"reminders.ics\""))
        let how = try String(contentsOfFile: cli.workdir + "/a/how/index.html", encoding: .utf8)
        XCTAssertTrue(how.contains("Still running smoothly?"))
    }

    /// Once every fix that fits had its turn lately, days are rest days: `today` says REST DAY and
    /// `remind` says nothing of a fix, but reminders.ics still said "the day's fix is ready" on
    /// each of them, today's included (helper 111). A catalogue of two daily fixes, both applied.
    func test_build_theCalendarAnnouncesNoFixOnARestDay() throws {
        let cli = try CLI()
        let data = try Data(contentsOf: Self.repoRoot.appendingPathComponent("Seeds/fixes.json"))
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let bugs = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.repoRoot.appendingPathComponent("Seeds/bugs.json"))) as? [[String: Any]])
        let right = try XCTUnwrap(bugs.first { $0["slug"] as? String == "need-to-be-right" }?["id"] as? String)
        let kept = Array(all.filter { $0["bugId"] as? String == right && $0["type"] as? String == "daily" && $0["interactionType"] as? String == "standard" }.prefix(2))
        XCTAssertEqual(kept.count, 2)
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Seeds", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: cli.workdir + "/Seeds/fixes.json"))
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-23T08:00:00Z").status, 0)
        for day in ["2026-11-23", "2026-11-24"] {
            XCTAssertEqual(try cli.run(["applied"], at: day + "T12:00:00Z", stdin: "").status, 0, day)
        }
        let today = try cli.run(["today"], at: "2026-11-25T07:00:00Z")
        XCTAssertTrue(today.out.hasPrefix("REST DAY"), today.out)
        XCTAssertFalse(try cli.run(["remind"], at: "2026-11-25T09:00:00Z").out.contains("is ready"))
        XCTAssertEqual(try cli.run(["build", "--out", cli.workdir + "/site"], at: "2026-11-25T07:05:00Z").status, 0)
        let ics = try String(contentsOfFile: cli.workdir + "/site/reminders.ics", encoding: .utf8).replacingOccurrences(of: "\r\n ", with: "")
        XCTAssertFalse(ics.contains("UID:egofix-dailyFix-2026-11-25"), "today is a rest day")
        // Both fixes come back 90 days after they were applied: the calendar's 28 days hold none.
        XCTAssertFalse(ics.contains("UID:egofix-dailyFix-"), ics)
        XCTAssertTrue(ics.contains("UID:egofix-diagnostic-2026-11-29"), "the diagnostic stays")
    }
}

extension CLI {
    /// Another program (`script`, `systemd-analyze`) run the way `run` runs egofix: in the
    /// workdir, with the same small environment.
    func run(_ args: [String], env extra: [String: String], executable: String) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        var env = ["TZ": zone, "NO_COLOR": "1", "HOME": workdir, "PATH": "/usr/bin:/bin", "LANG": "C"]
        for (k, v) in extra { env[k] = v }
        p.environment = env
        p.currentDirectoryURL = URL(fileURLWithPath: workdir)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }
}
