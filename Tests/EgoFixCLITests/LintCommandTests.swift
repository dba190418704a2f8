import XCTest

final class LintCommandTests: XCTestCase {
    var seeds: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Seeds")
    }

    func test_lint_builtInSeedsPassWithStats() throws {
        let cli = try CLI()
        let r = try cli.run(["lint", "--stats"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("ok. 5 bugs, "), r.out)
        for section in ["totals", "severity", "type", "interaction type", "trigger", "active fixes per bug", "need-to-be-right", "fear-of-ordinary"] {
            XCTAssertTrue(r.out.contains("\n" + section + "\n"), "no \(section) section")
        }
        // Per bug: active fixes, the daily pool, the retired ones and the tidbits by trigger, as numbers.
        func count(_ section: String, _ row: String) -> Int? {
            guard let s = r.out.range(of: "\n" + section + "\n") else { return nil }
            let lines = r.out[s.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            return lines.first { $0.hasPrefix("  " + row + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
        }
        for bug in ["need-to-be-right", "need-to-be-liked", "need-to-impress", "need-to-be-busy", "fear-of-ordinary"] {
            for row in ["active fixes", "daily eligible", "retired", "tidbits", "trigger afterSkipped", "type quickFix"] {
                XCTAssertNotNil(count(bug, row), "\(bug): no \(row) row in\n\(r.out)")
            }
            let active = try XCTUnwrap(count(bug, "active fixes")), daily = try XCTUnwrap(count(bug, "daily eligible"))
            XCTAssertEqual(daily, count(bug, "type daily"), bug)
            XCTAssertGreaterThan(active, daily, bug)
        }
        let total = try XCTUnwrap(count("totals", "fixes")), active = try XCTUnwrap(count("totals", "active fixes"))
        XCTAssertEqual(total - active, count("totals", "retired fixes"))
        XCTAssertTrue(r.out.contains("ok. 5 bugs, \(total) fixes, "), r.out)
    }

    /// A folder breaking several rules at once: each error is one line naming file, entry and field.
    func test_lint_brokenFolderReportsEachProblemWithItsLocation() throws {
        let cli = try CLI()
        let dir = cli.workdir + "/BrokenSeeds"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func load(_ n: String) throws -> [[String: Any]] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: seeds.appendingPathComponent(n))) as? [[String: Any]])
        }
        var bugs = try load("bugs.json"), fixes = try load("fixes.json"), tidbits = try load("micro_education.json")
        bugs[0]["color"] = "orange"
        fixes[0]["prompt"] = "Win every argument today!"
        fixes[1]["bugId"] = "00000000-0000-0000-0000-000000000009"
        fixes[2]["number"] = 1
        tidbits[0]["trigger"] = "afterLunch"
        for (name, value) in [("bugs.json", bugs), ("fixes.json", fixes), ("micro_education.json", tidbits)] {
            try JSONSerialization.data(withJSONObject: value).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let r = try cli.run(["lint", dir])
        XCTAssertNotEqual(r.status, 0)
        let lines = r.out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("bugs.json: bug 'need-to-be-right': color:") }, r.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("fixes.json: FIX #001: prompt: contains '!'") }, r.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("fixes.json: FIX #002: bugId: no bug with id") }, r.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("fixes.json: FIX #001: number: duplicate number") }, r.out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("micro_education.json: entry 1: trigger: 'afterLunch' is not one of") }, r.out)
        XCTAssertTrue(r.err.contains("problems in \(dir)"), r.err)
        let missing = try cli.run(["lint", cli.workdir + "/nope"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.err.contains("is not a folder"), missing.err)
    }

    /// A Seeds folder that overrides one file is checked as a build reads it: the other files are
    /// the built-in ones. With no folder named, lint checks ./Seeds, what a build here uses.
    func test_lint_anOverrideOfOneFileIsCheckedWithTheBuiltInOthers() throws {
        let cli = try CLI()
        let dir = cli.workdir + "/Seeds"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var fixes = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: seeds.appendingPathComponent("fixes.json"))) as? [[String: Any]])
        fixes[0]["prompt"] = "Let someone else finish the story."
        try JSONSerialization.data(withJSONObject: fixes).write(to: URL(fileURLWithPath: dir + "/fixes.json"))
        for args in [["lint", dir], ["lint"]] {
            let r = try cli.run(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.out)\(r.err)")
            XCTAssertTrue(r.out.contains("(with the built-in bugs.json, micro_education.json): ok."), r.out)
        }
    }
}

/// A ./Seeds folder overrides the built-in catalogue file by file: better wording reaches the store
/// at the next command, and a file that is not right is refused with one line per problem, nothing loaded.
final class SeedsOverrideTests: XCTestCase {
    func test_seedsOverride_newWordingIsLoaded_andABrokenFileIsRefused() throws {
        let cli = try CLI()
        let now = "2026-11-23T08:00:00+01:00"
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: now).status, 0)
        let before = try cli.json(["today"], at: now)
        let number = try XCTUnwrap((before["fix"] as? [String: Any])?["number"] as? Int, "\(before)")
        let builtIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Seeds/fixes.json")
        var fixes = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: builtIn)) as? [[String: Any]])
        let k = try XCTUnwrap(fixes.firstIndex { $0["number"] as? Int == number })
        let wording = "Let the other person finish the story, including the part you already know."
        fixes[k]["prompt"] = wording
        let dir = cli.workdir + "/Seeds"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: fixes).write(to: URL(fileURLWithPath: dir + "/fixes.json"))
        let after = try XCTUnwrap(try cli.json(["today"], at: now)["fix"] as? [String: Any])
        XCTAssertEqual(after["number"] as? Int, number)
        XCTAssertEqual(after["prompt"] as? String, wording, "\(after)")

        try Data("[{".utf8).write(to: URL(fileURLWithPath: dir + "/bugs.json"))
        let broken = try cli.run(["today"], at: now)
        XCTAssertNotEqual(broken.status, 0)
        // With what to do (it was the bare line).
        XCTAssertTrue(broken.err.hasSuffix("Seeds/bugs.json: not valid JSON. Nothing recorded. Mend it (`egofix lint Seeds` lists every problem), or move Seeds/ aside for the built-in catalogue.\n"), broken.err)
        XCTAssertEqual(broken.out, "")
    }
}
