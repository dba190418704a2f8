import Foundation
import XCTest
import EgoFixCore
@testable import EgoFixCLI
@testable import EgoFixSite

/// The copy audit's second round: what the commands print, as a user reads it.
final class CopyAuditTests: XCTestCase {
    /// `calibrate` wrote "5 %" in its help and "5%" in its output; the tool writes "5%".
    func test_calibrate_helpAndOutputWriteTheTargetAlike() throws {
        let cli = try CLI()
        let help = try cli.run(["help", "calibrate"])
        XCTAssertEqual(help.status, 0, help.err)
        let flat = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(flat.contains("an alert rate of at most 5%."), help.out)
        XCTAssertFalse(flat.contains("5 %"), help.out)
        let run = try cli.run(["calibrate", "--runs", "3"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("the 5% target."), run.out)
    }

    /// A timer's length reads the same on the fix card and on the site: the site said "Timer,
    /// 1440 min." where the card said "24 hours", and cut 90 seconds to "1 min".
    func test_timer_lengthReadsAlikeOnTheCardAndTheSite() throws {
        func fix(_ seconds: Int) -> Fix {
            Fix(number: 1, bugId: UUID(), interactionType: .timed, prompt: "p",
                configurationData: Data(#"{"durationSeconds":\#(seconds)}"#.utf8), createdAt: Date(timeIntervalSince1970: 0))
        }
        for (seconds, said) in [(86_400, "24 hours"), (3_600, "1 hour"), (600, "10 minutes"), (90, "90 seconds")] {
            XCTAssertEqual(FixCard.interactionLines(fix: fix(seconds)).first, "timer: " + said)
            XCTAssertEqual(PageContext.interactionDetail(fix(seconds))?.text, "Timer, \(said).")
        }
    }

    /// A multi-step fix's steps are a list on the pages: one paragraph ran "1. Pick a day ... 2. On
    /// the day ..." together (helper 110).
    func test_build_aMultiStepFixsStepsAreAList() throws {
        let steps = #"{"steps":[{"id":"a","instruction":"Pick a day."},{"id":"b","instruction":"Write the urge down."}]}"#
        let fix = Fix(number: 205, bugId: UUID(), interactionType: .multiStep, prompt: "p", configurationData: Data(steps.utf8),
                      createdAt: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(PageContext.interactionDetail(fix), FixDetail(text: nil, steps: ["Pick a day.", "Write the urge down."]))
        // Built: a catalogue whose only daily fixes have steps.
        let cli = try CLI(zone: "UTC")
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: ReminderCommandTests.repoRoot.appendingPathComponent("Seeds/fixes.json"))) as? [[String: Any]])
        let kept = all.filter { $0["interactionType"] as? String == "multiStep" || $0["type"] as? String == "quickFix" }
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Seeds", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: cli.workdir + "/Seeds/fixes.json"))
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-busy"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied", "--steps", "1"], at: "2026-03-02T09:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["build", "--out", cli.workdir + "/site"], at: "2026-03-02T10:00:00Z").status, 0)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("<ol class=\"detail\"><li>"), week)
        XCTAssertFalse(week.contains("<p class=\"detail\">1. "), week)
    }

    /// Activating a bug again said "Activated again: its severity starts low again."
    func test_bugActivate_againSaysTheWordOnce() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["bug", "activate", "need-to-impress"], at: "2026-03-02T09:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["bug", "deactivate", "need-to-impress"], at: "2026-03-03T09:00:00+01:00").status, 0)
        let again = try cli.run(["bug", "activate", "need-to-impress"], at: "2026-03-04T09:00:00+01:00")
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.hasSuffix("\n// Activated again: its severity restarts at low.\n"), again.out)
        for line in again.out.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.lowercased().components(separatedBy: "again").count - 1, 1, String(line))
        }
    }

    /// The demo and import summaries said "0 patterns" under a help that speaks of planted
    /// patterns; patterns are found later (`egofix patterns`, the build), so a zero is left out.
    func test_demoAndImport_summariesLeaveOutNoStoredPatterns() throws {
        let cli = try CLI()
        let demo = try cli.run(["demo"])
        XCTAssertEqual(demo.status, 0, demo.err)
        let first = demo.out.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(first.hasPrefix("Demo history written to ") && first.contains(" weekly diagnostics, "), first)
        XCTAssertFalse(first.contains("pattern"), first)
        let file = cli.workdir + "/demo.json"
        XCTAssertEqual(try cli.run(["export", file]).status, 0)
        let imported = try cli.run(["import", file, "--store", cli.workdir + "/copy.sqlite"])
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertTrue(imported.out.hasPrefix("Imported \(file): 5 bugs, "), imported.out)
        XCTAssertFalse(imported.out.contains("pattern"), imported.out)
    }

    /// An empty EGOFIX_NOW is no clock, in `demo` as in every command: the demo ends on its own
    /// last day (it ended today, on the real clock).
    func test_demo_anEmptyClockVariableIsNoClock() throws {
        let cli = try CLI()
        let demo = try cli.run(["demo"], env: ["EGOFIX_NOW": ""])
        XCTAssertEqual(demo.status, 0, demo.err)
        XCTAssertTrue(demo.out.contains("// 1 year ending \(DemoSite.endDate.prefix(10)), seed 7."), demo.out)
    }

    /// `check` printed the settings as SQLite returns them: "synchronous: 2", "foreign_keys: 1".
    func test_check_namesTheSettingsValues() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-liked"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let check = try cli.run(["check"])
        XCTAssertEqual(check.status, 0, check.err)
        XCTAssertTrue(check.out.contains("\nsynchronous: FULL (2)\nforeign_keys: ON (1)\njournal_mode: DELETE\naccess: yours alone (0600)\n"), check.out)
        // A store other accounts can read (a copy made with a umask of 022, a restore) is said,
        // with the command that mends it: every reflection is in it.
        XCTAssertEqual(chmod(cli.store, 0o644), 0)
        let open = try cli.run(["check"])
        XCTAssertEqual(open.status, 0, open.err)
        XCTAssertTrue(open.out.contains("\naccess: 0644, can be read by other accounts on this machine; `chmod 600 \(cli.store)` makes it yours alone\n"), open.out)
    }
}
