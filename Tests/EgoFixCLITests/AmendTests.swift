import Foundation
import XCTest

/// `egofix amend`: today's mark put right. Before it, `failed` typed for `skipped`, a wrong
/// count or a typo in a reflection stood for good ("An outcome is recorded once."), and the only
/// way round was to edit an export by hand, which left the version and the patterns behind.
final class AmendTests: XCTestCase {
    /// A practice of six applied days, and a seventh day's fix marked failed by mistake.
    func practiceWithAWrongMark() throws -> CLI {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        for d in 2...7 {
            let at = String(format: "2026-03-%02dT09:10:00Z", d)
            XCTAssertEqual(try cli.run(["today"], at: at).status, 0)
            let r = try cli.mark("applied", at: at, message: "day \(d)")
            XCTAssertEqual(r.status, 0, r.err)
        }
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-08T09:00:00Z").status, 0)
        let wrong = try cli.run(["failed", "-m", "a typo hree"], at: "2026-03-08T09:05:00Z")
        XCTAssertEqual(wrong.status, 0, wrong.err)
        return cli
    }

    func export(_ cli: CLI) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
    }

    /// The outcome, the reflection and what follows from them (the version, the changelog, the
    /// detectors' events) follow the amend; the streak does not move; the first version is kept,
    /// deleted, with its text; the store still checks.
    func test_amend_changesTodaysMarkAndWhatFollowsFromIt() throws {
        let cli = try practiceWithAWrongMark()
        let refused = try cli.run(["skipped"], at: "2026-03-08T09:06:00Z")
        XCTAssertTrue(refused.err.contains("is already marked failed. `egofix amend` changes today's mark"), refused.err)
        let streak = try XCTUnwrap(try cli.json(["status"], at: "2026-03-08T09:06:00Z")["streak"] as? Int)

        let applied = try cli.run(["amend", "applied", "-m", "a typo here"], at: "2026-03-08T09:07:00Z")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.out.contains("Marked applied, not failed."), applied.out)
        XCTAssertTrue(applied.out.contains("Reflection replaced."), applied.out)
        XCTAssertTrue(applied.out.contains("Version v1.1, was v1.0."), "the seventh applied fix reaches 1.1: \(applied.out)")
        var status = try cli.json(["status"], at: "2026-03-08T09:08:00Z")
        XCTAssertEqual(status["version"] as? String, "1.1", "\(status)")
        XCTAssertEqual(status["streak"] as? Int, streak, "the day keeps its mark")

        let skipped = try cli.run(["amend", "skipped"], at: "2026-03-08T09:09:00Z")
        XCTAssertEqual(skipped.status, 0, skipped.err)
        XCTAssertTrue(skipped.out.contains("Marked skipped, not applied.") && skipped.out.contains("Version v1.0, was v1.1."), skipped.out)
        XCTAssertFalse(skipped.out.contains("Reflection"), "the reflection is kept when none is given: \(skipped.out)")
        status = try cli.json(["status"], at: "2026-03-08T09:10:00Z")
        XCTAssertEqual(status["version"] as? String, "1.0", "\(status)")

        // The day's fix, once, skipped, with the amended text; the changelog has no 1.1.
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: "2026-03-08T09:11:00Z").status, 0)
        let week = try String(contentsOfFile: site + "/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("a typo here") && !week.contains("a typo hree"), week)
        let changelog = try String(contentsOfFile: site + "/changelog/index.html", encoding: .utf8)
        XCTAssertFalse(changelog.contains("id=\"v-1-1\""), "no release 1.1 in the changelog: \(changelog)")
        XCTAssertTrue(changelog.contains("id=\"v-1-0\""), changelog)
        let history = try cli.json(["history", "--days", "1"], at: "2026-03-08T09:11:00Z")
        let fixes = ((history["days"] as? [[String: Any]])?.last?["fixes"] as? [[String: Any]]) ?? []
        XCTAssertEqual(fixes.map { $0["outcome"] as? String }, ["skipped"], "\(history)")

        // Nothing the user wrote is dropped: the first two versions are in the store, deleted.
        let doc = try export(cli)
        let completions = (doc["completions"] as? [[String: Any]]) ?? []
        let today = completions.filter { ($0["assignedAt"] as? String)?.hasPrefix("2026-03-08") == true }
        XCTAssertEqual(today.count, 3, "\(today)")
        XCTAssertEqual(today.filter { $0["deletedAt"] == nil }.map { $0["outcome"] as? String }, ["skipped"])
        XCTAssertTrue(today.contains { $0["reflection"] as? String == "a typo hree" && $0["deletedAt"] != nil })
        // The detectors read the outcome from its event: one live event, of the new outcome.
        let events = ((doc["events"] as? [[String: Any]]) ?? []).filter {
            ($0["timestamp"] as? String)?.hasPrefix("2026-03-08T09:05") == true && $0["deletedAt"] == nil
        }
        XCTAssertEqual(events.compactMap { $0["eventType"] as? String }.filter { $0.hasPrefix("fix") && $0 != "fixAssigned" }, ["fixSkipped"], "\(events)")
        let check = try cli.run(["check"], at: "2026-03-08T09:12:00Z")
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("export: imports again"), check.out)
    }

    /// Earlier days are closed; an amend that changes nothing is refused; `-e` opens the editor
    /// on the reflection as it stands.
    func test_amend_onlyTodaysMarkAndOnlyAChange() throws {
        let cli = try practiceWithAWrongMark()
        let same = try cli.run(["amend", "failed"], at: "2026-03-08T10:00:00Z")
        XCTAssertNotEqual(same.status, 0)
        XCTAssertTrue(same.err.contains("nothing to amend: FIX #"), same.err)
        // An answer is asked for only of a fix that takes one, by its own option.
        XCTAssertTrue(same.err.contains("Give another outcome, -m or -e"), same.err)
        XCTAssertEqual(same.err.contains(" and answer."), same.err.contains("-e, or --"), same.err)
        let editor = cli.workdir + "/append.sh"
        try "#!/bin/sh\nprintf 'and one more line\\n' >> \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor)
        let edited = try cli.run(["amend", "-e"], at: "2026-03-08T10:01:00Z", env: ["VISUAL": editor])
        XCTAssertEqual(edited.status, 0, edited.err)
        let doc = try export(cli)
        let live = ((doc["completions"] as? [[String: Any]]) ?? []).filter {
            ($0["assignedAt"] as? String)?.hasPrefix("2026-03-08") == true && $0["deletedAt"] == nil
        }
        XCTAssertEqual(live.first?["reflection"] as? String, "a typo hree\nand one more line", "\(live)")
        XCTAssertEqual(live.first?["outcome"] as? String, "failed")
        let tomorrow = try cli.run(["amend", "skipped"], at: "2026-03-09T08:00:00Z")
        XCTAssertNotEqual(tomorrow.status, 0)
        XCTAssertTrue(tomorrow.err.contains("was made on 2026-03-08. A day's marks close with the day"), tomorrow.err)
        // A number no fix has is said so ("FIX #999 has no mark today" of a fix there is none of).
        let wrongFix = try cli.run(["amend", "--fix", "999"], at: "2026-03-08T10:02:00Z")
        XCTAssertTrue(wrongFix.err.contains("no FIX #999 in the catalogue"), wrongFix.err)
        // --fix takes the label status --json prints, as share takes it; a fix not marked today says so.
        let label = try cli.run(["amend", "--fix", "FIX #001"], at: "2026-03-08T10:02:00Z")
        XCTAssertTrue(label.err.contains("FIX #001 has no mark today"), label.err)
        let zero = try cli.run(["amend", "--fix", "#0"], at: "2026-03-08T10:02:00Z")
        XCTAssertEqual(zero.status, 64)
        XCTAssertTrue(zero.err.contains("--fix takes a fix's number, 1 or more"), zero.err)
    }

    /// Amended after a sync, the first version is not brought back by the next one as text
    /// "written on another machine": both machines end with the amended mark alone.
    func test_amend_aSyncTakesTheAmendAndKeepsNoNoteOfTheFirstVersion() throws {
        let a = try CLI(zone: "UTC"), b = try CLI(zone: "UTC")
        let dir = a.workdir + "/shared"
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["today"], at: "2026-03-02T09:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["failed", "-m", "first text"], at: "2026-03-02T09:05:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T09:06:00Z").status, 0)
        XCTAssertEqual(try b.run(["init", "--from", dir], at: "2026-03-02T09:07:00Z").status, 0)
        XCTAssertEqual(try a.run(["amend", "skipped", "-m", "second text"], at: "2026-03-02T09:08:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T09:09:00Z").status, 0)
        XCTAssertEqual(try b.run(["sync", dir], at: "2026-03-02T09:10:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-03-02T09:11:00Z").status, 0)
        for machine in [a, b] {
            let history = try machine.json(["history", "--days", "1"], at: "2026-03-02T09:12:00Z")
            let fixes = ((history["days"] as? [[String: Any]])?.last?["fixes"] as? [[String: Any]]) ?? []
            XCTAssertEqual(fixes.count, 1, "\(history)")
            XCTAssertEqual(fixes.first?["outcome"] as? String, "skipped")
            XCTAssertEqual(fixes.first?["reflection"] as? String, "second text", "no note of the first version: \(history)")
        }
    }

    /// A retest is said to be one; failing it sends the bug back to active, and that outcome
    /// stands (the bug's stable dates are gone); its reflection can still be amended.
    func test_amend_aFailedRetestThatSentItsBugBackStands() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T07:00:00Z").status, 0)
        for d in ["08", "15", "22", "29"] {
            XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-\(d)T19:00:00Z").status, 0)
        }
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-31T09:00:00Z").status, 0)
        let retest = try cli.run(["today"], at: "2026-04-29T09:00:00Z")
        XCTAssertTrue(retest.out.contains("TODAY // 2026-04-29 // retest"), retest.out)
        XCTAssertTrue(retest.out.contains("// A retest: Need to be right has been stable since 2026-03-30. Failed sends it"), retest.out)
        XCTAssertEqual(try cli.json(["today"], at: "2026-04-29T09:01:00Z")["retest"] as? Bool, true)
        let failed = try cli.run(["failed"], at: "2026-04-29T09:05:00Z")
        XCTAssertTrue(failed.out.contains("Need to be right: regression, retest failed. Back to active."), failed.out)
        let undo = try cli.run(["amend", "applied"], at: "2026-04-29T09:06:00Z")
        XCTAssertNotEqual(undo.status, 0)
        XCTAssertTrue(undo.err.contains("was a retest, and failing it sent Need to be right back to active. That stands"), undo.err)
        XCTAssertTrue(try cli.run(["status"], at: "2026-04-29T09:07:00Z").out.contains("Need to be right         active"))
        let text = try cli.run(["amend", "-m", "It was not close."], at: "2026-04-29T09:08:00Z")
        XCTAssertEqual(text.status, 0, text.err)
        XCTAssertTrue(text.out.contains("Reflection added."), text.out)
    }

    /// A reflection amended to one that reads like a crisis gets the help block first, as
    /// `applied` gives it (amend printed "AMENDED / Reflection replaced." only).
    func test_amend_aCrisisReflectionGetsTheHelpBlock() throws {
        let cli = try practiceWithAWrongMark()
        let r = try cli.run(["amend", "-m", "Some days I want to kill myself over this."], at: "2026-03-08T10:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("BEFORE ANYTHING ELSE\n\n"), r.out)
        XCTAssertTrue(r.out.contains("AMENDED  FIX #"), r.out)
    }

    /// A version reached, amended away, then reached again the next day is dated the day it was
    /// reached again, after a sync too: the sync brought back the amended-away entry (dated the
    /// day before) and superseded the right one.
    func test_amend_aVersionReachedAgainIsDatedWhenItWasReached() throws {
        let cli = try practiceWithAWrongMark()
        let dir = cli.workdir + "/shared"
        XCTAssertEqual(try cli.run(["amend", "applied"], at: "2026-03-08T10:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["amend", "skipped"], at: "2026-03-08T10:01:00Z").status, 0)
        XCTAssertEqual(try cli.run(["sync", dir], at: "2026-03-08T10:02:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-09T09:00:00Z").status, 0)
        let r = try cli.mark("applied", at: "2026-03-09T09:10:00Z")
        XCTAssertTrue(r.out.contains("v1.1."), r.out + r.err)
        XCTAssertEqual(try cli.run(["sync", dir], at: "2026-03-09T09:11:00Z").status, 0)
        let doc = try export(cli)
        let live = ((doc["versions"] as? [[String: Any]]) ?? []).filter { $0["version"] as? String == "1.1" && $0["deletedAt"] == nil }
        XCTAssertEqual(live.count, 1, "\(live)")
        XCTAssertEqual((live.first?["createdAt"] as? String)?.prefix(10), "2026-03-09", "\(live)")
    }
}
