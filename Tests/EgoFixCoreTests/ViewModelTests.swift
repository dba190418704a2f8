import XCTest
@testable import EgoFixCore

final class ViewModelTests: XCTestCase {
    func education(_ bugs: [Bug], now: Date) -> [MicroEducation] {
        bugs.flatMap { b in
            EducationTrigger.allCases.flatMap { t in
                (0..<3).map { i in MicroEducation(id: Catalogue.uuid("\(b.slug)-\(t.rawValue)-\(i)"), bugSlug: b.slug, trigger: t,
                                                  body: "\(b.slug) \(t.rawValue) \(i)", createdAt: now) }
            }
        }
    }

    func test_TodayViewModel_stateTransitions() async throws {
        let w = try await World.make()
        var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
        XCTAssertEqual(vm.state, .loading)
        try await vm.load(at: w.clock.now)
        guard case .loaded(let card) = vm.state else { return XCTFail("expected loaded, got \(vm.state)") }
        XCTAssertEqual(card.completion.outcome, .pending)
        XCTAssertEqual(card.bug?.id, w.bugs[0].id)
        try await vm.mark(.applied, reflection: "Kept quiet in the standup. It itched.", at: w.clock.now.addingTimeInterval(3600))
        guard case .marked(let r) = vm.state else { return XCTFail("expected marked, got \(vm.state)") }
        XCTAssertEqual(r.completion.outcome, .applied)
        XCTAssertEqual(r.completion.reflection, "Kept quiet in the standup. It itched.")
        XCTAssertEqual(r.fix.id, card.fix.id)
    }

    func test_TodayViewModel_showsQuickFix_afterCrash() async throws {
        let w = try await World.make()
        var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
        try await vm.load(at: w.clock.now)
        guard case .loaded(let daily) = vm.state else { return XCTFail() }
        XCTAssertFalse(daily.isQuickFix)
        _ = try await w.crash.logCrash(bugId: w.bugs[0].id, note: nil, at: w.clock.now.addingTimeInterval(600))
        try await vm.load(at: w.clock.now.addingTimeInterval(700))
        guard case .loaded(let quick) = vm.state else { return XCTFail() }
        XCTAssertTrue(quick.isQuickFix)
        XCTAssertEqual(quick.fix.bugId, w.bugs[0].id)
        // Marking applies to the quick fix first; then today's fix is back.
        try await vm.mark(.applied, at: w.clock.now.addingTimeInterval(800))
        try await vm.load(at: w.clock.now.addingTimeInterval(900))
        guard case .loaded(let again) = vm.state else { return XCTFail() }
        XCTAssertEqual(again.fix.id, daily.fix.id)
        XCTAssertEqual(again.completion.outcome, .pending)
    }

    func test_TodayViewModel_showsMicroEducation_afterOutcome() async throws {
        let w = try await World.make()
        for e in education(w.bugs, now: w.clock.now) { try await w.repos.education.save(e) }
        var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
        var last: UUID?
        for (i, outcome) in [FixOutcome.applied, .skipped, .failed, .applied].enumerated() {
            let now = w.clock.now.addingTimeInterval(Double(i) * 86_400)
            try await vm.load(at: now)
            try await vm.mark(outcome, at: now.addingTimeInterval(60))
            guard case .marked(let r) = vm.state else { return XCTFail() }
            let trigger: EducationTrigger = outcome == .applied ? .afterApplied : outcome == .skipped ? .afterSkipped : .afterFailed
            XCTAssertEqual(r.tidbit?.trigger, trigger)
            XCTAssertEqual(r.tidbit?.bugSlug, w.bugs[0].slug)
            XCTAssertNotEqual(r.tidbit?.id, last)
            last = r.tidbit?.id
        }
    }

    func test_TodayViewModel_restDayWhenNothingIsActive() async throws {
        let w = try await World.make(bugs: ["need-to-be-right"], activeSlugs: [])
        var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
        try await vm.load(at: w.clock.now)
        guard case .restDay = vm.state else { return XCTFail("expected a rest day, got \(vm.state)") }
    }

    func test_OnboardingViewModel_setsPrimaryBug() async throws {
        let c = Clock()
        let t = TestClock(c.at(2026, 3, 2, 8))
        let repos = Repositories.inMemory(clock: { t.now })
        let bugs = ["need-to-be-right", "need-to-be-busy"].map { Catalogue.bug($0, active: false) }
        for b in bugs { try await repos.bugs.save(b) }
        for f in bugs.flatMap({ Catalogue.fixes(for: $0) }) { try await repos.fixes.save(f) }
        var vm = OnboardingViewModel(repos: repos, calendar: c.calendar)
        try await vm.load()
        XCTAssertEqual(vm.bugs.count, 2)
        XCTAssertThrowsError(try vm.select(slug: "need-to-be-perfect"))
        try vm.select(slug: "need-to-be-busy")
        let card = try await vm.complete(at: t.now)
        let user = try await repos.users.get()
        XCTAssertEqual(user?.primaryBugId, bugs[1].id)
        XCTAssertEqual(user?.currentVersion, "1.0")
        XCTAssertEqual(card?.fix.bugId, bugs[1].id, "the first fix is for the primary bug, immediately")
        let busy = try await repos.bugs.getBySlug("need-to-be-busy")
        XCTAssertEqual(busy?.status, .active)
        var again = OnboardingViewModel(repos: repos, calendar: c.calendar)
        do { try await again.load(); XCTFail("onboarded twice") } catch let e as OnboardingViewModel.OnboardingError {
            XCTAssertEqual(e, .alreadyOnboarded(version: "1.0"))
        }
    }

    func test_fullFlow_onboardToFirstFix() async throws {
        let c = Clock()
        let t = TestClock(c.at(2026, 3, 2, 8))
        let repos = Repositories.inMemory(clock: { t.now })
        let bug = Catalogue.bug("need-to-be-right", active: false)
        try await repos.bugs.save(bug)
        for f in Catalogue.fixes(for: bug) { try await repos.fixes.save(f) }
        var onboarding = OnboardingViewModel(repos: repos, calendar: c.calendar)
        try await onboarding.load()
        try onboarding.select(slug: bug.slug)
        let first = try await onboarding.complete(at: t.now)
        XCTAssertEqual(first?.fix.severity, .low, "day one starts low")
        var today = TodayViewModel(repos: repos, calendar: c.calendar)
        try await today.load(at: t.now.addingTimeInterval(60))
        guard case .loaded(let card) = today.state else { return XCTFail() }
        XCTAssertEqual(card.fix.id, first?.fix.id, "the same fix for the rest of the day")
        let events = try await repos.events.getAll().map(\.eventType)
        XCTAssertEqual(Set(events), [.appOpened, .fixAssigned])
        let user = try await repos.users.get()
        XCTAssertEqual(user?.currentStreak, 1)
    }

    func test_fullFlow_applyFixUpdatesVersion() async throws {
        let w = try await World.make()
        var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
        var now = w.clock.now
        for _ in 0..<14 {
            try await vm.load(at: now)
            try await vm.mark(.applied, at: now.addingTimeInterval(60))
            now = now.addingTimeInterval(86_400)
        }
        let user = try await w.profile()
        XCTAssertEqual(user.currentVersion, "1.2")
        let versions = try await w.repos.versions.getAll()
        XCTAssertEqual(versions.map(\.version), ["1.1", "1.2"])
        XCTAssertEqual(user.currentStreak, 14)
    }

    func test_fullFlow_crashAndReboot() async throws {
        let w = try await World.make()
        var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
        try await vm.load(at: w.clock.now)
        let r = try await w.crash.logCrash(bugId: w.bugs[0].id, note: "Corrected my sister's pronunciation. At her wedding.", at: w.clock.now.addingTimeInterval(3600))
        XCTAssertNotNil(r.quickFix)
        try await vm.load(at: w.clock.now.addingTimeInterval(3700))
        guard case .loaded(let q) = vm.state, q.isQuickFix else { return XCTFail("quick fix not shown") }
        try await vm.mark(.applied, reflection: "Apologised. Pronounced it her way.", at: w.clock.now.addingTimeInterval(4000))
        let rebooted = try await w.crash.reboot(at: w.clock.now.addingTimeInterval(5000))
        XCTAssertEqual(rebooted.map(\.id), [r.crash.id])
        let stored = try await w.repos.crashes.getById(r.crash.id)
        XCTAssertEqual(stored?.rebootedAt, w.clock.now.addingTimeInterval(5000))
        let entries = try await w.repos.versions.getAll()
        XCTAssertEqual(entries.map(\.changeType), [.crash, .reboot])
        let user = try await w.profile()
        XCTAssertEqual(user.currentVersion, "1.0")
    }

    func test_fullFlow_streakAcrossMultipleDays() async throws {
        let c = Clock("Pacific/Auckland")
        let w = try await World.make(zone: "Pacific/Auckland", start: c.at(2026, 4, 1, 22))
        var vm = TodayViewModel(repos: w.repos, calendar: w.cal)
        // Wed, Thu (late), Fri, skip Sat (freeze), Sun, Mon; Auckland's DST ends on Sunday 5 April 2026.
        let days: [(Int, Int)] = [(1, 22), (2, 23), (3, 7), (5, 2), (6, 20)]
        for (d, h) in days {
            try await vm.load(at: c.at(2026, 4, d, h))
        }
        let user = try await w.profile()
        XCTAssertEqual(user.currentStreak, 5, "Saturday 4 April was covered by the freeze")
        XCTAssertFalse(user.streakFreezeAvailable == true && user.freezeUsedWeekStart == nil)
        let shownTuesdayNight = try await w.streak.currentStreak(at: c.at(2026, 4, 7, 23))
        XCTAssertEqual(shownTuesdayNight, 5)
        let shownThursday = try await w.streak.currentStreak(at: c.at(2026, 4, 9, 9))
        XCTAssertEqual(shownThursday, 0, "two missed days in the week of the 5th: one freeze only")
    }
}
