import XCTest
@testable import EgoFixCore

final class ModelTests: XCTestCase {
    func test_UserProfile_defaultVersion() {
        XCTAssertEqual(UserProfile.new(now: Catalogue.epoch).currentVersion, "1.0")
    }

    func test_UserProfile_defaultStreak() {
        let u = UserProfile.new(now: Catalogue.epoch)
        XCTAssertEqual(u.currentStreak, 0)
        XCTAssertEqual(u.longestStreak, 0)
        XCTAssertTrue(u.streakFreezeAvailable)
        XCTAssertNil(u.lastEngagementDate)
    }

    func test_Bug_softDelete_setsTimestamp() {
        var b = Catalogue.bug("need-to-be-right")
        XCTAssertNil(b.deletedAt)
        let when = Catalogue.epoch.addingTimeInterval(60)
        b.softDelete(at: when)
        XCTAssertEqual(b.deletedAt, when)
        XCTAssertEqual(b.updatedAt, when)
        XCTAssertTrue(b.isDeleted)
    }

    func test_Fix_belongsToBug() async throws {
        let w = try await World.make(bugs: ["need-to-be-right", "need-to-be-liked"])
        let bugIds = Set(w.bugs.map(\.id))
        let all = try await w.repos.fixes.getAll()
        XCTAssertFalse(all.isEmpty)
        for f in all { XCTAssertTrue(bugIds.contains(f.bugId), "\(f.label) points at no bug") }
        let liked = w.bugs[1]
        let forLiked = try await w.repos.fixes.getForBug(liked.id)
        XCTAssertTrue(forLiked.allSatisfy { $0.bugId == liked.id })
        XCTAssertEqual(forLiked.count, w.fixes.filter { $0.bugId == liked.id }.count)
    }

    func test_Fix_interactionTypeConfig() throws {
        func fix(_ t: InteractionType, _ json: String?) -> Fix {
            Fix(number: 1, bugId: UUID(), interactionType: t, prompt: "p", configurationData: json.map { Data($0.utf8) },
                createdAt: Catalogue.epoch)
        }
        XCTAssertEqual(try fix(.standard, nil).configuration(), .standard)
        XCTAssertEqual(try fix(.timed, #"{"durationSeconds":120,"prompt":"Wait."}"#).configuration(),
                       .timed(TimedConfig(durationSeconds: 120, prompt: "Wait.")))
        XCTAssertEqual(try fix(.multiStep, #"{"steps":[{"id":"s1","instruction":"One"},{"id":"s2","instruction":"Two"}]}"#).configuration(),
                       .multiStep(MultiStepConfig(steps: [.init(id: "s1", instruction: "One"), .init(id: "s2", instruction: "Two")])))
        let quiz = try fix(.quiz, #"{"question":"Q","options":[{"id":"a","text":"A","weightModifier":0.5,"insight":"i"},{"id":"b","text":"B","weightModifier":-1}]}"#).configuration()
        guard case .quiz(let q) = quiz else { return XCTFail("quiz decoded as \(quiz)") }
        XCTAssertEqual(q.options.map(\.weightModifier), [0.5, -1])
        XCTAssertNil(q.options[1].insight)
        let sc = try fix(.scenario, #"{"situation":"S","options":[{"id":"a","text":"A"},{"id":"b","text":"B","insight":"x"}]}"#).configuration()
        guard case .scenario(let s) = sc else { return XCTFail("scenario decoded as \(sc)") }
        XCTAssertEqual(s.situation, "S")
        XCTAssertEqual(try fix(.counter, #"{"targetDescription":"times you interrupt","unit":"times"}"#).configuration(),
                       .counter(CounterConfig(targetDescription: "times you interrupt", unit: "times")))
        // A configuration of the wrong shape for its type is refused, naming the type.
        XCTAssertThrowsError(try fix(.timed, #"{"steps":[]}"#).configuration()) { e in
            XCTAssertTrue("\(e)".contains("timed"))
        }
        XCTAssertThrowsError(try fix(.quiz, nil).configuration())
        XCTAssertThrowsError(try fix(.timed, #"{"durationSeconds":0}"#).configuration())
    }

    func test_Fix_label_padsCatalogueNumber() {
        XCTAssertEqual(Fix(number: 37, bugId: UUID(), prompt: "p", createdAt: Catalogue.epoch).label, "FIX #037")
        XCTAssertEqual(Fix(number: 1234, bugId: UUID(), prompt: "p", createdAt: Catalogue.epoch).label, "FIX #1234")
    }

    func test_FixCompletion_outcomeTransitions() throws {
        let t0 = Catalogue.epoch
        for outcome in [FixOutcome.applied, .skipped, .failed] {
            var c = FixCompletion(fixId: UUID(), userId: UUID(), assignedAt: t0)
            XCTAssertEqual(c.outcome, .pending)
            try c.mark(outcome, at: t0.addingTimeInterval(10), reflection: "note")
            XCTAssertEqual(c.outcome, outcome)
            XCTAssertEqual(c.completedAt, t0.addingTimeInterval(10))
            XCTAssertEqual(c.reflection, "note")
            // Once only: a second outcome of any kind is refused and changes nothing.
            for again in FixOutcome.allCases {
                XCTAssertThrowsError(try c.mark(again, at: t0.addingTimeInterval(20)))
                XCTAssertEqual(c.outcome, outcome)
            }
        }
        var p = FixCompletion(fixId: UUID(), userId: UUID(), assignedAt: t0)
        XCTAssertThrowsError(try p.mark(.pending, at: t0)) { XCTAssertEqual($0 as? FixCompletion.TransitionError, .notAnOutcome) }
    }

    func test_Crash_rebootClearsState() {
        var c = Crash(userId: UUID(), bugId: nil, crashedAt: Catalogue.epoch)
        XCTAssertFalse(c.isRebooted)
        let when = Catalogue.epoch.addingTimeInterval(3600)
        c.reboot(at: when)
        XCTAssertEqual(c.rebootedAt, when)
        c.reboot(at: when.addingTimeInterval(3600))
        XCTAssertEqual(c.rebootedAt, when, "a second reboot keeps the first time")
    }

    func test_VersionEntry_incrementsCorrectly() {
        XCTAssertEqual(Version.initial.next.version.description, "1.1")
        XCTAssertEqual(Version.initial.next.change, .minorUpdate)
        let v19 = Version(major: 1, minor: 9)
        XCTAssertEqual(v19.next.version.description, "2.0")
        XCTAssertEqual(v19.next.change, .majorUpdate)
        XCTAssertEqual(Version("2.9")?.next.version.description, "3.0")
    }

    func test_models_roundTripThroughJSON() throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        enc.dateEncodingStrategy = .iso8601
        let dec = JSONDecoder()
        dec.dateDecodingStrategy = .iso8601
        let d = WeeklyDiagnostic(userId: UUID(), weekStarting: Catalogue.epoch,
                                 responses: [BugDiagnosticResponse(bugId: UUID(), intensity: .loud, primaryContext: .work)],
                                 completedAt: Catalogue.epoch)
        XCTAssertEqual(try dec.decode(WeeklyDiagnostic.self, from: enc.encode(d)), d)
        let p = DetectedPattern(userId: UUID(), patternType: .temporalCrash, severity: .insight, title: "t", body: "b",
                                relatedBugIds: [UUID()], dataPoints: 5, detectedAt: Catalogue.epoch)
        XCTAssertEqual(try dec.decode(DetectedPattern.self, from: enc.encode(p)), p)
    }

    func test_enums_keepTheSpecRawValues() {
        XCTAssertEqual(FixType.allCases.map(\.rawValue), ["daily", "weekly", "quickFix"])
        XCTAssertEqual(InteractionType.allCases.map(\.rawValue), ["standard", "timed", "multiStep", "quiz", "scenario", "counter"])
        // The spec's eleven, then EgoFix's own: timerCompleted (issue 32, `egofix timer`).
        XCTAssertEqual(EventType.allCases.count, 12)
        XCTAssertEqual(EventType.allCases.last, .timerCompleted)
        XCTAssertEqual(PatternType.allCases.map(\.rawValue),
                       ["avoidance", "temporalCrash", "contextualSpike", "correlatedBugs", "plateau", "regression", "improvement"])
        XCTAssertEqual(EducationTrigger.allCases.map(\.rawValue),
                       ["afterApplied", "afterSkipped", "afterFailed", "afterCrash", "duringDiagnostic", "restDay"])
        XCTAssertEqual(EventContext.allCases.map(\.rawValue), ["work", "home", "social", "family", "online", "unknown"])
    }

    func test_diagnosticResponse_quietHasNoContext() {
        XCTAssertNil(BugDiagnosticResponse(bugId: UUID(), intensity: .quiet, primaryContext: .work).primaryContext)
        XCTAssertEqual(BugDiagnosticResponse(bugId: UUID(), intensity: .present, primaryContext: .home).primaryContext, .home)
    }
}
