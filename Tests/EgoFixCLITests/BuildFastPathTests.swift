import XCTest
@testable import EgoFixCLI

/// Issue 31: `egofix build`'s common lines are read without swift-argument-parser
/// (`BuildFastPath`). What it reads must be what the parser reads, and every other line must
/// still reach the parser, with its help and its errors.
final class BuildFastPathTests: XCTestCase {
    /// The lines the fast path takes give the build the parser gives.
    func test_BuildFastPath_readsWhatTheParserReads() throws {
        let lines: [[String]] = [
            ["build"],
            ["build", "--out", "public"],
            ["build", "--store", "/tmp/a b/egofix.sqlite", "--out", "site"],
            ["build", "--out", "site", "--store", "s.sqlite", "--now", "2026-11-22T09:00:00Z", "--base-url", "https://example.org"],
            ["build", "--base-url", "http://x", "--now", "not a date"],
            ["build", "--out", "build"],
        ]
        for line in lines {
            let fast = try XCTUnwrap(BuildFastPath.arguments(line[...]), "\(line) went to the parser")
            let parsed = try XCTUnwrap(EgoFix.parseAsRoot(line) as? Build, "\(line)")
            XCTAssertEqual(fast, parsed.arguments, "\(line)")
        }
    }

    /// Everything else goes to the parser: other options, other forms, repeats, missing values,
    /// help, other commands.
    func test_BuildFastPath_leavesEveryOtherLineToTheParser() {
        let lines: [[String]] = [
            [], ["today"], ["bild"], ["build", "--demo"], ["build", "--stats"], ["build", "--help"], ["build", "-h"],
            ["build", "--version"], ["build", "--store=s.sqlite"], ["build", "--out"], ["build", "--out", ""],
            ["build", "--out", "-x"], ["build", "--out", "a", "--out", "b"], ["build", "--years", "10"],
            ["build", "--out", "a", "extra"], ["build", "--", "--out"], ["help", "build"],
        ]
        for line in lines {
            XCTAssertNil(BuildFastPath.arguments(line[...]), "\(line)")
        }
    }

    /// Through the program: a build the fast path reads builds and reports as before, and a line it
    /// leaves behaves as the parser says (help); a repeated option is refused for both.
    func test_BuildFastPath_buildsAndLeavesTheRestToTheParser() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let built = try cli.run(["build", "--out", "public"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(built.status, 0, built.err)
        XCTAssertTrue(built.out.hasPrefix("Built ") && built.out.contains("into public/"), built.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/public/index.html"))
        let again = try cli.run(["build", "--out", "public"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertTrue(again.out.contains(": 0 written,"), again.out)
        // A repeated option is refused, before either path reads it (the last one won without a word).
        let twice = try cli.run(["build", "--out", "a", "--out", "b"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(twice.status, 64, twice.err)
        XCTAssertTrue(twice.err.hasPrefix("egofix: --out is given twice"), twice.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/b") || FileManager.default.fileExists(atPath: cli.workdir + "/a"))
        let help = try cli.run(["build", "--help"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.out.contains("USAGE: egofix build"), help.out)
        let missing = try cli.run(["build", "--out"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(missing.status, 64, missing.err)
        XCTAssertTrue(missing.err.contains("--out"), missing.err)
    }
}
