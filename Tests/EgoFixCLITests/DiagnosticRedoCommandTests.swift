import Foundation
import XCTest

/// `egofix diagnostic --redo` through the binary: a rating typed wrong, put right while the week's
/// diagnostic is open, in one transaction, on one machine and across a sync.
final class DiagnosticRedoCommandTests: XCTestCase {
    /// The Sunday evening that opens 2026-W49's diagnostic, the Monday that ends it, and the
    /// Tuesday after (Europe/Berlin).
    let sunday = "2026-12-06T19:00:00+01:00"
    let monday = "2026-12-07T08:00:00+01:00"
    let tuesday = "2026-12-08T08:00:00+01:00"

    func rated() throws -> CLI {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-30T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["bug", "activate", "need-to-be-busy"], at: "2026-11-30T08:01:00+01:00").status, 0)
        let r = try cli.run(["diagnostic", "--rate", "need-to-be-right=loud@work", "--rate", "need-to-be-busy=quiet"], at: sunday)
        XCTAssertEqual(r.status, 0, r.err)
        return cli
    }

    /// The store's diagnostics in its export: (live, ratings as "slug-less intensity@context" in order).
    func diagnostics(_ cli: CLI) throws -> [(live: Bool, ratings: [String])] {
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        return ((doc["diagnostics"] as? [[String: Any]]) ?? []).map { d in
            let ratings = ((d["responses"] as? [[String: Any]]) ?? []).map {
                ($0["intensity"] as? String ?? "?") + (($0["primaryContext"] as? String).map { "@" + $0 } ?? "")
            }
            return (d["deletedAt"] == nil, ratings)
        }
    }

    func test_diagnostic_redoReplacesTheRatingsAndKeepsTheFirstDeleted() throws {
        let cli = try rated()
        let again = try cli.run(["diagnostic", "--rate", "need-to-be-right=present"], at: monday)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.contains("already done. --redo takes it again"), again.err)

        let r = try cli.run(["diagnostic", "--redo", "--rate", "need-to-be-right=present@home", "--rate", "need-to-be-busy=quiet"], at: monday)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("DIAGNOSTIC 2026-W49, taken again"), r.out)
        XCTAssertTrue(r.out.contains("Need to be right: present @home   (was loud @work)"), r.out)
        XCTAssertTrue(r.out.contains("Need to be busy: quiet\n"), r.out)
        XCTAssertTrue(r.out.contains("WEEK 2026-W49"), r.out)
        XCTAssertTrue(r.out.contains("stay in the store, deleted"), r.out)

        let all = try diagnostics(cli)
        XCTAssertEqual(all.filter(\.live).map(\.ratings), [["present@home", "quiet"]])
        XCTAssertEqual(all.filter { !$0.live }.map(\.ratings), [["loud@work", "quiet"]], "the first ratings are kept, deleted")
        // The week is still done; the streak did not move.
        let status = try cli.json(["status", "--json"], at: monday)
        XCTAssertEqual(status["diagnosticDue"] as? Bool, false, "\(status)")
    }

    func test_diagnostic_redoWithTheRatingsItHasOrOutsideTheWindowIsRefused() throws {
        let cli = try rated()
        let before = try cli.export()
        let same = try cli.run(["diagnostic", "--redo", "--rate", "need-to-be-right=loud@work", "--rate", "need-to-be-busy=quiet"], at: monday)
        XCTAssertEqual(same.status, 1)
        XCTAssertTrue(same.err.contains("has those ratings already"), same.err)
        let late = try cli.run(["diagnostic", "--redo", "--rate", "need-to-be-right=quiet"], at: tuesday)
        XCTAssertEqual(late.status, 1)
        XCTAssertTrue(late.err.contains("no diagnostic open to take again") && late.err.contains("--anyway --redo"), late.err)
        let skip = try cli.run(["diagnostic", "--redo", "--skip"], at: monday)
        XCTAssertEqual(skip.status, 64, "the command line itself")
        XCTAssertTrue(skip.err.contains("--redo and --skip"), skip.err)
        let piped = try cli.run(["diagnostic", "--redo"], at: monday, stdin: "")
        XCTAssertEqual(piped.status, 1)
        XCTAssertTrue(piped.err.contains("with --redo"), piped.err)
        // With --anyway, this week's (2026-W50) has none to take again.
        let none = try cli.run(["diagnostic", "--anyway", "--redo", "--rate", "need-to-be-right=quiet"], at: tuesday)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.err.contains("2026-W50 has no diagnostic to take again. `egofix diagnostic --anyway` takes it."), none.err)
        XCTAssertEqual(try cli.export(), before, "a refused redo changes nothing")
    }

    /// A redo on one machine reaches the other: the deletion of the first ratings travels, and
    /// each machine keeps one diagnostic for the week, the new one.
    func test_diagnostic_redoReachesAnotherMachineThroughASync() throws {
        let a = try CLI(zone: "UTC"), b = try CLI(zone: "UTC")
        let dir = a.workdir + "/shared"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-right"], at: "2026-11-30T08:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["diagnostic", "--rate", "need-to-be-right=loud@work"], at: "2026-12-06T19:00:00Z").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-12-06T19:01:00Z").status, 0)
        XCTAssertEqual(try b.run(["init", "--from", dir], at: "2026-12-06T19:02:00Z").status, 0)
        let r = try a.run(["diagnostic", "--redo", "--rate", "need-to-be-right=present@work"], at: "2026-12-07T09:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        for (m, t) in [(a, "09:01"), (b, "09:02"), (a, "09:03")] {
            XCTAssertEqual(try m.run(["sync", dir], at: "2026-12-07T\(t):00Z").status, 0)
        }
        for m in [a, b] {
            XCTAssertEqual(try diagnostics(m).filter(\.live).map(\.ratings), [["present@work"]])
        }
    }

    /// In a terminal it shows the first ratings, then asks about the same bugs again.
    func test_diagnostic_redoInATerminalAsksTheSameBugsAgain() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1)") }
        let cli = try rated()
        let r = try cli.runInTerminal(["diagnostic", "--redo"], at: monday, input: "2\n2\n1\n")
        XCTAssertEqual(r.status, 0, r.out)
        // 83 columns on one line: the comment goes under the heading within 80.
        XCTAssertTrue(r.out.contains("DIAGNOSTIC 2026-W49, taken again\r\n// 2 bugs asked again. Enter keeps a first rating.\r\n"), r.out)
        XCTAssertTrue(r.out.contains("// The first ratings:\r\n  Need to be right: loud @work\r\n  Need to be busy: quiet\r\n"), r.out)
        XCTAssertTrue(r.out.contains("present @home   (was loud @work)"), r.out)
        XCTAssertEqual(try diagnostics(cli).filter(\.live).map(\.ratings), [["present@home", "quiet"]])
        // Enter keeps a bug's first rating (it dropped it, and a stable bug went back to active).
        let one = try cli.runInTerminal(["diagnostic", "--redo"], at: monday, input: "\n3\n5\n")
        XCTAssertTrue(one.out.contains("(1 to 3, or enter to keep present @home)"), one.out)
        XCTAssertEqual(try diagnostics(cli).filter(\.live).map(\.ratings), [["present@home", "loud@online"]])
        let none = try cli.runInTerminal(["diagnostic", "--redo"], at: monday, input: "\n\n")
        XCTAssertTrue(none.out.contains("Nothing changed. The first ratings stand."), none.out)
        XCTAssertEqual(try diagnostics(cli).filter(\.live).map(\.ratings), [["present@home", "loud@online"]])
        // Left midway (Ctrl-D): what is said is that the first ratings stand ("nothing owed" is
        // the first diagnostic's word).
        let left = try cli.runInTerminal(["diagnostic", "--redo"], at: monday, input: "")
        XCTAssertTrue(left.out.contains("Left. The first ratings stand."), left.out)
        XCTAssertEqual(try diagnostics(cli).filter(\.live).map(\.ratings), [["present@home", "loud@online"]])
    }

    /// A bug the week asked about and Enter skipped is asked again by a redo in a terminal, after
    /// the ones rated (it was never asked, and `--redo --rate` for it alone replaced the others).
    func test_diagnostic_redoInATerminalAsksABugTheFirstSkipped() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1)") }
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-30T08:00:00+01:00").status, 0)
        for slug in ["need-to-be-busy", "need-to-impress"] {
            XCTAssertEqual(try cli.run(["bug", "activate", slug], at: "2026-11-30T08:01:00+01:00").status, 0)
        }
        let first = try cli.runInTerminal(["diagnostic"], at: sunday, input: "3\n1\n1\n\n")
        XCTAssertEqual(first.status, 0, first.out)
        XCTAssertEqual(try diagnostics(cli).filter(\.live).map(\.ratings.count), [2], first.out)
        let r = try cli.runInTerminal(["diagnostic", "--redo"], at: monday, input: "\n\n2\n2\n")
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains("// 3 bugs asked again. Enter keeps a first rating."), r.out)
        XCTAssertTrue(r.out.contains(": not rated\r\n"), r.out)
        XCTAssertEqual(try diagnostics(cli).filter(\.live).map(\.ratings.count), [3], r.out)
        XCTAssertTrue(try diagnostics(cli).filter(\.live).first?.ratings.last == "present@home", r.out)
    }

    /// A bug whose third quiet week is the one taken again, made stable on the other machine
    /// before the redo reached it (its 28th active day came first there): the sync put the stable
    /// copy over the redo's, and the bug stayed stable on quiet, quiet, present.
    func test_diagnostic_aRedoOnOneMachineTakesBackStabilityTheOtherGaveBeforeSeeingIt() throws {
        let (a, b, dir) = try CLI.twoMachines(bug: "need-to-be-busy", begun: "2026-10-05T09:00:00+02:00",
                                              quiet: ["2026-10-18T19:00:00+02:00", "2026-10-25T19:00:00+01:00"],
                                              synced: "2026-10-26T09:00:00+01:00", joined: "2026-10-26T09:05:00+01:00")
        // The third quiet week; the 28th active day is Monday 2 November.
        XCTAssertEqual(try a.run(["diagnostic", "--rate", "need-to-be-busy=quiet"], at: "2026-11-01T19:00:00+01:00").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-11-01T19:05:00+01:00").status, 0)
        XCTAssertEqual(try b.run(["sync", dir], at: "2026-11-01T19:10:00+01:00").status, 0)
        XCTAssertEqual(try a.run(["diagnostic", "--redo", "--rate", "need-to-be-busy=present@work"], at: "2026-11-02T12:30:00+01:00").status, 0)
        XCTAssertEqual(try a.run(["sync", dir], at: "2026-11-02T12:31:00+01:00").status, 0)
        XCTAssertEqual(try b.run(["today"], at: "2026-11-02T12:45:00+01:00").status, 0)
        XCTAssertEqual(try b.run(["bugs", "--json"], at: "2026-11-02T12:46:00+01:00").out.contains("\"stable\""), true,
                       "B made the bug stable from the first ratings, as the scenario needs")
        for (m, t) in [(b, "13:00"), (a, "13:05"), (b, "13:10")] {
            XCTAssertEqual(try m.run(["sync", dir], at: "2026-11-02T\(t):00+01:00").status, 0)
        }
        for m in [a, b] {
            let bugs = try m.run(["bugs", "--json"], at: "2026-11-02T13:15:00+01:00").out
            XCTAssertFalse(bugs.contains("\"stable\""), bugs)
            XCTAssertEqual(try diagnostics(m).filter(\.live).map(\.ratings), [["quiet"], ["quiet"], ["present@work"]])
        }
        XCTAssertEqual(try a.export(), try b.export(), "the two machines agree")
    }

    /// A loud rating that sent a stable bug back stands, so a terminal redo does not ask about it:
    /// it asked, took every answer, then refused the whole redo.
    func test_diagnostic_redoInATerminalDoesNotAskAboutALoudRatingThatStands() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1)") }
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["bug", "activate", "need-to-be-busy"], at: "2026-11-02T08:01:00+01:00").status, 0)
        for day in ["15", "22", "29"] {
            let r = try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet", "--rate", "need-to-be-busy=quiet"], at: "2026-11-\(day)T19:00:00+01:00")
            XCTAssertEqual(r.status, 0, r.err)
        }
        XCTAssertTrue(try cli.run(["status"], at: "2026-12-01T13:00:00+01:00").out.contains("stable"), "both bugs stable, as the scenario needs")
        let loud = try cli.run(["diagnostic", "--rate", "need-to-be-right=loud@work", "--rate", "need-to-be-busy=quiet"], at: sunday)
        XCTAssertTrue(loud.out.contains("Back to active"), loud.out)
        let r = try cli.runInTerminal(["diagnostic", "--redo"], at: monday, input: "2\n\n")
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains("// 1 bug asked again."), r.out)
        XCTAssertTrue(r.out.contains("Need to be right: loud @work   // stands: it sent the bug back to active"), r.out)
        XCTAssertFalse(r.out.contains("need to be right felt"), r.out)
        XCTAssertEqual(try diagnostics(cli).filter(\.live).map(\.ratings).last, ["loud@work", "present"])
    }
}
