import XCTest
@testable import EgoFixCore

final class RepositoryTests: XCTestCase {
    func test_FixRepo_getDailyFix_excludesCompleted() async throws {
        let w = try await World.make()
        let bug = w.bugs[0]
        let dailies = w.fixes.filter { $0.bugId == bug.id && $0.type == .daily }.sorted { $0.number < $1.number }
        let first = try await w.repos.fixes.getDailyFix(for: bug.id, excluding: [])
        XCTAssertEqual(first?.id, dailies[0].id)
        let next = try await w.repos.fixes.getDailyFix(for: bug.id, excluding: [dailies[0].id, dailies[1].id])
        XCTAssertEqual(next?.id, dailies[2].id)
        let none = try await w.repos.fixes.getDailyFix(for: bug.id, excluding: dailies.map(\.id))
        XCTAssertNil(none, "quick and weekly fixes are not daily fixes")
    }

    func test_FixRepo_getDailyFix_matchesBug() async throws {
        let w = try await World.make(bugs: ["need-to-be-right", "need-to-be-liked"], activeSlugs: ["need-to-be-right"])
        let right = w.bugs[0], liked = w.bugs[1]
        let f = try await w.repos.fixes.getDailyFix(for: right.id, excluding: [])
        XCTAssertEqual(f?.bugId, right.id)
        let inactive = try await w.repos.fixes.getDailyFix(for: liked.id, excluding: [])
        XCTAssertNil(inactive, "an inactive bug gets no daily fix")
    }

    func test_CompletionRepo_save_updatesTimestamp() async throws {
        let w = try await World.make()
        var c = FixCompletion(fixId: w.fixes[0].id, userId: w.user.id, assignedAt: w.clock.now)
        try await w.repos.completions.save(c)
        let before = try await w.repos.completions.getById(c.id)?.updatedAt
        w.clock.advance(90)
        try c.mark(.applied, at: w.clock.now)
        try await w.repos.completions.save(c)
        let after = try await w.repos.completions.getById(c.id)?.updatedAt
        XCTAssertNotNil(before)
        XCTAssertEqual(after, w.clock.now)
        XCTAssertNotEqual(before, after)
    }

    func test_BugRepo_getActive_filtersDeleted() async throws {
        let w = try await World.make(bugs: ["need-to-be-right", "need-to-be-liked", "need-to-impress"])
        let active1 = try await w.repos.bugs.getActive()
        XCTAssertEqual(active1.count, 3)
        try await w.repos.bugs.delete(w.bugs[1].id)
        let active2 = try await w.repos.bugs.getActive()
        XCTAssertEqual(active2.map(\.slug).sorted(), ["need-to-be-right", "need-to-impress"])
        let byId = try await w.repos.bugs.getById(w.bugs[1].id)
        XCTAssertNil(byId)
        let bySlug = try await w.repos.bugs.getBySlug("need-to-be-liked")
        XCTAssertNil(bySlug)
    }

    func test_CrashRepo_getUnrebooted() async throws {
        let w = try await World.make()
        var a = Crash(userId: w.user.id, bugId: w.bugs[0].id, crashedAt: w.clock.now)
        let b = Crash(userId: w.user.id, bugId: nil, crashedAt: w.clock.now.addingTimeInterval(5))
        let c = Crash(userId: w.user.id, bugId: nil, crashedAt: w.clock.now.addingTimeInterval(9))
        a.reboot(at: w.clock.now.addingTimeInterval(60))
        for x in [a, b, c] { try await w.repos.crashes.save(x) }
        try await w.repos.crashes.delete(c.id)
        let open = try await w.repos.crashes.getUnrebooted()
        XCTAssertEqual(open.map(\.id), [b.id])
    }

    func test_repositories_softDeleteHidesFromEveryQuery() async throws {
        let w = try await World.make()
        let fix = w.fixes[0]
        try await w.repos.fixes.delete(fix.id)
        let byId = try await w.repos.fixes.getById(fix.id)
        XCTAssertNil(byId)
        let all = try await w.repos.fixes.getAll()
        XCTAssertFalse(all.contains { $0.id == fix.id })
        let forBug = try await w.repos.fixes.getForBug(fix.bugId)
        XCTAssertFalse(forBug.contains { $0.id == fix.id })
        let e = AnalyticsEvent.make(userId: w.user.id, type: .appOpened, at: w.clock.now, calendar: w.cal)
        try await w.repos.events.save(e)
        try await w.repos.events.delete(e.id)
        let events = try await w.repos.events.getAll()
        XCTAssertTrue(events.isEmpty)
    }

    func test_repositories_deleteUnknownIdThrows() async throws {
        let w = try await World.make()
        do {
            try await w.repos.crashes.delete(UUID())
            XCTFail("deleting nothing should throw")
        } catch let e as RepositoryError {
            XCTAssertTrue(e.description.contains("not found"))
        }
    }

    func test_MicroEducationRepo_filtersBySlugAndTrigger() async throws {
        let w = try await World.make()
        let items = [
            MicroEducation(bugSlug: "need-to-be-right", trigger: .afterApplied, body: "a", createdAt: w.clock.now),
            MicroEducation(bugSlug: "need-to-be-right", trigger: .afterCrash, body: "b", createdAt: w.clock.now),
            MicroEducation(bugSlug: "need-to-be-liked", trigger: .afterApplied, body: "c", createdAt: w.clock.now),
        ]
        for i in items { try await w.repos.education.save(i) }
        let got = try await w.repos.education.getFor(bugSlug: "need-to-be-right", trigger: .afterApplied)
        XCTAssertEqual(got.map(\.body), ["a"])
    }
}
