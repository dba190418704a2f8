import XCTest

/// `egofix diagnostic --rate`, the scripted diagnostic: it follows the same rules as the one that asks.
final class DiagnosticRateTests: XCTestCase {
    /// Thursday of 2026-W49, and the Sunday evening that opens its diagnostic (Europe/Berlin).
    let thursday = "2026-12-03T10:00:00+01:00"
    let sunday = "2026-12-06T19:00:00+01:00"

    func onboarded() throws -> CLI {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-30T08:00:00+01:00").status, 0)
        return cli
    }

    /// Refused in one line on stderr that mentions `mentions`, with a non-zero exit and the store unchanged.
    func assertRefused(_ cli: CLI, _ args: [String], at now: String, mentions: [String],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try cli.export()
        let r = try cli.run(args, at: now)
        XCTAssertNotEqual(r.status, 0, "accepted: \(args)\n\(r.out)", file: file, line: line)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, "not one line: \(r.err)", file: file, line: line)
        for m in mentions { XCTAssertTrue(r.err.contains(m), "\(r.err) does not mention \(m)", file: file, line: line) }
        XCTAssertFalse(r.out.contains("Recorded"), r.out, file: file, line: line)
        XCTAssertEqual(try cli.export(), before, "the store changed", file: file, line: line)
    }

    func test_diagnostic_skipWithRatingsIsRefused() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["diagnostic", "--skip", "--rate", "need-to-be-right=loud"], at: sunday, mentions: ["--skip and --rate"])
        XCTAssertEqual(try cli.run(["diagnostic", "--skip"], at: sunday).status, 0)
    }

    func test_diagnostic_rateOutsideTheWindowNeedsAnyway() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=present"], at: thursday,
                          mentions: ["no diagnostic due", "Sunday at 18:00", "--anyway"])
        // Nothing half-finished was recorded: Sunday's window is still open for the week.
        let r = try cli.run(["diagnostic", "--rate", "need-to-be-right=present"], at: sunday)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("DIAGNOSTIC 2026-W49"), r.out)
    }

    func test_diagnostic_rateOutsideTheWindowWithAnywayRecordsThisWeek() throws {
        let cli = try onboarded()
        let r = try cli.run(["diagnostic", "--anyway", "--rate", "need-to-be-right=present"], at: thursday)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("DIAGNOSTIC 2026-W49"), r.out)
    }

    /// A practice begun on a Monday: that evening the window is open for the week before it,
    /// which has no diagnostic to do; the refusal says so, not that it was already done.
    func test_diagnostic_theWeekBeforeThePracticeIsNotCalledDone() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=present"], at: "2026-11-30T19:00:00+01:00",
                          mentions: ["no diagnostic for 2026-W48", "the practice began after that week"])
        XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=present"], at: sunday).status, 0)
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-12-07T09:00:00+01:00",
                          mentions: ["the diagnostic for 2026-W49 is already done"])
    }

    func test_diagnostic_aBugRatedTwiceIsRefused() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=quiet", "--rate", "need-to-be-right=loud"], at: sunday,
                          mentions: ["need-to-be-right is rated twice"])
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=quiet", "--rate", "need-to-be-right=quiet"], at: sunday,
                          mentions: ["need-to-be-right is rated twice"])
    }

    func test_diagnostic_anInactiveBugIsRefused() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["diagnostic", "--rate", "fear-of-ordinary=loud"], at: sunday,
                          mentions: ["fear-of-ordinary is not active", "active: need-to-be-right", "egofix bug activate SLUG"])
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=quiet", "--rate", "fear-of-ordinary=loud"], at: sunday,
                          mentions: ["fear-of-ordinary is not active"])
        // A slug typed wrong whose nearest bug is not active: named with why it cannot be rated,
        // not offered for a second refusal.
        try assertRefused(cli, ["diagnostic", "--rate", "fear-of-ordnary=loud"], at: sunday,
                          mentions: ["unknown bug 'fear-of-ordnary' (fear-of-ordinary? It is not active", "active bugs: need-to-be-right"])
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-rigt=loud"], at: sunday, mentions: ["(need-to-be-right?)"])
        // Once activated, it can be rated.
        XCTAssertEqual(try cli.run(["bug", "activate", "fear-of-ordinary"], at: sunday).status, 0)
        let r = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet", "--rate", "fear-of-ordinary=loud"], at: sunday)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Fear of being ordinary: loud"), r.out)
    }

    func test_diagnostic_atMostThreeBugsAreRated() throws {
        let cli = try onboarded()
        for slug in ["need-to-be-busy", "need-to-be-liked", "fear-of-ordinary"] {
            XCTAssertEqual(try cli.run(["bug", "activate", slug], at: "2026-12-01T08:00:00+01:00").status, 0)
        }
        let four = ["need-to-be-right", "need-to-be-busy", "need-to-be-liked", "fear-of-ordinary"].flatMap { ["--rate", $0 + "=quiet"] }
        try assertRefused(cli, ["diagnostic"] + four, at: sunday,
                          mentions: ["4 bugs rated; a diagnostic rates at most 3 (this week's turn: need-to-be-right, "])
        let r = try cli.run(["diagnostic"] + four.dropLast(2), at: sunday)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Need to be liked: quiet"), r.out)
    }

    func test_diagnostic_aContextIsKeptOrRefusedNeverDropped() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=quiet@work"], at: sunday,
                          mentions: ["need-to-be-right=quiet@work", "a quiet bug has no context", "present or loud"])
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=loud@"], at: sunday,
                          mentions: ["unknown context ''", "work, home, social, family, online, unsure"])
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-right=loud@office"], at: sunday, mentions: ["unknown context 'office'"])
        let r = try cli.run(["diagnostic", "--rate", "need-to-be-right=present@unsure"], at: sunday)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("Need to be right: present @unsure"), r.out)
        // The week page says it as it was given ("unknown", the stored name, before).
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: sunday).status, 0)
        let week = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: site + "/weeks").sorted().last)
        let page = try String(contentsOfFile: site + "/weeks/" + week + "/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<td>unsure</td>"), page)
        XCTAssertFalse(page.contains(">unknown<"), page)
    }
}
