import XCTest
@testable import EgoFixCore

/// A hand-built log for the insights: fixes marked on given days, crashes, versions from VersionRules.
struct InsightLog {
    let clock = Clock("Europe/Berlin")
    var cal: Calendar { clock.calendar }
    let user = Catalogue.uuid("insight-user")
    let bug = Catalogue.bug("need-to-be-right")
    let other = Catalogue.bug("need-to-be-liked")
    var fixes: [Fix]
    var completions: [FixCompletion] = []
    var crashes: [Crash] = []
    var versions: [VersionEntry] = []
    var events: [AnalyticsEvent] = []
    var diagnostics: [WeeklyDiagnostic] = []
    var appliedCount = 0

    init() {
        fixes = Catalogue.fixes(for: Catalogue.bug("need-to-be-right"), perSeverity: 10)
            + Catalogue.fixes(for: Catalogue.bug("need-to-be-liked"), perSeverity: 10, startNumber: 101)
    }

    func fix(_ bug: Bug, _ sev: FixSeverity, _ i: Int) -> Fix {
        fixes.first { $0.id == Catalogue.uuid("fix-\(bug.slug)-\(sev.rawValue)-\(i)") } ?? fixes[0]
    }

    @discardableResult
    mutating func mark(_ outcome: FixOutcome, _ f: Fix, at t: Date, reflection: String? = nil) -> FixCompletion {
        var c = FixCompletion(id: Catalogue.uuid("completion-\(completions.count)"), fixId: f.id, userId: user,
                              assignedAt: t.addingTimeInterval(-3600))
        if outcome != .pending { try? c.mark(outcome, at: t, reflection: reflection) }
        completions.append(c)
        if outcome == .applied {
            versions += VersionRules.entriesAfterApplying(appliedCountBefore: appliedCount, userId: user, at: t,
                                                          id: Catalogue.uuid("version-\(versions.count)"))
            appliedCount += 1
        }
        return c
    }

    mutating func crash(_ bug: Bug?, at t: Date, note: String? = nil) {
        crashes.append(Crash(id: Catalogue.uuid("crash-\(crashes.count)"), userId: user, bugId: bug?.id, note: note, crashedAt: t))
        let v = VersionRules.version(forAppliedCount: appliedCount)
        versions.append(VersionRules.entry(for: .crash, current: v, userId: user, at: t, description: "Crash.",
                                           id: Catalogue.uuid("version-\(versions.count)")))
    }

    mutating func open(at t: Date) {
        events.append(.make(id: Catalogue.uuid("event-\(events.count)"), userId: user, type: .appOpened, at: t, calendar: cal))
    }

    var practice: Practice {
        Practice(bugs: [bug, other], fixes: fixes, completions: completions, crashes: crashes, versions: versions,
                 events: events, diagnostics: diagnostics)
    }
}

final class InsightTests: XCTestCase {
    // MARK: Day ledger

    /// The ledger keeps each day's activity in slots found by day number: an array over the span
    /// of the days, or a dictionary when the days are millennia apart. Both give the same days.
    func test_DayLedger_daysFarApart_areCountedAsDaysClose() throws {
        func ledger(farYear: Int) -> DayLedger {
            var log = InsightLog()
            let f = log.fix(log.bug, .low, 1)
            log.mark(.applied, f, at: log.clock.at(2026, 3, 2, 9))
            log.mark(.skipped, f, at: log.clock.at(2026, 3, 2, 18))
            log.crash(log.bug, at: log.clock.at(2026, 3, 3, 12), note: "Said it anyway.")
            log.open(at: log.clock.at(2026, 3, 3, 13))
            log.crash(nil, at: log.clock.at(farYear, 6, 1, 12))
            return DayLedger(log.practice, calendar: log.cal)
        }
        let close = ledger(farYear: 2030), far = ledger(farYear: 14_000)  // 4.4 M days: past the array's limit
        XCTAssertEqual(far.days.count, 3)
        XCTAssertEqual(close.days.map(\.applied), far.days.map(\.applied))
        XCTAssertEqual(close.days.map(\.crashes), [0, 1, 1])
        XCTAssertEqual(far.days.map(\.crashes), [0, 1, 1])
        XCTAssertEqual(far.days.map(\.skipped), [1, 0, 0])
        XCTAssertEqual(far.days.map(\.crashesWithNote), [0, 1, 0])
        XCTAssertEqual(far.days.map(\.opens), [0, 1, 0])
        XCTAssertEqual(far.days.last?.day, LocalDay(year: 14_000, month: 6, day: 1))
        XCTAssertEqual(far.activity(on: LocalDay(year: 2026, month: 3, day: 3)).crashes, 1)
        XCTAssertEqual(far.activity(on: LocalDay(year: 2026, month: 3, day: 4)).crashes, 0)
    }

    /// Two machines in two zones act in the same second: New York still on Monday, Sydney already
    /// on Tuesday (the reader in Berlin). Each fix and crash stays on the day its own machine made
    /// it; both used to land on one day, the day of whichever event was read last.
    func test_DayLedger_twoZonesInTheSameSecondKeepTheirOwnDays() throws {
        var log = InsightLog()
        let t = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-03-02T23:30:00Z"))
        let newYork = Clock("America/New_York").calendar, sydney = Clock("Australia/Sydney").calendar
        let a = log.fix(log.bug, .low, 1), b = log.fix(log.other, .low, 1)
        log.mark(.applied, a, at: t)
        log.mark(.failed, b, at: t)
        log.crashes.append(Crash(id: Catalogue.uuid("crash-ny"), userId: log.user, bugId: log.bug.id, crashedAt: t))
        log.crashes.append(Crash(id: Catalogue.uuid("crash-syd"), userId: log.user, bugId: log.other.id, crashedAt: t))
        log.events += [
            .make(userId: log.user, type: .fixApplied, bugId: log.bug.id, fixId: a.id, at: t, calendar: newYork),
            .make(userId: log.user, type: .crashLogged, bugId: log.bug.id, at: t, calendar: newYork),
            .make(userId: log.user, type: .fixFailed, bugId: log.other.id, fixId: b.id, at: t, calendar: sydney),
            .make(userId: log.user, type: .crashLogged, bugId: log.other.id, at: t, calendar: sydney),
        ]
        let ledger = DayLedger(log.practice, calendar: log.cal)
        let monday = LocalDay(year: 2026, month: 3, day: 2), tuesday = LocalDay(year: 2026, month: 3, day: 3)
        XCTAssertEqual(ledger.activity(on: monday).applied, 1)
        XCTAssertEqual(ledger.activity(on: monday).failed, 0)
        XCTAssertEqual(ledger.activity(on: monday).crashes, 1)
        XCTAssertEqual(ledger.activity(on: tuesday).failed, 1)
        XCTAssertEqual(ledger.activity(on: tuesday).applied, 0)
        XCTAssertEqual(ledger.activity(on: tuesday).crashes, 1)
        let days = SyncRules.engagements(completions: log.completions, crashes: log.crashes, diagnostics: [],
                                         events: log.events, calendar: log.cal).filter { $0.at == t }.map(\.day)
        XCTAssertEqual(Set(days), [monday, tuesday], "each machine's engagement counts its own day for the streak")
    }

    /// The same about one bug (the common case: the primary bug), once both machines have synced:
    /// two crashes at one second tell their days apart by the machine that made each, as their
    /// events do (both sat on the day of the first event).
    func test_DayLedger_twoCrashesAboutOneBugInTheSameSecondKeepTheirMachinesDays() throws {
        var log = InsightLog()
        let t = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-03-02T23:30:00Z"))
        let newYork = Clock("America/New_York").calendar, sydney = Clock("Australia/Sydney").calendar
        for (name, token) in [("crash-a", "machine-a"), ("crash-b", "machine-b")] {
            log.crashes.append(Crash(id: Catalogue.uuid(name), userId: log.user, bugId: log.bug.id, crashedAt: t, syncToken: token))
        }
        var a = AnalyticsEvent.make(userId: log.user, type: .crashLogged, bugId: log.bug.id, at: t, calendar: sydney)
        var b = AnalyticsEvent.make(userId: log.user, type: .crashLogged, bugId: log.bug.id, at: t, calendar: newYork)
        a.syncToken = "machine-b"   // Sydney's event, read first
        b.syncToken = "machine-a"
        log.events += [a, b]
        let ledger = DayLedger(log.practice, calendar: log.cal)
        XCTAssertEqual(ledger.activity(on: LocalDay(year: 2026, month: 3, day: 2)).crashes, 1, "machine a's, in New York")
        XCTAssertEqual(ledger.activity(on: LocalDay(year: 2026, month: 3, day: 3)).crashes, 1, "machine b's, in Sydney")
    }

    // MARK: Contribution graph

    func test_ContributionGraph_colorMatchesOutcome() {
        var log = InsightLog()
        let c = log.clock
        log.mark(.applied, log.fix(log.bug, .low, 0), at: c.at(2026, 3, 2, 20))
        log.mark(.skipped, log.fix(log.bug, .low, 1), at: c.at(2026, 3, 3, 20))
        log.crash(log.bug, at: c.at(2026, 3, 4, 14))
        log.open(at: c.at(2026, 3, 5, 8))
        // 2026-03-06: nothing.
        log.mark(.failed, log.fix(log.bug, .low, 2), at: c.at(2026, 3, 7, 20))
        // Several outcomes on one day: crash > failed > applied > skipped.
        log.mark(.applied, log.fix(log.bug, .low, 3), at: c.at(2026, 3, 8, 20))
        log.crash(log.other, at: c.at(2026, 3, 8, 22))
        log.mark(.applied, log.fix(log.bug, .low, 4), at: c.at(2026, 3, 9, 10))
        log.mark(.failed, log.fix(log.other, .low, 0), at: c.at(2026, 3, 9, 20))
        log.mark(.skipped, log.fix(log.bug, .low, 5), at: c.at(2026, 3, 10, 10))
        log.mark(.applied, log.fix(log.other, .low, 1), at: c.at(2026, 3, 10, 20))
        let g = ContributionGraph.make(log.practice, calendar: log.cal, from: c.day(2026, 3, 2), to: c.day(2026, 3, 10))
        XCTAssertEqual(g.cells.map(\.color), [.applied, .skipped, .crash, .opened, .empty, .failed, .crash, .failed, .applied])
        XCTAssertEqual(g.cells.map(\.row), [0, 1, 2, 3, 4, 5, 6, 0, 1], "Monday is row 0")
        XCTAssertEqual(g.cells.map(\.column), [0, 0, 0, 0, 0, 0, 0, 1, 1])
        XCTAssertEqual(g.columns, 2)
        // The label says in words what the shade says: its depth (the graph's only other channel).
        XCTAssertEqual(g.cells[6].label, "2026-03-08: 1 applied, 1 crash, depth \(g.cells[6].depth) of 4")
        XCTAssertEqual(g.cells[0].label, "2026-03-02: 1 applied, depth 1 of 4")
        // Opened with no fix given (a rest day): not "no outcome", which read as a fix left unmarked.
        XCTAssertEqual(g.cells[3].label, "2026-03-05: opened, no fix given")
        XCTAssertEqual(g.cells[4].label, "2026-03-06: nothing")
    }

    /// A grey-outlined day's label says it held no outcome, whatever else it held (a reboot, a
    /// diagnostic): "2026-03-03: 1 reboot" read as if the reboot were the day's outcome.
    func test_ContributionGraph_aDayWithoutAnOutcomeSaysSo() {
        var log = InsightLog()
        let c = log.clock
        log.crash(nil, at: c.at(2026, 3, 2, 20))
        log.versions.append(VersionRules.entry(for: .reboot, current: VersionRules.version(forAppliedCount: 0), userId: log.user,
                                               at: c.at(2026, 3, 3, 9), description: "Reboot.", id: Catalogue.uuid("reboot-0")))
        let g = ContributionGraph.make(log.practice, calendar: log.cal, from: c.day(2026, 3, 2), to: c.day(2026, 3, 3))
        XCTAssertEqual(g.cells.map(\.color), [.crash, .opened])
        XCTAssertEqual(g.cells[1].label, "2026-03-03: 1 reboot, no outcome")
    }

    func test_ContributionGraph_intensityMatchesDepth() {
        var log = InsightLog()
        let c = log.clock
        log.mark(.applied, log.fix(log.bug, .high, 0), at: c.at(2026, 3, 2, 20), reflection: "I let him finish. It took effort.")
        log.mark(.applied, log.fix(log.bug, .low, 0), at: c.at(2026, 3, 3, 20))
        log.mark(.applied, log.fix(log.bug, .medium, 0), at: c.at(2026, 3, 4, 20))
        log.crash(log.bug, at: c.at(2026, 3, 5, 14), note: "Corrected a stranger's grammar. Out loud.")
        log.crash(log.bug, at: c.at(2026, 3, 6, 14))
        log.open(at: c.at(2026, 3, 7, 8))
        log.mark(.skipped, log.fix(log.bug, .high, 1), at: c.at(2026, 3, 8, 20))
        let g = ContributionGraph.make(log.practice, calendar: log.cal, from: c.day(2026, 3, 2), to: c.day(2026, 3, 9))
        XCTAssertEqual(g.cells.map(\.depth), [4, 1, 2, 3, 1, 1, 1, 0],
                       "high + reflection is dark; a low tap-through light; a crash with a note deep; a skipped high fix is not engagement")
    }

    // MARK: History

    /// `egofix history --json`'s rates: by bug over the whole practice, by title. (The history
    /// page's tables by version: `SitePagesTests.test_HistoryViewModel_groupsByVersion`.)
    func test_HistoryInsight_overallRatesByBug() throws {
        var log = InsightLog()
        let c = log.clock
        for i in 0..<7 { log.mark(.applied, log.fix(log.bug, .low, i), at: c.at(2026, 3, 2 + i, 20)) }
        log.mark(.skipped, log.fix(log.other, .low, 0), at: c.at(2026, 3, 9, 20))
        log.mark(.skipped, log.fix(log.bug, .low, 7), at: c.at(2026, 3, 10, 20))
        for i in 0..<3 { log.mark(.applied, log.fix(log.other, .low, 1 + i), at: c.at(2026, 3, 11 + i, 20)) }
        log.mark(.pending, log.fix(log.bug, .low, 8), at: c.at(2026, 3, 14, 9))
        XCTAssertEqual(log.versions.map(\.version), ["1.1"])

        let h = HistoryInsight.make(log.practice)
        XCTAssertEqual(h.overall.map(\.title), ["Need To Be Liked", "Need To Be Right"], "by title")
        let liked = try XCTUnwrap(h.overall.first)
        XCTAssertEqual([liked.applied, liked.skipped, liked.failed, liked.unmarked], [3, 1, 0, 0])
        XCTAssertEqual(liked.line, "3 of 4 applied (75%)")
        XCTAssertEqual(h.overall[1].unmarked, 1)
        XCTAssertEqual(h.overall.first { $0.title == "Need To Be Right" }?.completionRate ?? 0, 7.0 / 8, accuracy: 1e-9)
    }

    // MARK: Questions

    func test_AskedQuestions_verbatimSentencesEndingInQuestionMarks() {
        let text = """
        Let him finish. Why does that cost me so much? Unclear.

        - **Who was I performing for?**
        - Was it worth it? No.
        # Why now?
        He said the link was https://example.com/?q=1 and I checked. Did I need to
        check it?

        ```
        let x = a ? b : c
        is this code?
        ```
        "Why me?" she asked. What?! Okay…  Fine?
        """
        XCTAssertEqual(AskedQuestions.extract(from: text), [
            "Why does that cost me so much?",
            "- **Who was I performing for?**",
            "- Was it worth it?",
            "# Why now?",
            "Did I need to\ncheck it?",
            "\"Why me?\"",
            "Fine?",
        ])
        XCTAssertEqual(AskedQuestions.extract(from: "No questions here. None."), [])
        XCTAssertEqual(AskedQuestions.extract(from: "  Trailing space?   "), ["Trailing space?"])
    }

    /// The sentence marks are read off each Character's scalar; they are exactly the characters
    /// of the two sets, and a mark with a combining accent after it is no mark.
    func test_AskedQuestions_sentenceMarksAreTheSetsCharacters() {
        var characters: [Character] = (0..<0x250).compactMap { Unicode.Scalar($0).map(Character.init) }
        characters += ["\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}", "\u{2026}", "\u{2025}", "\u{FF1F}", "?\u{301}", ".\u{301}",
                       "\"\u{301}", "\u{2026}\u{301}", "\r\n", "e\u{301}", "\u{1F600}"]
        for c in characters {
            XCTAssertEqual(AskedQuestions.isTerminator(c), AskedQuestions.terminators.contains(c), "\(c.unicodeScalars.map(\.value))")
            XCTAssertEqual(AskedQuestions.isCloser(c), AskedQuestions.closers.contains(c), "\(c.unicodeScalars.map(\.value))")
        }
        XCTAssertEqual(AskedQuestions.extract(from: "Why?\u{301} Really? Yes."), ["Why?\u{301} Really?"])
    }

    /// ASCII text is read byte by byte; it must find what reading Character by Character finds.
    func test_AskedQuestions_asciiReadingFindsWhatCharacterReadingFinds() {
        let pieces = ["Why", "me", " ", "  ", "\t", "?", "??", "?!", ".", "...", "!", "\n", "\n\n", "\r\n", "\r", "\u{0B}", "\u{0C}",
                      "```", "~~~", "```swift", "# ", "> ", "| ", "- ", "* ", "+ ", "-", "12. ", "3) ", "1234567890. ", "**", "_", "\"",
                      "'", ")", "]", "`", "~", "a?b", "http://x.y/?q=1", "4?", "It", "was", "fine", "0"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var found = 0
        for _ in 0..<4000 {
            let text = (0..<(1 + next(40))).map { _ in pieces[next(pieces.count)] }.joined() + "?"
            guard let ascii = AskedQuestions.extractASCII(text) else { return XCTFail("not read as ASCII: \(text.debugDescription)") }
            XCTAssertEqual(ascii, AskedQuestions.extractCharacters(text), text.debugDescription)
            found += ascii.count
        }
        XCTAssertGreaterThan(found, 1000)
        XCTAssertNil(AskedQuestions.extractASCII("Caf\u{e9}?"))
        XCTAssertEqual(AskedQuestions.extract(from: "Caf\u{e9}? Oui."), ["Caf\u{e9}?"])
    }

    // MARK: Mirror check

    func test_MirrorCheck_comparesRatingWithTheLog() {
        var log = InsightLog()
        let c = log.clock
        log.crash(log.bug, at: c.at(2026, 3, 10, 14))
        log.crash(log.bug, at: c.at(2026, 3, 12, 22))
        log.crash(log.bug, at: c.at(2026, 3, 16, 9))   // the next week: not counted
        log.mark(.applied, log.fix(log.other, .low, 0), at: c.at(2026, 3, 11, 20))
        let d = WeeklyDiagnostic(userId: log.user, weekStarting: c.day(2026, 3, 9).start(in: c.calendar),
                                 responses: [.init(bugId: log.bug.id, intensity: .quiet),
                                             .init(bugId: log.other.id, intensity: .loud, primaryContext: .work)],
                                 completedAt: c.at(2026, 3, 15, 19))
        let lines = MirrorCheck.check(d, practice: log.practice, calendar: log.cal)
        XCTAssertEqual(lines.map(\.text), [
            "You said quiet. You logged 2 crashes about it.",
            "You said loud. You logged nothing about it that week, and applied 1 fix for it. Loud on the inside, quiet in the log.",
        ])
        XCTAssertEqual(lines.map(\.agrees), [false, false])

        let agreeing = WeeklyDiagnostic(userId: log.user, weekStarting: c.day(2026, 3, 9).start(in: c.calendar),
                                        responses: [.init(bugId: log.bug.id, intensity: .loud, primaryContext: .home)],
                                        completedAt: c.at(2026, 3, 15, 19))
        XCTAssertEqual(MirrorCheck.check(agreeing, practice: log.practice, calendar: log.cal).map(\.text), ["You said loud. You logged 2 crashes about it."])
        XCTAssertEqual(MirrorCheck.check(agreeing, practice: log.practice, calendar: log.cal).map(\.agrees), [true])
        for l in lines { XCTAssertEqual(CopyRules.violations(l.text), []) }
    }

    /// Counts as the week page writes them beside the mirror check: digits inside a sentence
    /// ("three crashes" sat under "crashes 3"), a word opening one, "no" for none.
    func test_MirrorCheck_presentWithThreeCrashesDoesNotAgree() {
        var log = InsightLog()
        let c = log.clock
        for day in [10, 11, 12] { log.crash(log.bug, at: c.at(2026, 3, day, 14)) }
        log.mark(.failed, log.fix(log.other, .low, 0), at: c.at(2026, 3, 11, 20))
        log.mark(.failed, log.fix(log.other, .low, 1), at: c.at(2026, 3, 12, 20))
        let d = WeeklyDiagnostic(userId: log.user, weekStarting: c.day(2026, 3, 9).start(in: c.calendar),
                                 responses: [.init(bugId: log.bug.id, intensity: .present), .init(bugId: log.other.id, intensity: .quiet)],
                                 completedAt: c.at(2026, 3, 15, 19))
        let lines = MirrorCheck.check(d, practice: log.practice, calendar: log.cal)
        XCTAssertEqual(lines.map(\.text), ["You said present. You logged 3 crashes about it. Present is a generous word for that.",
                                           "You said quiet. Two fixes for it failed that week."])
        XCTAssertEqual(lines.map(\.agrees), [false, false])
    }
}
