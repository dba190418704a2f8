import XCTest
@testable import egofix

/// A plain `egofix build`, and a plain `today`, `applied`, `skipped` or `failed`, are read without
/// swift-argument-parser: what `main` reads must be what the parser would have made, or nothing
/// (and then the parser reads it).
final class BuildCommandLineTests: XCTestCase {
    /// The request swift-argument-parser makes of `arguments`, or nil when it refuses them (or
    /// they are not a build).
    func parsed(_ arguments: [String]) -> BuildRequest? {
        (try? EgoFix.parseAsRoot(arguments) as? Build)?.request
    }

    func test_build_plainCommandLineIsReadAsTheParserReadsIt() {
        let plain: [[String]] = [
            ["build"],
            ["build", "--demo"],
            ["build", "--stats"],
            ["build", "--demo", "--out", "/tmp/x", "--stats"],
            ["build", "--stats", "--out=/tmp/x", "--demo"],
            ["build", "--demo", "--seed", "7", "--years=1", "--out", "site"],
            ["build", "--demo", "--years", "100", "--seed=18446744073709551615"],
            ["build", "--years=+3", "--demo"],
            ["build", "--years=-3", "--demo"],
            ["build", "--out", "", "--demo"],
            ["build", "--out", "a b/ç", "--base-url", "https://example.org/x"],
            ["build", "--base-url=ftp://example.org"],
            ["build", "--store", "~/s.sqlite", "--now", "2026-11-22T09:00:00Z"],
            ["build", "--now=2026-11-22T09:00:00+01:00", "--store=/tmp/a=b.sqlite"],
            ["build", "--out", "x=y"],
        ]
        for arguments in plain {
            let read = BuildRequest(commandLine: arguments)
            XCTAssertNotNil(read, "\(arguments) is a plain build and should be read directly")
            XCTAssertNotNil(parsed(arguments), "\(arguments)")
            XCTAssertEqual(read, parsed(arguments), "\(arguments)")
        }
        XCTAssertEqual(BuildRequest(commandLine: ["build", "--demo", "--out", "o", "--years", "3", "--seed", "9", "--stats"]),
                       BuildRequest(out: "o", demo: true, years: 3, seed: 9, stats: true))

        // Anything else is left to the parser, which either reads it or refuses it.
        let other: [[String]] = [
            [],
            ["today"],
            ["build", "--help"],
            ["build", "-h"],
            ["help", "build"],
            ["build", "--version"],
            ["build", "--seed", "7", "--seed", "8"],
            ["build", "--demo", "--demo"],
            ["build", "--demo=yes"],
            ["build", "--stats=1"],
            ["build", "--years", "x"],
            ["build", "--years", "0x10"],
            ["build", "--years", " 3"],
            ["build", "--years", "99999999999999999999"],
            ["build", "--seed", "-1"],
            ["build", "--seed=-1"],
            ["build", "--out"],
            ["build", "--out=", "--demo"],
            ["build", "--out", "--demo"],
            ["build", "--out", "-"],
            ["build", "--", "--demo"],
            ["build", "--Demo"],
            ["build", "--dem"],
            ["build", "site"],
            ["build", "--generate-completion-script", "bash"],
            ["build", "--experimental-dump-help"],
            ["Build"],
        ]
        for arguments in other {
            XCTAssertNil(BuildRequest(commandLine: arguments), "\(arguments) should go to the parser")
        }
        XCTAssertNil(parsed(["build", "--years", "x"]))
        XCTAssertEqual(parsed(["build", "--seed", "7", "--seed", "8"])?.seed, 8)
    }

    /// The daily commands, made without the parser, hold every option as the parser sets it: the
    /// same type, the same values, none left unset (an unset one prints "*definition*" here and
    /// would stop the command when read).
    func test_dailyCommands_plainCommandLineIsReadAsTheParserReadsIt() throws {
        let plain: [[String]] = [
            ["today"],
            ["today", "--json"],
            ["today", "--store", "/tmp/s.sqlite", "--now=2026-11-23T08:00:00+01:00", "--json"],
            ["applied"],
            ["applied", "--message", "Said nothing. It held.", "--store=~/x.sqlite"],
            ["skipped", "--edit", "--now", "2026-11-23T08:00:00Z"],
            ["failed", "--count", "3", "--steps=2", "--option", "b", "--timer-done"],
            ["failed", "--count=+3", "--message=a=b"],
            ["applied", "--message", ""],
            ["skipped", "--steps", "0", "--count=-1"],
        ]
        for arguments in plain {
            let direct = try XCTUnwrap(PlainCommandLine.dailyCommand(arguments), "\(arguments) is plain and should be read directly")
            let parsed = try EgoFix.parseAsRoot(arguments)
            XCTAssertTrue(type(of: direct) == type(of: parsed), "\(arguments): \(type(of: direct)), not \(type(of: parsed))")
            XCTAssertEqual(String(describing: direct), String(describing: parsed), "\(arguments)")
            XCTAssertFalse(String(describing: direct).contains("*definition*"), "\(arguments): \(direct)")
        }
        let other: [[String]] = [
            ["today", "--help"],
            ["today", "-h"],
            ["today", "--json", "--json"],
            ["today", "--json=yes"],
            ["today", "--message", "x"],
            ["today", "extra"],
            ["applied", "-m", "short options go to the parser"],
            ["applied", "-e"],
            ["applied", "--count", "x"],
            ["applied", "--count", "-1"],
            ["applied", "--steps", "1.5"],
            ["applied", "--message"],
            ["applied", "--message="],
            ["applied", "--message", "--edit"],
            ["applied", "--", "--edit"],
            ["applied", "--json"],
            ["status"],
            ["history", "--days", "7"],
            [],
        ]
        for arguments in other {
            XCTAssertNil(PlainCommandLine.dailyCommand(arguments), "\(arguments) should go to the parser")
        }
    }
}
