import Foundation
import EgoFixCore
import XCTest

/// `egofix sync DIR` and `egofix init --from DIR` through the real binary: two machines are two
/// stores (two workdirs) sharing one folder.
final class SyncCommandTests: XCTestCase {
    func shared(_ cli: CLI) throws -> String {
        let dir = cli.workdir + "/shared"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Machine A starts a practice on 2026-03-02 at 08:00 UTC (in `zone`) and syncs; machine B joins it.
    func joined(zone: String = "UTC") throws -> (CLI, CLI, String) {
        let a = try CLI(zone: zone), b = try CLI(zone: zone)
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T08:01:00Z").status, 0)
        XCTAssertEqual(try b.run(["init", "--from", dir], at: "2026-03-02T08:02:00Z").status, 0)
        return (a, b, dir)
    }

    /// The live outcome events (applied, skipped, failed) of 2026-03-03 in a machine's export, by type.
    func outcomeEvents(_ m: CLI) throws -> [String] {
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try m.export()) as? [String: Any])
        return ((doc["events"] as? [[String: Any]]) ?? []).filter {
            $0["deletedAt"] == nil && ($0["timestamp"] as? String)?.hasPrefix("2026-03-03") == true
        }.compactMap { $0["eventType"] as? String }.filter { ["fixApplied", "fixSkipped", "fixFailed"].contains($0) }
    }

    /// The day's fix marked on two machines: the same-day rule keeps one mark, and the other's
    /// outcome event goes with it. Both events stayed live, and the patterns read two outcomes
    /// for the day (an application and a skip).
    func test_sync_cli_aMarkThatLostTheSameDayRuleLeavesNoOutcomeForThePatterns() throws {
        let (a, b, dir) = try joined()
        XCTAssertEqual(try a.run(["today"], at: "2026-03-03T09:00:00Z").status, 0)
        XCTAssertEqual(try b.run(["today"], at: "2026-03-03T09:01:00Z").status, 0)
        XCTAssertEqual(try a.mark("applied", at: "2026-03-03T10:00:00Z", message: "on applied").status, 0)
        XCTAssertEqual(try b.mark("skipped", at: "2026-03-03T11:00:00Z", message: "on skipped").status, 0)
        for (m, t) in [(a, "12:00"), (b, "12:01"), (a, "12:02")] {
            XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-03T\(t):00Z").status, 0)
        }
        for m in [a, b] {
            let history = try m.json(["history", "--days", "1"], at: "2026-03-03T12:05:00Z")
            let kept = (((history["days"] as? [[String: Any]])?.last?["fixes"] as? [[String: Any]]) ?? []).compactMap { $0["outcome"] as? String }
            XCTAssertEqual(kept.count, 1, "\(history)")
            XCTAssertEqual(try outcomeEvents(m), kept.map { "fix" + $0.prefix(1).uppercased() + $0.dropFirst() })
        }
    }

    /// One fix given, synced, then marked on both machines without a word: the later mark wins
    /// and the other keeps no record, so its outcome event stayed live and the patterns counted
    /// both ("5 of your last 9 fixes were skipped" where history showed 1 skip).
    func test_sync_cli_aMarkThatLostToTheSameCompletionLeavesNoOutcomeForThePatterns() throws {
        let (a, b, dir) = try joined()
        XCTAssertEqual(try a.run(["today"], at: "2026-03-03T09:00:00Z").status, 0)
        for (m, t) in [(a, "09:01"), (b, "09:02")] { XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-03T\(t):00Z").status, 0) }
        XCTAssertEqual(try a.mark("skipped", at: "2026-03-03T10:00:00Z").status, 0)
        XCTAssertEqual(try b.mark("applied", at: "2026-03-03T11:00:00Z").status, 0)
        for (m, t) in [(a, "12:00"), (b, "12:01"), (a, "12:02"), (b, "12:03")] {
            XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-03T\(t):00Z").status, 0)
        }
        for m in [a, b] { XCTAssertEqual(try outcomeEvents(m), ["fixApplied"]) }
    }

    /// A version is dated when the fix that reaches it was marked, whichever machine marked it:
    /// the entry of the machine that counted its own 7th later stayed, and the changelog dated
    /// v1.1 after the last fix listed under v1.0.
    func test_sync_cli_aVersionIsDatedWhenItsSeventhFixWasMarked() throws {
        let (a, b, dir) = try joined()
        func day(_ m: CLI, _ d: Int) throws {
            let at = String(format: "2026-03-%02dT", d)
            XCTAssertEqual(try m.run(["today"], at: at + "09:00:00Z").status, 0)
            XCTAssertEqual(try m.mark("applied", at: at + "19:00:00Z").status, 0)
        }
        for d in 3...5 { try day(a, d) }
        for (m, t) in [(a, "20:00"), (b, "20:01")] { XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-05T\(t):00Z").status, 0) }
        for d in 6...8 { try day(b, d) }
        try day(a, 9)   // the 7th of the merged record
        try day(b, 10)  // B's own 7th: B made its v1.1 entry now
        for (m, t) in [(a, "20:00"), (b, "20:01"), (a, "20:02")] { XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-10T\(t):00Z").status, 0) }
        for m in [a, b] {
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try m.export()) as? [String: Any])
            let live = ((doc["versions"] as? [[String: Any]]) ?? []).filter { $0["version"] as? String == "1.1" && $0["deletedAt"] == nil }
            XCTAssertEqual(live.compactMap { ($0["createdAt"] as? String)?.prefix(10) }, ["2026-03-09"], "\(live)")
        }
    }

    /// A folder that is not there is made (a new shared folder, or a typo): the sync says so,
    /// once; the next sync into it does not.
    /// One week rated on two machines: the sync keeps the first rating done (present), while the
    /// other machine's quiet one had made the bug stable there. The bug stayed stable on both, on
    /// quiet, quiet, present, and got no fixes.
    func test_sync_cli_aWeekRatedOnTwoMachinesLeavesNoStabilityItsKeptRatingDoesNotGive() throws {
        let (a, b, dir) = try joined()
        for at in ["2026-03-22T19:00:00Z", "2026-03-29T19:00:00Z"] {
            XCTAssertEqual(try a.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: at).status, 0)
        }
        for (m, t) in [(a, "2026-03-29T19:05:00Z"), (b, "2026-03-29T19:06:00Z")] { XCTAssertEqual(try m.run(["sync", dir], at: t).status, 0) }
        // Sunday 5 April, past the bug's 28th active day: present on A first, quiet on B after.
        XCTAssertEqual(try a.run(["diagnostic", "--rate", "need-to-be-right=present@work"], at: "2026-04-05T19:00:00Z").status, 0)
        let quiet = try b.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-04-05T19:30:00Z")
        XCTAssertTrue(quiet.out.contains("stable"), "B made the bug stable, as the scenario needs: \(quiet.out)")
        for (m, t) in [(a, "20:00"), (b, "20:01"), (a, "20:02")] { XCTAssertEqual(try m.run(["sync", dir], at: "2026-04-05T\(t):00Z").status, 0) }
        for m in [a, b] {
            let bugs = try m.run(["bugs", "--json"], at: "2026-04-05T20:05:00Z").out
            XCTAssertFalse(bugs.contains("\"stable\""), bugs)
        }
        XCTAssertEqual(try a.export(), try b.export())
    }

    /// A bug made stable on one machine before the other's present week reached it (nothing
    /// deleted, only unseen): the kept ratings are quiet, quiet, present, quiet, so not stable.
    func test_sync_cli_aBugMadeStableBeforeAnotherMachinesWeekArrivedIsPutBack() throws {
        let (a, b, dir) = try CLI.twoMachines(bug: "need-to-be-busy", begun: "2026-09-01T09:00:00+02:00",
                                              quiet: ["2026-09-13T19:00:00+02:00", "2026-09-20T19:00:00+02:00"],
                                              synced: "2026-09-21T09:00:00+02:00", joined: "2026-09-21T09:05:00+02:00")
        XCTAssertEqual(try a.run(["diagnostic", "--rate", "need-to-be-busy=present@work"], at: "2026-09-27T19:00:00+02:00").status, 0)
        let quiet = try b.run(["diagnostic", "--rate", "need-to-be-busy=quiet"], at: "2026-10-04T19:00:00+02:00")
        XCTAssertTrue(quiet.out.contains("stable"), "B made the bug stable, as the scenario needs: \(quiet.out)")
        try CLI.syncInTurn(a, b, folder: dir, at: ["09:10", "09:11", "09:12", "09:13"].map { "2026-10-05T\($0):00+02:00" })
        try CLI.assertAgree(a, b, folder: dir, bugsAt: "2026-10-05T10:00:00+02:00", syncAt: "2026-10-05T10:01:00+02:00") { bugs in
            XCTAssertFalse(bugs.contains { $0["status"] as? String == "stable" }, "\(bugs)")
        }
    }

    /// Three quiet weeks in a row, rated on two machines, neither of which saw all three before a
    /// present week was rated: on one machine the bug was stable from the third quiet week, and a
    /// present week does not end a stability. The merge kept it active on both, on quiet, quiet,
    /// quiet, present.
    func test_sync_cli_aRunOfQuietWeeksSplitBetweenTwoMachinesMakesTheBugStable() throws {
        let (a, b, dir) = try CLI.twoMachines(bug: "need-to-be-busy", begun: "2026-08-20T09:00:00+02:00",
                                              quiet: ["2026-09-06T19:00:00+02:00"],
                                              synced: "2026-09-07T09:00:00+02:00", joined: "2026-09-07T09:05:00+02:00")
        XCTAssertEqual(try a.run(["diagnostic", "--rate", "need-to-be-busy=quiet"], at: "2026-09-13T19:00:00+02:00").status, 0)
        XCTAssertEqual(try b.run(["diagnostic", "--rate", "need-to-be-busy=quiet"], at: "2026-09-20T19:00:00+02:00").status, 0)
        let present = try a.run(["diagnostic", "--rate", "need-to-be-busy=present@work"], at: "2026-09-27T19:00:00+02:00")
        XCTAssertEqual(present.status, 0)
        XCTAssertFalse(present.out.contains("stable"), "A saw no run of three, as the scenario needs: \(present.out)")
        try CLI.syncInTurn(a, b, folder: dir, at: ["09:10", "09:11", "09:12", "09:13"].map { "2026-09-28T\($0):00+02:00" })
        try CLI.assertAgree(a, b, folder: dir, bugsAt: "2026-09-28T10:00:00+02:00", syncAt: "2026-09-28T10:01:00+02:00") { bugs in
            let busy = try XCTUnwrap(bugs.first { $0["slug"] as? String == "need-to-be-busy" })
            XCTAssertEqual(busy["status"] as? String, "stable", "\(busy)")
            XCTAssertEqual(busy["stableSince"] as? String, "2026-09-20T17:00:00.000Z", "from the third quiet week: \(busy)")
        }
    }

    func test_sync_cli_aFolderItMadeIsSaid() throws {
        let a = try CLI()
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let dir = a.workdir + "/Sync-new"
        let first = try a.run(["sync", dir], at: "2026-03-02T08:05:00+01:00")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.hasPrefix("Made \(dir): it was not there. No other machine has written to it yet.\nSynced with \(dir)"), first.out)
        let second = try a.run(["sync", dir], at: "2026-03-02T08:06:00+01:00")
        XCTAssertTrue(second.out.hasPrefix("Synced with \(dir)"), second.out)
    }

    /// A machine whose clock ran a year ahead once (a crash recorded in 2027): the other machine
    /// still merges its file, and its export imports into an empty store. Before, the whole file
    /// was skipped and the export refused, for one record a command had acknowledged.
    func test_sync_cli_aRecordFromAClockThatRanAheadStillSyncsAndImports() throws {
        let laptop = try CLI(), desktop = try CLI()
        let dir = try shared(laptop)
        XCTAssertEqual(try laptop.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try laptop.run(["sync", dir], at: "2026-03-02T09:00:00Z").status, 0)
        XCTAssertEqual(try desktop.run(["init", "--from", dir], at: "2026-03-02T09:05:00Z").status, 0)
        XCTAssertEqual(try desktop.run(["crash", "-m", "clock glitch"], at: "2027-03-02T09:00:00Z").status, 0)
        XCTAssertEqual(try desktop.run(["applied", "-m", "real day"], at: "2026-03-03T19:00:00Z").status, 0)
        XCTAssertEqual(try desktop.run(["sync", dir], at: "2026-03-03T20:00:00Z").status, 0)
        let merged = try laptop.run(["sync", dir], at: "2026-03-03T21:00:00Z")
        XCTAssertEqual(merged.status, 0, merged.err)
        XCTAssertEqual(merged.err, "", "a warning: the file was skipped")
        XCTAssertEqual(try laptop.export(), try desktop.export(), "the machines did not converge")
        let restored = try CLI()
        let path = restored.workdir + "/desktop.json"
        XCTAssertEqual(try desktop.run(["export", path], at: "2026-03-03T21:00:00Z").status, 0)
        let imported = try restored.run(["import", path], at: "2026-03-03T21:00:00Z")
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertEqual(try restored.export(), try desktop.export())
    }

    /// A device file given to `import` (after a lost laptop, say) is refused as what it is, with
    /// the command that joins from the folder.
    func test_sync_cli_importOfADeviceFileSaysToJoinInstead() throws {
        let a = try CLI(), b = try CLI()
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T08:05:00+01:00").status, 0)
        let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".json") })
        let r = try b.run(["import", dir + "/" + file], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("a sync folder's device file, not an export; `egofix sync DIR` merges the folder into a store, `egofix init --from DIR` joins it from a new one"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: b.store), "a refused import left a store")
    }

    /// A quick fix marked on two machines keeps the other machine's text as a note on the winner,
    /// as a daily fix does; it was left only in a superseded record, on no page and in no history.
    func test_sync_cli_aQuickFixMarkedOnTwoMachinesKeepsBothTexts() throws {
        let a = try CLI(zone: "UTC"), b = try CLI(zone: "UTC")
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["crash", "-m", "crash"], at: "2026-03-02T08:01:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T08:02:00Z").status, 0)
        XCTAssertEqual(try b.run(["init", "--from", dir], at: "2026-03-02T08:03:00Z").status, 0)
        let onA = try a.run(["applied", "-m", "TEXT-FROM-A"], at: "2026-03-02T09:00:00Z")
        XCTAssertTrue(onA.out.contains("QUICK") || onA.out.hasPrefix("FIX APPLIED"), onA.out)
        XCTAssertEqual(try b.run(["skipped", "-m", "TEXT-FROM-B"], at: "2026-03-02T10:00:00Z").status, 0)
        for m in [a, b, a] { XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-02T11:00:00Z").status, 0) }
        for m in [a, b] {
            let history = try m.run(["history", "--json"], at: "2026-03-02T11:01:00Z").out
            XCTAssertTrue(history.contains("TEXT-FROM-A") && history.contains("TEXT-FROM-B"), history)
        }
        XCTAssertEqual(try a.export(), try b.export())
    }

    /// A reflection removed with `amend -m ""` (or amended away) stays removed when the other
    /// machine marks the same fix later, before the two sync. The other machine's mark is the
    /// newer version of the first one and wins; the first version's text came back as a note
    /// "Also written on another machine", on the pages and in the history (helper 106).
    func test_sync_cli_aTextTakenBackByAnAmendStaysOutWhenTheOtherMachineMarksLater() throws {
        for (amend, kept) in [(["amend", "-m", ""], nil), (["amend", "skipped", "-m", "WHAT-I-MEANT"], "WHAT-I-MEANT")] {
            let (a, b, dir) = try joined(zone: "Europe/Berlin")
            XCTAssertEqual(try a.run(["applied", "-m", "FIRST-TEXT-TAKEN-BACK"], at: "2026-03-02T08:10:00Z").status, 0)
            XCTAssertEqual(try a.run(amend, at: "2026-03-02T08:15:00Z").status, 0)
            XCTAssertEqual(try b.run(["failed", "-m", "DESKTOP-TEXT"], at: "2026-03-02T12:00:00Z").status, 0)
            for (m, t) in [(a, "13:01:00"), (b, "13:01:30"), (a, "13:02:00")] {
                XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-02T\(t)Z").status, 0)
            }
            XCTAssertEqual(try a.export(), try b.export())
            let history = try a.run(["history", "--json", "--days", "1"], at: "2026-03-02T14:00:00Z").out
            XCTAssertFalse(history.contains("FIRST-TEXT-TAKEN-BACK"), "\(amend): \(history)")
            XCTAssertTrue(history.contains("DESKTOP-TEXT"), history)
            if let kept { XCTAssertTrue(history.contains(kept), "the amended mark's own text is kept: \(history)") }
            XCTAssertEqual(try a.run(["build", "--out", a.workdir + "/site"], at: "2026-03-02T14:00:00Z").status, 0)
            let week = try String(contentsOfFile: a.workdir + "/site/weeks/2026-W10/index.html", encoding: .utf8)
            XCTAssertFalse(week.contains("FIRST-TEXT-TAKEN-BACK"), week)
            // Still in the store, as the amend said: the export keeps the first version, deleted.
            XCTAssertTrue(String(decoding: try a.export(), as: UTF8.self).contains("FIRST-TEXT-TAKEN-BACK"))
        }
    }

    /// One quick fix marked on both machines in the same second, with a text on one of them: the
    /// stores agree after a, b, a, and the text is there once. When the textless version won the
    /// tie, the text became its note, and the next sync compared that noted version again and
    /// flipped: machine a kept its text and noted it a second time as another machine's (half the
    /// runs, by the records' random ids; six runs here).
    func test_sync_cli_aSameSecondOutcomeOnTwoMachinesConverges() throws {
        for _ in 0..<6 {
            let a = try CLI(zone: "Europe/London"), b = try CLI(zone: "Pacific/Tongatapu")
            let dir = try shared(a)
            XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-liked"], at: "2027-09-10T08:00:00Z").status, 0)
            XCTAssertEqual(try a.run(["sync", dir], at: "2027-09-10T08:00:05Z").status, 0)
            XCTAssertEqual(try b.run(["init", "--from", dir], at: "2027-09-10T08:00:10Z").status, 0)
            XCTAssertEqual(try a.run(["crash", "need-to-be-liked"], at: "2027-09-11T07:00:00Z").status, 0)
            XCTAssertEqual(try a.run(["sync", dir], at: "2027-09-11T07:01:00Z").status, 0)
            XCTAssertEqual(try b.run(["sync", dir], at: "2027-09-11T07:02:00Z").status, 0)
            XCTAssertEqual(try a.run(["skipped", "-m", "Not great. Tried anyway."], at: "2027-09-11T15:06:30Z").status, 0)
            XCTAssertEqual(try b.run(["skipped"], at: "2027-09-11T15:06:30Z").status, 0)
            for (m, t) in [(a, "16:00:00"), (b, "16:00:01"), (a, "16:00:02")] {
                XCTAssertEqual(try m.run(["sync", dir], at: "2027-09-11T\(t)Z").status, 0)
            }
            let exported = try a.export()
            XCTAssertEqual(exported, try b.export())
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: exported) as? [String: Any])
            let live = ((doc["completions"] as? [[String: Any]]) ?? []).filter { $0["deletedAt"] == nil || $0["deletedAt"] is NSNull }
            let texts = live.compactMap { $0["reflection"] as? String }
            XCTAssertEqual(texts.map { $0.components(separatedBy: "Not great. Tried anyway.").count - 1 }.reduce(0, +), 1, "\(texts)")
        }
    }

    /// A pattern type dismissed on one machine after the other viewed it: the stores agree after
    /// a, b, a. The dismissal saved today's figures over the stored finding, losing its viewing, and
    /// the two machines kept different copies of it for good.
    func test_sync_cli_aPatternDismissedOnOneMachineConverges() throws {
        let a = try CLI(zone: "Europe/Berlin"), b = try CLI(zone: "Europe/Berlin")
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T09:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T09:00:05Z").status, 0)
        XCTAssertEqual(try b.run(["init", "--from", dir], at: "2026-03-02T09:00:10Z").status, 0)
        for d in 2...21 {
            let day = String(format: "2026-03-%02d", d)
            _ = try a.run(["today"], at: day + "T10:00:00Z")
            _ = try a.run(["applied"], at: day + "T10:05:00Z")
            if [7, 14, 21].contains(d) {
                XCTAssertEqual(try a.run(["crash"], at: day + "T20:00:00Z").status, 0)
                XCTAssertEqual(try a.run(["reboot"], at: day + "T20:10:00Z").status, 0)
            }
        }
        _ = try a.run(["today"], at: "2026-03-22T10:00:00Z")
        _ = try a.run(["applied"], at: "2026-03-22T10:05:00Z")
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-22T10:10:00Z").status, 0)
        XCTAssertEqual(try b.run(["sync", dir], at: "2026-03-22T10:11:00Z").status, 0)
        XCTAssertEqual(try b.run(["crash"], at: "2026-03-28T20:00:00Z").status, 0)
        let dismissed = try b.run(["patterns", "--dismiss", "temporalCrash"], at: "2026-03-28T21:00:00Z")
        XCTAssertEqual(dismissed.status, 0, dismissed.err)
        for (m, t) in [(a, "21:02"), (b, "21:03"), (a, "21:04")] {
            XCTAssertEqual(try m.run(["sync", dir], at: "2026-03-28T\(t):00Z").status, 0)
        }
        XCTAssertEqual(try a.export(), try b.export())
    }

    /// A folder holding the files of two practices (a stray file from an old `init` beside the
    /// real one): `init --from` refuses, naming each practice's files (it joined whichever file
    /// sorted first, an empty practice over the one with the history), and leaves no store.
    func test_sync_cli_aFolderOfTwoPracticesIsNotJoinedBlindly() throws {
        let a = try CLI(), c = try CLI(), d = try CLI()
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["applied"], at: "2026-03-02T09:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T09:01:00Z").status, 0)
        let other = try shared(c)
        XCTAssertEqual(try c.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try c.run(["sync", other], at: "2026-03-02T09:02:00Z").status, 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: other) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(atPath: other + "/" + name, toPath: dir + "/" + name)
        }
        let join = try d.run(["init", "--from", dir], at: "2026-03-02T09:05:00Z")
        XCTAssertEqual(join.status, 1, join.out)
        XCTAssertTrue(join.err.contains("holds the files of 2 practices (egofix-device-"), join.err)
        XCTAssertTrue(join.err.contains("and egofix cannot tell which to join"), join.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: d.store), "a refused join left a store")
    }

    /// Joining a folder whose only device file is skipped said "it holds no readable device
    /// file", naming neither the file nor why (helper 112).
    func test_sync_cli_aJoinThroughOnlyBadFilesSaysWhyEachWasSkipped() throws {
        let d = try CLI()
        let dir = d.workdir + "/shared"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let name = "egofix-device-0F0F0F0F-0F0F-4F0F-8F0F-0F0F0F0F0F0F.json"
        try Data("{\"format\": \"egofix-device\", tru".utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        let join = try d.run(["init", "--from", dir], at: "2026-03-02T09:05:00Z")
        XCTAssertEqual(join.status, 1, join.out)
        XCTAssertTrue(join.err.contains("no practice to join in \(dir): its device files were skipped (skipped \(dir)/\(name): it "), join.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: d.store), "a refused join left a store")
    }

    /// A machine with its own practice synced into a folder of another's: it said "Synced",
    /// merged nothing, and left its file there, which every sync of the folder's machines then
    /// warned about (helper 110). It is refused, and writes nothing.
    func test_sync_cli_aFolderOfAnotherPracticeIsRefusedAndLeftAsItWas() throws {
        let a = try CLI(), c = try CLI()
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T09:01:00Z").status, 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(try c.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00Z").status, 0)
        let r = try c.run(["sync", dir], at: "2026-03-02T09:02:00Z")
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.contains("holds another practice's files (egofix-device-"), r.err)
        XCTAssertTrue(r.err.contains("Give this practice a folder of its own.") && r.err.hasSuffix("Nothing was written.\n"), r.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), before, "no file of c's")
        let again = try a.run(["sync", dir], at: "2026-03-02T09:03:00Z")
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertFalse(again.err.contains("warning"), again.err)
        // A folder of its own is synced as before.
        XCTAssertEqual(try c.run(["sync", c.workdir + "/own"], at: "2026-03-02T09:04:00Z").status, 0)
    }

    /// "N records changed here" counts the bug the sync's own lifecycle step moves (three quiet
    /// weeks merged make it stable): it said 4 where 5 records had changed (helper 106).
    func test_sync_cli_theCountOfRecordsChangedTakesInTheBugTheLifecycleMoved() throws {
        let (a, b, dir) = try joined(zone: "Europe/Berlin")
        for day in ["09", "16", "23"] {
            XCTAssertEqual(try a.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-\(day)T08:00:00Z").status, 0)
        }
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-23T08:01:00Z").status, 0)
        XCTAssertEqual(try b.run(["sync", dir], at: "2026-03-23T08:02:00Z").status, 0)
        XCTAssertEqual(try b.run(["today"], at: "2026-03-29T08:00:00Z").status, 0)
        XCTAssertEqual(try b.run(["sync", dir], at: "2026-03-29T08:01:00Z").status, 0)
        func records(_ export: Data) throws -> [String: String] {
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: export) as? [String: Any])
            var out: [String: String] = [:]
            for (table, rows) in doc {
                for case var row as [String: Any] in (rows as? [Any]) ?? [] {
                    row["syncToken"] = nil
                    let id = (row["id"] as? String) ?? ""
                    out[table + "/" + id] = String(decoding: try JSONSerialization.data(withJSONObject: row, options: .sortedKeys), as: UTF8.self)
                }
            }
            return out
        }
        let before = try records(try a.export())
        let r = try a.run(["sync", dir], at: "2026-03-31T08:00:00Z")
        let after = try records(try a.export())
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        XCTAssertTrue(changed.contains { $0.hasPrefix("bugs/") }, "the bug went stable in the sync: \(changed.sorted())")
        XCTAssertTrue(r.out.hasPrefix("Synced with \(dir): 1 other machine's file merged, \(changed.count) records changed here."), "\(changed.sorted()): \(r.out)")
    }

    /// A pattern shown on a machine whose clock is two hours slow, after the other machine showed
    /// it: the stores still end the same. It stored its own earlier instant over the later one it
    /// had merged, and no sync after read the other file again: the exports differed for good
    /// while every sync said "0 records changed here" (helper 106).
    func test_sync_cli_aPatternShownOnASlowClockStillConverges() throws {
        let laptop = try CLI(zone: "Europe/Berlin"), desktop = try CLI(zone: "Europe/Berlin")
        let dir = try shared(laptop)
        XCTAssertEqual(try laptop.run(["demo", "--years", "1"], at: "2026-11-02T09:00:00Z").status, 0)
        XCTAssertEqual(try laptop.run(["sync", dir], at: "2026-11-02T09:01:00Z").status, 0)
        XCTAssertEqual(try desktop.run(["init", "--from", dir], at: "2026-11-02T07:02:00Z").status, 0)
        XCTAssertTrue(try laptop.run(["today"], at: "2026-11-03T11:00:00Z").out.contains("PATTERN"), "the laptop shows a pattern")
        XCTAssertEqual(try laptop.run(["sync", dir], at: "2026-11-03T11:05:00Z").status, 0)
        XCTAssertEqual(try desktop.run(["sync", dir], at: "2026-11-03T09:10:00Z").status, 0)
        XCTAssertEqual(try laptop.run(["sync", dir], at: "2026-11-03T11:15:00Z").status, 0)
        XCTAssertEqual(try desktop.run(["today"], at: "2026-11-03T09:20:00Z").status, 0)
        for r in 1...2 {
            XCTAssertEqual(try desktop.run(["sync", dir], at: "2026-11-03T10:0\(r):00Z").status, 0)
            XCTAssertEqual(try laptop.run(["sync", dir], at: "2026-11-03T12:0\(r):30Z").status, 0)
        }
        XCTAssertEqual(try laptop.run(["export", "-"], at: "2026-11-03T13:00:00Z").out, try desktop.run(["export", "-"], at: "2026-11-03T13:00:00Z").out)
    }

    func test_sync_cli_joinRecordAndConverge() throws {
        let a = try CLI(), b = try CLI()
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let first = try a.run(["sync", dir], at: "2026-03-02T08:05:00+01:00")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.hasPrefix("Synced with \(dir): no other machine's file changed"), first.out)
        XCTAssertEqual(first.err, "")

        // --bug and --from together are refused; --from on the empty store joins.
        XCTAssertNotEqual(try b.run(["init", "--from", dir, "--bug", "need-to-be-right"], at: "2026-03-02T09:00:00+01:00").status, 0)
        let join = try b.run(["init", "--from", dir], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(join.status, 0, join.err)
        XCTAssertTrue(join.out.hasPrefix("Joined the practice in \(dir): v1.0"), join.out)
        // And a second --from on the same store is refused in one line.
        let again = try b.run(["init", "--from", dir], at: "2026-03-02T09:01:00+01:00")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.hasPrefix("egofix: store ") && again.err.contains("already holds a practice"), again.err)
        XCTAssertEqual(again.err.filter { $0 == "\n" }.count, 1)

        // The same day on both machines, different outcomes and texts.
        _ = try a.run(["today"], at: "2026-03-03T08:00:00+01:00")
        _ = try b.run(["today"], at: "2026-03-03T08:30:00+01:00")
        XCTAssertEqual(try a.run(["applied", "-m", "Let Tom finish."], at: "2026-03-03T12:00:00+01:00").status, 0)
        XCTAssertEqual(try b.run(["failed", "-m", "Corrected the waiter."], at: "2026-03-03T19:00:00+01:00").status, 0)
        // Another day on each.
        _ = try a.run(["crash", "--note", "Explained the offside rule, twice."], at: "2026-03-04T20:00:00+01:00")
        _ = try b.run(["today"], at: "2026-03-05T08:00:00+01:00")
        XCTAssertEqual(try b.run(["skipped", "-m", "Not today."], at: "2026-03-05T09:00:00+01:00").status, 0)
        for _ in 0..<2 {
            for m in [b, a] {
                let r = try m.run(["sync", dir], at: "2026-03-05T21:00:00+01:00")
                XCTAssertEqual(r.status, 0, r.err)
                XCTAssertEqual(r.err, "")
            }
        }
        let ea = try a.run(["export", "-"], at: "2026-03-05T22:00:00+01:00").out
        let eb = try b.run(["export", "-"], at: "2026-03-05T22:00:00+01:00").out
        XCTAssertEqual(ea, eb, "the two machines' exports differ")
        for text in ["Let Tom finish.", "Corrected the waiter.", "Explained the offside rule, twice.", "Not today."] {
            XCTAssertTrue(ea.contains(text), "\(text) is missing")
        }
        XCTAssertEqual(try a.run(["check"]).status, 0)
        // The site's history shows one outcome for the day both machines marked.
        let history = try a.run(["history"], at: "2026-03-05T22:00:00+01:00")
        XCTAssertEqual(history.status, 0, history.err)
    }

    func test_sync_cli_badFilesGiveOneWarningLineEach() throws {
        let a = try CLI()
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-liked"], at: "2026-03-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T08:05:00+01:00").status, 0)
        let before = try a.run(["export", "-"], at: "2026-03-02T09:00:00+01:00").out
        // Another practice's file.
        let other = try CLI()
        let otherDir = try shared(other)
        XCTAssertEqual(try other.run(["init", "--bug", "need-to-be-liked"], at: "2026-03-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try other.run(["sync", otherDir], at: "2026-03-02T08:05:00+01:00").status, 0)
        let otherName = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: otherDir).first { $0.hasPrefix("egofix-device-") })
        try FileManager.default.copyItem(atPath: otherDir + "/" + otherName, toPath: dir + "/" + otherName)
        let own = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasPrefix("egofix-device-") && $0 != otherName })
        let ownBytes = try XCTUnwrap(FileManager.default.contents(atPath: dir + "/" + own))
        var rng = SplitMix64(seed: 34)
        let names = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222",
                     "33333333-3333-4333-8333-333333333333"].map { "egofix-device-\($0).json" }
        try Data((0..<2048).map { _ in UInt8(truncatingIfNeeded: rng.next()) }).write(to: URL(fileURLWithPath: dir + "/" + names[0]))
        try ownBytes.prefix(ownBytes.count / 3).write(to: URL(fileURLWithPath: dir + "/" + names[1]))
        try Data(String(decoding: ownBytes, as: UTF8.self).replacingOccurrences(of: "\"formatVersion\" : 2", with: "\"formatVersion\" : 3").utf8)
            .write(to: URL(fileURLWithPath: dir + "/" + names[2]))
        let r = try a.run(["sync", dir], at: "2026-03-02T08:10:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.err.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, r.err)
        for name in names + [otherName] {
            let line = lines.first { $0.contains(name) }
            XCTAssertNotNil(line, "no warning names \(name): \(r.err)")
            XCTAssertTrue(line?.hasPrefix("egofix: warning: skipped \(dir)/\(name): it ") == true, String(line ?? ""))
            XCTAssertTrue(line?.hasSuffix(".") == true, String(line ?? ""))
        }
        // The summary does not say nothing changed under four warnings that files did.
        XCTAssertTrue(r.out.hasPrefix("Synced with \(dir): 4 files skipped (the warnings above say why), 0 records changed here."), r.out)
        XCTAssertEqual(try a.run(["export", "-"], at: "2026-03-02T09:00:00+01:00").out, before)
        // A folder that is not there, in one that is not either, is an error in one line; a new
        // folder in one that is there (~/Sync/egofix) is made.
        let missing = try a.run(["sync", a.workdir + "/nowhere/egofix"], at: "2026-03-02T08:10:00+01:00")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.hasPrefix("egofix: \(a.workdir)/nowhere/egofix is not there, nor is \(a.workdir)/nowhere. Give the folder"), missing.err)
        try Data().write(to: URL(fileURLWithPath: a.workdir + "/afile"))
        let file = try a.run(["sync", a.workdir + "/afile"], at: "2026-03-02T08:10:00+01:00")
        XCTAssertTrue(file.err.hasPrefix("egofix: \(a.workdir)/afile is not a folder."), file.err)
        let made = try a.run(["sync", a.workdir + "/fresh"], at: "2026-03-02T08:10:00+01:00")
        XCTAssertEqual(made.status, 0, made.err)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: a.workdir + "/fresh")[.posixPermissions] as? Int, 0o700)
        // So is joining a folder that holds no practice; and no store is left behind.
        let empty = try CLI()
        let emptyDir = try shared(empty)
        let nothing = try empty.run(["sync", emptyDir], at: "2026-03-02T08:10:00+01:00")
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.err.contains("no practice to join"), nothing.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty.store))
        // Nor a folder it made: the sync folder, the store's folders (a refused command changes nothing).
        let deep = empty.workdir + "/new/data/egofix.sqlite", fresh = empty.workdir + "/fresh"
        let refused = try empty.run(["sync", fresh, "--store", deep], at: "2026-03-02T08:11:00+01:00")
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(refused.err.contains("no practice to join: \(fresh) is not there. Check the path"), refused.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh))
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty.workdir + "/new"))
    }

    /// SIGKILL at random moments during `egofix sync` on two machines with a year of history:
    /// after each kill the store passes `egofix check`, and the next syncs converge with every
    /// acknowledged note present.
    func test_sync_cli_sigkillDuringSync() throws {
        let a = try CLI(), b = try CLI()
        let dir = try shared(a)
        XCTAssertEqual(try a.run(["demo", "--years", "1"], at: "2026-11-22T20:00:00+01:00").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-11-22T20:05:00+01:00").status, 0)
        XCTAssertEqual(try b.run(["init", "--from", dir], at: "2026-11-22T20:06:00+01:00").status, 0)
        // How long a sync with work to do takes here, to spread the kills over it.
        _ = try a.run(["crash", "--note", "timing"], at: "2026-11-22T20:07:00+01:00")
        let t0 = Date()
        XCTAssertEqual(try b.run(["sync", dir], at: "2026-11-22T20:08:00+01:00").status, 0)
        let span = max(20_000, UInt64(Date().timeIntervalSince(t0) * 1_000_000 * 1.2))
        var rng = SplitMix64(seed: 3434)
        var notes: [String] = ["timing"]
        var killed = 0, attempts = 0
        while killed < 30 && attempts < 200 {
            attempts += 1
            let (m, other) = attempts % 2 == 0 ? (a, b) : (b, a)
            let note = "kill-\(attempts)"
            let r = try other.run(["crash", "--note", note], at: "2026-11-22T21:00:00+01:00")
            if r.status == 0 { notes.append(note) }
            _ = try other.run(["sync", dir], at: "2026-11-22T21:00:00+01:00")
            let p = Process()
            p.executableURL = CLI.binary
            p.arguments = ["sync", dir, "--store", m.store, "--now", "2026-11-22T21:00:00+01:00"]
            p.environment = ["TZ": m.zone, "NO_COLOR": "1", "HOME": m.workdir, "SWIFT_BACKTRACE": "enable=no"]
            p.currentDirectoryURL = URL(fileURLWithPath: m.workdir)
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try p.run()
            usleep(UInt32(rng.next() % span))
            if p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                killed += 1
            }
            p.waitUntilExit()
            let check = try m.run(["check"])
            XCTAssertEqual(check.status, 0, "after kill \(killed): \(check.err)")
            XCTAssertTrue(check.out.contains("integrity: ok"), check.out)
        }
        XCTAssertGreaterThanOrEqual(killed, 30, "at least 30 kills should land mid-sync (\(attempts) attempts)")
        for _ in 0..<2 {
            for m in [a, b] {
                let r = try m.run(["sync", dir], at: "2026-11-22T22:00:00+01:00")
                XCTAssertEqual(r.status, 0, r.err)
                XCTAssertEqual(r.err, "", "the folder holds a file the sync cannot read after the kills")
            }
        }
        let ea = try a.run(["export", "-"], at: "2026-11-22T23:00:00+01:00").out
        let eb = try b.run(["export", "-"], at: "2026-11-22T23:00:00+01:00").out
        if ea != eb {
            // Kept for a look at what differs (the assertion's message folds both into one line).
            try? ea.write(toFile: NSTemporaryDirectory() + "egofix-sync-kill-a.json", atomically: true, encoding: .utf8)
            try? eb.write(toFile: NSTemporaryDirectory() + "egofix-sync-kill-b.json", atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(ea, eb, "the machines did not converge after the kills (exports in \(NSTemporaryDirectory())egofix-sync-kill-[ab].json)")
        for n in notes { XCTAssertTrue(ea.contains("\"\(n)\""), "\(n) is missing") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [], "temporary files left in the folder")
    }
}
