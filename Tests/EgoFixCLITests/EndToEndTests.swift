import XCTest

/// Drives the real binary through the daily loop over several pinned days.
final class EndToEndTests: XCTestCase {
    func test_endToEnd_dailyLoopOverSeveralDays() throws {
        let cli = try CLI()
        // Monday 2 March 2026, Berlin.
        var r = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("FIRST FIX"), r.out)
        XCTAssertTrue(r.out.contains("FIX #"), r.out)
        XCTAssertTrue(r.out.contains("Severity: Low"), r.out)

        r = try cli.run(["today"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        let firstFix = r.out.components(separatedBy: "\n").first { $0.hasPrefix("FIX #") } ?? ""
        XCTAssertFalse(firstFix.isEmpty)

        r = try cli.run(["applied", "-m", "Let Tom finish his point about the *deadline*. Why did that take effort?"], at: "2026-03-02T18:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("FIX APPLIED"))
        XCTAssertTrue(r.out.contains("No fanfare. You did the thing."))

        // Tuesday: a crash queues a quick fix, shown next; then a reboot.
        r = try cli.run(["today"], at: "2026-03-03T08:30:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        r = try cli.run(["crash", "need-to-be-right", "--note", "Corrected a waiter about risotto."], at: "2026-03-03T13:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("CRASH LOGGED"))
        XCTAssertTrue(r.out.contains("QUICK FIX"))
        r = try cli.run(["today"], at: "2026-03-03T13:05:00+01:00")
        XCTAssertTrue(r.out.contains("QUICK FIX // after the crash"), r.out)
        r = try cli.run(["status"], at: "2026-03-03T13:06:00+01:00")
        XCTAssertTrue(r.out.contains("1 open crash. `egofix reboot` closes it."), r.out)
        // The dashboard says it as `status` does (it said nothing of an open crash).
        func dashboard(at now: String) throws -> String {
            XCTAssertEqual(try cli.run(["build", "--out", cli.workdir + "/mid"], at: now).status, 0)
            return try String(contentsOfFile: cli.workdir + "/mid/index.html", encoding: .utf8)
        }
        let open = try dashboard(at: "2026-03-03T13:07:00+01:00")
        XCTAssertTrue(open.contains("1 open crash. <code>egofix reboot</code> closes it."), open)
        r = try cli.run(["applied"], at: "2026-03-03T14:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        r = try cli.run(["reboot"], at: "2026-03-03T20:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Closed 1 crash"), r.out)
        XCTAssertFalse(try dashboard(at: "2026-03-03T20:01:00+01:00").contains("open crash"))
        // The daily fix is still waiting after the quick fix.
        r = try cli.run(["skipped", "-m", "Not today."], at: "2026-03-03T21:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("FIX SKIPPED"))
        XCTAssertTrue(r.out.contains("Skipped. It is not offered again for 21 days."), r.out)

        // Wednesday to Sunday: five more applied. Reflection piped on stdin on Thursday.
        for (day, stdin) in [(4, nil), (5, "Piped reflection, not in shell history."), (6, nil), (7, nil), (8, nil)] as [(Int, String?)] {
            let d = String(format: "2026-03-%02d", day)
            r = try cli.run(["today"], at: d + "T09:00:00+01:00")
            XCTAssertEqual(r.status, 0, r.err)
            r = try cli.run(["applied"], at: d + "T19:00:00+01:00", stdin: stdin)
            XCTAssertEqual(r.status, 0, r.err)
        }
        XCTAssertTrue(r.out.contains("v1.1."), "seventh applied fix bumps the version: \(r.out)")

        // Sunday evening: the diagnostic, by flags.
        r = try cli.run(["diagnostic", "--rate", "need-to-be-right=loud@work"], at: "2026-03-08T19:30:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("DIAGNOSTIC 2026-W10"), r.out)

        let status = try cli.json(["status"], at: "2026-03-08T21:00:00+01:00")
        XCTAssertEqual(status["version"] as? String, "1.1")
        XCTAssertEqual(status["streak"] as? Int, 7)
        XCTAssertEqual(status["appliedCount"] as? Int, 7)
        XCTAssertEqual(status["openCrashes"] as? Int, 0)
        XCTAssertEqual(status["diagnosticDue"] as? Bool, false)

        // Two days away, then the streak reads 0 (the freeze covers one day only).
        let later = try cli.json(["status"], at: "2026-03-11T09:00:00+01:00")
        XCTAssertEqual(later["streak"] as? Int, 0)
        XCTAssertEqual(later["longestStreak"] as? Int, 7)
    }

    func test_endToEnd_timeZoneDecidesTheDay() throws {
        // 23:30 in Honolulu on Monday is Tuesday in UTC: still Monday's fix for this user.
        let cli = try CLI(zone: "Pacific/Honolulu")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-busy"], at: "2026-03-02T08:00:00-10:00").status, 0)
        let morning = try cli.json(["today"], at: "2026-03-02T08:05:00-10:00")
        let night = try cli.json(["today"], at: "2026-03-03T09:30:00Z")
        XCTAssertEqual((morning["fix"] as? [String: Any])?["id"] as? String, (night["fix"] as? [String: Any])?["id"] as? String)
    }
}
