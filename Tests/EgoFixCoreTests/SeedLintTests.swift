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

    /// About 60 % of a bug's active fixes carry an inline comment (the spec); a bug with none, or
    /// with one on every fix, is named. A small catalogue of one's own is not held to the share.
    func test_lint_style_aboutSixtyPercentCarryAComment() throws {
        let right = try XCTUnwrap(bugs.first { $0["slug"] as? String == "need-to-be-right" }?["id"] as? String)
        let mine = fixes.indices.filter { fixes[$0]["bugId"] as? String == right }
        for i in mine { fixes[i]["inlineComment"] = NSNull() }
        let issues = try lint().filter { $0.field == "inlineComment" }
        XCTAssertEqual(issues.map(\.entry), ["need-to-be-right fixes"], "\(issues)")
        XCTAssertTrue(issues.first?.message.contains("0 of ") ?? false, "\(issues)")
        // A share written as the rest of the tool writes one: "5%", not "5 %".
        XCTAssertTrue(issues.first?.message.contains("(0%); about 60% should (") ?? false, "\(issues)")
        fixes = fixes.enumerated().filter { !mine.dropFirst(10).contains($0.offset) }.map(\.element)
        XCTAssertEqual(try lint().filter { $0.field == "inlineComment" }, [], "10 fixes of one's own, none with a comment")
    }

    /// A NUL cut a prompt short in the store; U+202E in a bug's title turned the rest of a page's
    /// line around. Both passed the lint.
    func test_lint_controlAndDirectionCharactersAreNamed() throws {
        fixes[4]["prompt"] = "Let someone else\u{0} finish the story."
        try assertOne("fixes.json", "FIX #005", "prompt", "holds the control character U+0000")
        fixes[4]["prompt"] = "Let someone else \u{202E}finish the story."
        try assertOne("fixes.json", "FIX #005", "prompt", "holds the direction control U+202E")
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
        // The one problem, said plainly: every fix would fail on the bugs it could not read
        // (a truncated bugs.json gave 690 more lines, and "bugs.json: -: -: not valid JSON").
        XCTAssertEqual(issues.map(\.description), ["bugs.json: not valid JSON"])
    }

    /// Guilt the list missed: "You should have known better. Don't forget to journal." was
    /// flagged for nothing but its "!" (the copy audit).
    func test_lint_copy_guiltPhrases() throws {
        for phrase in ["You should have known better.", "Don't forget to write it down.", "You forgot again.", "Missed again."] {
            education[0]["body"] = phrase
            try assertOne(SeedCatalogue.educationFile, "entry 1", "body", "banned phrase")
        }
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
        try assertOne("bugs.json", "bug 'need-to-be-liked'", "color", "not a #rrggbb color")
    }

    func test_copyRules_wholeWordsForShortPhrases() {
        XCTAssertEqual(CopyRules.violations("Expect nothing."), [])
        XCTAssertEqual(CopyRules.violations("You earned 50 XP."), ["banned phrase 'xp'"])
        XCTAssertEqual(CopyRules.violations("Practise mindfulness."), ["banned phrase 'mindful'"])
    }

    // MARK: House style (issue 35, docs/style.md)

    /// Index and label of the n-th active fix (not retired) of an interaction type, or of any type.
    func active(_ type: String? = nil, _ n: Int = 0, bug: Int? = nil) throws -> (Int, String) {
        let bugId = bug.map { bugs[$0]["id"] as? String }
        let all = fixes.indices.filter {
            fixes[$0]["retired"] as? Bool != true && (type == nil || fixes[$0]["interactionType"] as? String == type)
                && (bugId == nil || fixes[$0]["bugId"] as? String == bugId!)
        }
        let i = try XCTUnwrap(all.dropFirst(n).first, "no active fix \(type ?? "") #\(n)")
        return (i, "FIX #" + String(format: "%03d", fixes[i]["number"] as? Int ?? 0))
    }

    func test_lint_style_britishSpelling() throws {
        let (i, label) = try active()
        fixes[i]["prompt"] = "Notice whose behaviour you copy today."
        try assertOne("fixes.json", label, "prompt", "British spelling 'behaviour' (write 'behavior')")
        XCTAssertEqual(HouseStyle.spelling("They realised it, apologised, then travelled to the centre."),
                       ["British spelling 'realised' (write 'realized')", "British spelling 'apologised' (write 'apologized')",
                        "British spelling 'travelled' (write 'traveled')", "British spelling 'centre' (write 'center')"])
        XCTAssertEqual(HouseStyle.spelling("Praise, advice, otherwise, a promise, expertise, a surprise."), [])
    }

    func test_lint_style_curlyQuotes() throws {
        education[5]["body"] = "He called it \u{201C}face\u{201D}. Nobody argued."
        try assertOne("micro_education.json", "entry 6", "body", "curly quote U+201C")
    }

    func test_lint_style_singleQuotesAsQuotationMarks() throws {
        let (i, label) = try active("scenario")
        var c = try XCTUnwrap(fixes[i]["configuration"] as? [String: Any])
        c["situation"] = "Your friend says 'it was nothing' and means it."
        fixes[i]["configuration"] = c
        try assertOne("fixes.json", label, "configuration.situation", "single quotes used as quotation marks")
        for fine in ["Don't. It's the parents' evening, rock 'n' roll, back in the '90s, 'til Friday.", "Say \"I'd rather not.\""] {
            XCTAssertEqual(HouseStyle.quotes(fine), [], fine)
        }
    }

    func test_lint_style_commentShape() throws {
        let (i, label) = try active()
        fixes[i]["inlineComment"] = "// One.\n// Two.\n// Three."
        try assertOne("fixes.json", label, "inlineComment", "3 lines; at most 2")
        fixes[i]["inlineComment"] = "// " + String(repeating: "x", count: 58)
        try assertOne("fixes.json", label, "inlineComment", "line 1 is 61 characters; at most 60")
        fixes[i]["inlineComment"] = "// " + String(repeating: "x", count: 57) + "\n// Short."
        XCTAssertEqual(try lint(), [])
    }

    func test_lint_style_timerAtLeastAMinute() throws {
        let (i, label) = try active("timed")
        fixes[i]["configuration"] = ["durationSeconds": 15]
        try assertOne("fixes.json", label, "configuration.durationSeconds", "15 seconds; a timer runs at least 60")
    }

    /// Four prompts of one bug opening with the same three words: the fourth is one too many.
    func test_lint_style_repeatedOpenings() throws {
        var labels: [String] = []
        for n in 0..<4 {
            let (i, label) = try active("standard", n, bug: 1)
            fixes[i]["prompt"] = "Rehearse the moment number \(n) goes wrong."
            labels.append(label)
        }
        try assertOne("fixes.json", labels[3], "prompt", "opens with \"rehearse the moment\" like \(labels[0]), \(labels[1]), \(labels[2])")
        // Three prompts in another bug may share the opening.
        let (k, _) = try active("standard", 0, bug: 2)
        fixes[k]["prompt"] = "Rehearse the moment you get it wrong."
        XCTAssertEqual(try lint().count, 1)
    }

    /// Quizzes and scenarios vary their first word: three of one bug opening "Rehearse" is one too many.
    func test_lint_style_quizAndScenarioOpeningsVary() throws {
        var labels: [String] = []
        for (type, n) in [("scenario", 0), ("scenario", 1), ("quiz", 0)] {
            let (i, label) = try active(type, n, bug: 0)
            fixes[i]["prompt"] = "Rehearse \(type) \(n): what do you do?"
            labels.append(label)
        }
        let issues = try lint()
        XCTAssertEqual(issues.count, 1, "\(issues)")
        XCTAssertEqual(issues.first?.field, "prompt")
        XCTAssertTrue(issues.first?.message.contains("opens with \"rehearse\"") ?? false, "\(issues)")
    }

    func test_lint_style_validationCopiedVerbatim() throws {
        let (a, first) = try active("standard", 0, bug: 0)
        let (b, second) = try active("standard", 0, bug: 3)
        fixes[a]["validation"] = "Mark applied tonight, whatever happened."
        fixes[b]["validation"] = "Mark applied  tonight, whatever happened."
        try assertOne("fixes.json", second, "validation", "same text as \(first)")
    }

    /// A person or place named in one bug's tidbits is that bug's: naming them in another is an issue.
    func test_lint_style_nameUsedByTwoBugs() throws {
        let right = try XCTUnwrap(education.firstIndex { $0["bugSlug"] as? String == "need-to-be-right" })
        let busy = try XCTUnwrap(education.firstIndex { $0["bugSlug"] as? String == "need-to-be-busy" })
        education[right]["body"] = "The psychologist Ada Quillfeather studied arguments at dinner. Winning them cost the evening."
        education[busy]["body"] = "Long hours signal status, and Quillfeather noticed it first. The calendar is a costume."
        try assertOne("micro_education.json", "entry \(busy + 1)", "body", "names Quillfeather, which need-to-be-right tidbits use")
        // The same surname on two different people is not one name.
        XCTAssertFalse(HouseStyle.sameName(["Richard", "Lee"], ["Jungmin", "Lee"]))
        XCTAssertTrue(HouseStyle.sameName(["Goffman"], ["Erving", "Goffman"]))
        XCTAssertEqual(HouseStyle.names("In 1959 Erving Goffman wrote about face. Nobody on Monday noticed."), [["Erving", "Goffman"]])
        // A sentence-start name counts once the name is known from elsewhere.
        XCTAssertEqual(HouseStyle.names("Darwin kept a rule.", known: ["Darwin"]), [["Darwin"]])
        XCTAssertEqual(HouseStyle.names("\"Fine,\" Darwin wrote."), [["Darwin"]])
    }

    func test_lint_style_atMostAThirdOfTidbitsOpenWithAName() throws {
        let liked = education.indices.filter { education[$0]["bugSlug"] as? String == "need-to-be-liked" }
        let limit = liked.count / 3
        for (n, i) in liked.enumerated() {
            education[i]["body"] = n < limit ? "Ada Quillfeather said so, for the \(n)th time." : "Nobody said so, for the \(n)th time."
        }
        XCTAssertEqual(try lint(), [], "a third is allowed")
        education[liked[limit]]["body"] = "Ada Quillfeather said so, once more."
        try assertOne("micro_education.json", "need-to-be-liked tidbits", "body", "\(limit + 1) of \(liked.count) open with a name")
        XCTAssertTrue(HouseStyle.opensWithName("Parkinson's law says work expands.", known: []))
        XCTAssertFalse(HouseStyle.opensWithName("People who brag expect applause.", known: ["People"]))
        XCTAssertTrue(HouseStyle.opensWithName("Darwin kept a rule.", known: ["Darwin"]))
    }

    /// The words that sound like therapy or a wellness app, whole words unless a stem.
    func test_copyRules_therapyAndWellnessWords() {
        XCTAssertEqual(CopyRules.violations("You're allowed to rest."), ["banned phrase 'you're allowed'"])
        XCTAssertEqual(CopyRules.violations("You\u{2019}re allowed to rest."), ["banned phrase 'you're allowed'"])
        XCTAssertEqual(CopyRules.violations("Set boundaries with the group chat."), ["banned phrase 'boundaries'"])
        XCTAssertEqual(CopyRules.violations("Let it pass, then sit with it."), ["banned phrase 'let it pass'", "banned phrase 'sit with it'"])
        XCTAssertEqual(CopyRules.violations("It was traumatic."), ["banned phrase 'trauma'"])
        XCTAssertEqual(CopyRules.violations("Self-compassion, that's okay."),
                       ["banned phrase 'compassion'", "banned phrase 'self-compassion'", "banned phrase 'that's okay'"])
        // Whole words: an energetic gentleman who corrects you gently is not wellness copy.
        XCTAssertEqual(CopyRules.violations("An energetic gentleman corrects you gently. Sit with your kids."), [])
        XCTAssertEqual(CopyRules.violations("Low energy today."), ["banned phrase 'energy'"])
    }

    /// A retired fix keeps the words old records showed: it is not held to copy rules or house style,
    /// and takes no part in the rules across fixes; "retired" itself must be a boolean.
    func test_lint_retiredFixTextIsLeftAsShipped() throws {
        let (i, label) = try active()
        let (j, _) = try active("standard", 3)
        fixes[i]["prompt"] = "Notice your behaviour. You're allowed to."
        fixes[i]["validation"] = "Copied word for word."
        fixes[j]["validation"] = "Copied word for word."
        fixes[i]["retired"] = true
        XCTAssertEqual(try lint(), [])
        fixes[i]["retired"] = "yes"
        let issues = try lint()
        XCTAssertTrue(issues.contains { $0.entry == label && $0.field == "retired" && $0.message == "must be true or false" }, "\(issues)")
        XCTAssertTrue(issues.contains { $0.entry == label && $0.message.contains("behaviour") }, "\(issues)")
    }

    /// The shipped content meets issue 35's targets: months without a repeat for one active bug.
    func test_seeds_coverageMeetsTheContentRequirements() throws {
        let c = try SeedCatalogue.decode(bugs: try XCTUnwrap(BuiltIn.file("Seeds/bugs.json")),
                                         fixes: try XCTUnwrap(BuiltIn.file("Seeds/fixes.json")),
                                         education: try XCTUnwrap(BuiltIn.file("Seeds/micro_education.json")))
        XCTAssertEqual(c.bugs.map(\.slug).sorted(), ["fear-of-ordinary", "need-to-be-busy", "need-to-be-liked", "need-to-be-right", "need-to-impress"])
        let offered = c.fixes.filter(\.isOffered)
        for b in c.bugs {
            let mine = offered.filter { $0.bugId == b.id }
            let daily = mine.filter { $0.type == .daily }
            XCTAssertGreaterThanOrEqual(mine.count, 75, b.slug)
            XCTAssertGreaterThanOrEqual(daily.count, 60, b.slug)
            for s in FixSeverity.allCases { XCTAssertGreaterThanOrEqual(daily.filter { $0.severity == s }.count, 12, "\(b.slug) \(s)") }
            XCTAssertGreaterThanOrEqual(mine.filter { $0.type == .quickFix }.count, 5, b.slug)
            XCTAssertGreaterThanOrEqual(mine.filter { $0.type == .weekly }.count, 5, b.slug)
            XCTAssertGreaterThanOrEqual(Set(mine.map(\.interactionType)).count, 5, b.slug)
            // A tap inside the app is never high: quizzes and scenarios cost nothing visible.
            XCTAssertEqual(mine.filter { ($0.interactionType == .quiz || $0.interactionType == .scenario) && $0.severity == .high }.map(\.label), [],
                           b.slug)
            let tid = c.education.filter { $0.bugSlug == b.slug }
            XCTAssertGreaterThanOrEqual(tid.count, 45, b.slug)
            XCTAssertEqual(Set(tid.map(\.trigger)), Set(EducationTrigger.allCases), b.slug)
        }
        // The spec asks for inline comments on ~60% of fixes, "the best fixes have them". The second
        // edition's writers gave one to about 79% of the offered fixes; the lead decides whether to
        // thin them (issue 35 closing note). Below 55% would be a catalogue that lost its voice.
        let share = Double(offered.filter { $0.inlineComment != nil }.count) / Double(offered.count)
        XCTAssertGreaterThanOrEqual(share, 0.55, "inline comments on \(share) of the offered fixes")
        for f in c.fixes { XCTAssertNoThrow(try f.configuration(), f.label) }
        let prompts = offered.map { $0.prompt.lowercased() }
        XCTAssertEqual(Set(prompts).count, prompts.count, "two fixes share a prompt")
        // Retired fixes stay loadable for old records, and are never offered.
        XCTAssertGreaterThan(c.fixes.count, offered.count)
    }
}
