import XCTest
@testable import EgoFixCore
import EgoFixResources

final class SeedLintTests: XCTestCase {
    var bugs: [[String: Any]] = []
    var fixes: [[String: Any]] = []
    var education: [[String: Any]] = []

    override func setUpWithError() throws {
        func load(_ name: String) throws -> [[String: Any]] {
            let data = try XCTUnwrap(BuiltIn.file("Seeds/" + name), "built-in \(name) missing")
            return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        }
        bugs = try load(SeedCatalogue.bugsFile)
        fixes = try load(SeedCatalogue.fixesFile)
        education = try load(SeedCatalogue.educationFile)
    }

    func lint() throws -> [SeedLint.Issue] {
        SeedLint.lint(bugs: try JSONSerialization.data(withJSONObject: bugs),
                      fixes: try JSONSerialization.data(withJSONObject: fixes),
                      education: try JSONSerialization.data(withJSONObject: education))
    }

    /// Exactly one issue, at the given place, whose message contains `contains`.
    func assertOne(_ file: String, _ entry: String, _ field: String, _ contains: String, line: UInt = #line) throws {
        let issues = try lint()
        XCTAssertEqual(issues.count, 1, "issues: \(issues)", line: line)
        guard let i = issues.first else { return }
        XCTAssertEqual(i.file, file, line: line)
        XCTAssertEqual(i.entry, entry, line: line)
        XCTAssertEqual(i.field, field, line: line)
        XCTAssertTrue(i.message.contains(contains), "message: \(i.message)", line: line)
    }

    func test_lint_builtInSeedsPass() throws {
        XCTAssertEqual(try lint(), [])
    }

    func test_lint_schema_missingField() throws {
        fixes[4].removeValue(forKey: "prompt")
        try assertOne("fixes.json", "FIX #005", "prompt", "is missing")
    }

    func test_lint_schema_badEnumValue() throws {
        fixes[9]["severity"] = "extreme"
        try assertOne("fixes.json", "FIX #010", "severity", "'extreme' is not one of low, medium, high")
    }

    func test_lint_schema_notJSON() throws {
        let issues = SeedLint.lint(bugs: Data("[{".utf8), fixes: try JSONSerialization.data(withJSONObject: fixes),
                                   education: try JSONSerialization.data(withJSONObject: education))
        XCTAssertEqual(issues.first?.file, "bugs.json")
        XCTAssertEqual(issues.first?.message, "not valid JSON")
    }

    func test_lint_reference_fixPointsAtMissingBug() throws {
        fixes[0]["bugId"] = "00000000-0000-0000-0000-000000000001"
        try assertOne("fixes.json", "FIX #001", "bugId", "no bug with id")
    }

    func test_lint_reference_tidbitPointsAtMissingSlug() throws {
        education[3]["bugSlug"] = "need-to-be-perfect"
        try assertOne("micro_education.json", "entry 4", "bugSlug", "no bug 'need-to-be-perfect'")
    }

    func test_lint_uniqueIds() throws {
        education[7]["id"] = fixes[2]["id"]
        try assertOne("micro_education.json", "entry 8", "id", "duplicate id, first used by fixes.json FIX #003")
    }

    func test_lint_uniqueNumbers() throws {
        fixes[11]["number"] = 3
        try assertOne("fixes.json", "FIX #003", "number", "duplicate number")
    }

    func test_lint_configurationMustMatchInteractionType() throws {
        let i = try XCTUnwrap(fixes.firstIndex { ($0["interactionType"] as? String) == "quiz" })
        fixes[i]["configuration"] = ["durationSeconds": 60]
        let label = "FIX #" + String(format: "%03d", fixes[i]["number"] as? Int ?? 0)
        try assertOne("fixes.json", label, "configuration", "quiz")
    }

    func test_lint_standardFixTakesNoConfiguration() throws {
        let i = try XCTUnwrap(fixes.firstIndex { ($0["interactionType"] as? String) == "standard" })
        fixes[i]["configuration"] = ["steps": []]
        let label = "FIX #" + String(format: "%03d", fixes[i]["number"] as? Int ?? 0)
        try assertOne("fixes.json", label, "configuration", "takes no configuration")
    }

    func test_lint_copy_exclamationMark() throws {
        fixes[20]["prompt"] = "Let someone else win the argument!"
        try assertOne("fixes.json", "FIX #021", "prompt", "contains '!'")
    }

    func test_lint_copy_emoji() throws {
        education[0]["body"] = "The need to be right is about status \u{1F642}"
        try assertOne("micro_education.json", "entry 1", "body", "emoji")
    }

    func test_lint_copy_bannedPhrase() throws {
        fixes[30]["inlineComment"] = "// Great job noticing."
        try assertOne("fixes.json", "FIX #031", "inlineComment", "banned phrase 'great job'")
    }

    func test_lint_copy_lengthACardCanShow() throws {
        fixes[40]["prompt"] = String(repeating: "Notice it. ", count: 20)
        try assertOne("fixes.json", "FIX #041", "prompt", "over the limit of 160")
    }

    func test_lint_inlineCommentLinesStartWithSlashes() throws {
        fixes[50]["inlineComment"] = "// First line.\nSecond line without slashes."
        try assertOne("fixes.json", "FIX #051", "inlineComment", "must start with '// '")
    }

    func test_lint_bugColour() throws {
        bugs[1]["color"] = "purple"
        try assertOne("bugs.json", "bug 'need-to-be-liked'", "color", "not a #rrggbb colour")
    }

    func test_copyRules_wholeWordsForShortPhrases() {
        XCTAssertEqual(CopyRules.violations("Expect nothing."), [])
        XCTAssertEqual(CopyRules.violations("You earned 50 XP."), ["banned phrase 'xp'"])
        XCTAssertEqual(CopyRules.violations("Practise mindfulness."), ["banned phrase 'mindful'"])
    }

    /// The shipped content meets the content brief: months without a repeat.
    func test_seeds_coverageMeetsTheContentRequirements() throws {
        let c = try SeedCatalogue.decode(bugs: try XCTUnwrap(BuiltIn.file("Seeds/bugs.json")),
                                         fixes: try XCTUnwrap(BuiltIn.file("Seeds/fixes.json")),
                                         education: try XCTUnwrap(BuiltIn.file("Seeds/micro_education.json")))
        XCTAssertEqual(c.bugs.map(\.slug).sorted(), ["fear-of-ordinary", "need-to-be-busy", "need-to-be-liked", "need-to-be-right", "need-to-impress"])
        for b in c.bugs {
            let mine = c.fixes.filter { $0.bugId == b.id }
            XCTAssertGreaterThanOrEqual(mine.count, 50, b.slug)
            for s in FixSeverity.allCases { XCTAssertGreaterThanOrEqual(mine.filter { $0.severity == s }.count, 12, "\(b.slug) \(s)") }
            XCTAssertGreaterThanOrEqual(mine.filter { $0.type == .quickFix }.count, 3, b.slug)
            XCTAssertGreaterThanOrEqual(mine.filter { $0.type == .weekly }.count, 3, b.slug)
            XCTAssertGreaterThanOrEqual(Set(mine.map(\.interactionType)).count, 5, b.slug)
            let tid = c.education.filter { $0.bugSlug == b.slug }
            XCTAssertGreaterThanOrEqual(tid.count, 30, b.slug)
            XCTAssertEqual(Set(tid.map(\.trigger)), Set(EducationTrigger.allCases), b.slug)
        }
        let share = Double(c.fixes.filter { $0.inlineComment != nil }.count) / Double(c.fixes.count)
        XCTAssertTrue((0.55...0.65).contains(share), "inline comments on \(share)")
        for f in c.fixes { XCTAssertNoThrow(try f.configuration(), f.label) }
        let prompts = c.fixes.map { $0.prompt.lowercased() }
        XCTAssertEqual(Set(prompts).count, prompts.count, "two fixes share a prompt")
    }
}
