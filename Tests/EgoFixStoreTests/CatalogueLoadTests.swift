import XCTest
import EgoFixCore
@testable import EgoFixStore

final class CatalogueLoadTests: XCTestCase {
    private let clock = TestClock(Fixture.start)

    private func open(_ dir: TempDir) throws -> SQLiteStore {
        let c = clock
        return try SQLiteStore(path: dir.file("s.sqlite"), clock: { c.now })
    }

    func test_builtInSeeds_loadOnce_thenReloadChangesNothing() async throws {
        let dir = try TempDir()
        let store = try open(dir)
        let catalogue = try Fixture.builtInCatalogue()

        let (nf, nt) = (catalogue.fixes.count, catalogue.education.count)
        let first = try store.loadCatalogue(catalogue)
        XCTAssertEqual(first.bugs, .init(inserted: 5))
        XCTAssertEqual(first.fixes, .init(inserted: nf))
        XCTAssertEqual(first.education, .init(inserted: nt))

        clock.advance(60)
        let second = try store.loadCatalogue(catalogue)
        XCTAssertEqual(second.bugs, .init(unchanged: 5))
        XCTAssertEqual(second.fixes, .init(unchanged: nf))
        XCTAssertEqual(second.education, .init(unchanged: nt))
        XCTAssertEqual(second.description, "catalogue: 5 bugs, \(nf) fixes, \(nt) tidbits (0 new, 0 updated, \(5 + nf + nt) unchanged)")

        let bugs = try await store.repositories.bugs.getAll()
        let fixes = try await store.repositories.fixes.getAll()
        let tidbits = try await store.repositories.education.getAll()
        XCTAssertEqual(bugs.count, 5, "loading twice never duplicates")
        XCTAssertEqual(fixes.count, nf)
        XCTAssertEqual(tidbits.count, nt)
        // Retired fixes load (old records point at them), stamped with the first load's time, not offered.
        let retired = fixes.filter { $0.retiredAt != nil }
        XCTAssertEqual(retired.count, catalogue.fixes.filter { $0.retiredAt != nil }.count)
        XCTAssertFalse(retired.isEmpty)
        XCTAssertTrue(retired.allSatisfy { $0.retiredAt == Fixture.start && !$0.isOffered })
        XCTAssertEqual(fixes.map(\.number), fixes.map(\.number).sorted(), "fixes come in catalogue order")
        XCTAssertEqual(fixes.first?.updatedAt, Fixture.start, "an unchanged record is not rewritten")
        // Interaction configurations survive the trip into SQLite.
        for f in fixes { XCTAssertNoThrow(try f.configuration(), f.label) }
    }

    func test_newerWording_updatesCatalogueInPlace_andKeepsUserState() async throws {
        let dir = try TempDir()
        let store = try open(dir)
        var catalogue = try Fixture.builtInCatalogue()
        try store.loadCatalogue(catalogue)

        // The user's practice: one bug active since a date, a completion with a reflection, a crash.
        let repos = store.repositories
        let loaded = try await repos.bugs.getById(catalogue.bugs[0].id)
        var bug = try XCTUnwrap(loaded)
        let activatedAt = Fixture.start.addingTimeInterval(-40 * 86_400)
        bug.isActive = true
        bug.status = .stable
        bug.activatedAt = activatedAt
        bug.stableSince = Fixture.start.addingTimeInterval(-5 * 86_400)
        bug.lastRetestAt = Fixture.start.addingTimeInterval(-86_400)
        try await repos.bugs.save(bug)
        let profile = UserProfile(createdAt: Fixture.start)
        try await repos.users.save(profile)
        let fix = try XCTUnwrap(catalogue.fixes.first { $0.bugId == bug.id })
        var completion = FixCompletion(fixId: fix.id, userId: profile.id, assignedAt: Fixture.start)
        try completion.mark(.applied, at: Fixture.start.addingTimeInterval(600), reflection: "Noticed it twice.")
        try await repos.completions.save(completion)
        let crash = Crash(userId: profile.id, bugId: bug.id, note: "meeting", crashedAt: Fixture.start)
        try await repos.crashes.save(crash)
        let userBefore = try await repos.bugs.getById(bug.id)
        let completionBefore = try await repos.completions.getById(completion.id)
        let crashBefore = try await repos.crashes.getById(crash.id)

        // A newer seed: better wording for a fix, a bug and a tidbit.
        clock.advance(3600)
        let fixIndex = try XCTUnwrap(catalogue.fixes.firstIndex { $0.id == fix.id })
        catalogue.fixes[fixIndex].prompt = "A sharper prompt."
        catalogue.fixes[fixIndex].inlineComment = "// Harder than it looks."
        catalogue.bugs[0].title = "Need to be right, revised"
        catalogue.bugs[0].description = "Sharper description."
        catalogue.education[3].body = "A better tidbit."
        let report = try store.loadCatalogue(catalogue)
        XCTAssertEqual(report.fixes, .init(updated: 1, unchanged: catalogue.fixes.count - 1))
        XCTAssertEqual(report.bugs, .init(updated: 1, unchanged: 4))
        XCTAssertEqual(report.education, .init(updated: 1, unchanged: catalogue.education.count - 1))

        let newFix = try await repos.fixes.getById(fix.id)
        XCTAssertEqual(newFix?.prompt, "A sharper prompt.")
        XCTAssertEqual(newFix?.inlineComment, "// Harder than it looks.")
        XCTAssertEqual(newFix?.updatedAt, clock.now)
        let tidbits = try await repos.education.getAll()
        XCTAssertEqual(tidbits.first { $0.id == catalogue.education[3].id }?.body, "A better tidbit.")

        let reloaded = try await repos.bugs.getById(bug.id)
        let newBug = try XCTUnwrap(reloaded)
        XCTAssertEqual(newBug.title, "Need to be right, revised")
        XCTAssertEqual(newBug.description, "Sharper description.")
        XCTAssertEqual(newBug.isActive, true, "user state on the bug is kept")
        XCTAssertEqual(newBug.status, .stable)
        XCTAssertEqual(newBug.activatedAt, activatedAt)
        XCTAssertEqual(newBug.stableSince, userBefore?.stableSince)
        XCTAssertEqual(newBug.lastRetestAt, userBefore?.lastRetestAt)
        XCTAssertEqual(newBug.resolvedAt, nil)
        XCTAssertEqual(newBug.createdAt, userBefore?.createdAt)
        let completionAfter = try await repos.completions.getById(completion.id)
        let crashAfter = try await repos.crashes.getById(crash.id)
        let profileAfter = try await repos.users.get()
        XCTAssertEqual(completionAfter, completionBefore, "user records are untouched")
        XCTAssertEqual(crashAfter, crashBefore)
        XCTAssertEqual(profileAfter?.id, profile.id)

        let fixes = try await repos.fixes.getAll()
        XCTAssertEqual(fixes.count, catalogue.fixes.count, "an update is in place, never a copy")
    }

    /// A fix the catalogue retires keeps its row (old records point at it): retiredAt is the time of
    /// the load that first saw it retired, later loads keep that date, and a fix un-retired is offered again.
    func test_retiringAFix_keepsItsRow_andTheFirstRetirementDate() async throws {
        let dir = try TempDir()
        let store = try open(dir)
        var catalogue = try Fixture.builtInCatalogue()
        let i = try XCTUnwrap(catalogue.fixes.firstIndex { $0.retiredAt == nil })
        let id = catalogue.fixes[i].id
        try store.loadCatalogue(catalogue)

        clock.advance(3600)
        let retiredAt = clock.now
        catalogue.fixes[i].retiredAt = Date(timeIntervalSince1970: 0)   // what the seed readers give: the catalogue's timestamp
        XCTAssertEqual(try store.loadCatalogue(catalogue).fixes.updated, 1)
        var row = try await store.repositories.fixes.getById(id)
        XCTAssertEqual(row?.retiredAt, retiredAt)
        XCTAssertEqual(row?.isOffered, false)

        clock.advance(3600)
        XCTAssertEqual(try store.loadCatalogue(catalogue).fixes.updated, 0, "still retired: nothing to update")
        row = try await store.repositories.fixes.getById(id)
        XCTAssertEqual(row?.retiredAt, retiredAt, "the first retirement date stays")

        catalogue.fixes[i].retiredAt = nil
        XCTAssertEqual(try store.loadCatalogue(catalogue).fixes.updated, 1)
        row = try await store.repositories.fixes.getById(id)
        XCTAssertEqual(row?.retiredAt, nil)
        XCTAssertEqual(row?.isOffered, true)
    }

    /// A tidbit an earlier catalogue had and this one does not is no longer shown (an upgraded
    /// store kept showing the first edition's 60 dropped tidbits); a later catalogue that has it
    /// again shows it again. Fixes and bugs stay, as records name them.
    func test_aTidbitLeftOutOfTheCatalogue_isNoLongerShown() async throws {
        let dir = try TempDir()
        let store = try open(dir)
        let full = try Fixture.builtInCatalogue()
        try store.loadCatalogue(full)
        var smaller = full
        smaller.education = Array(full.education.dropFirst(3))
        smaller.fixes = Array(full.fixes.dropFirst(1))
        clock.advance(60)
        let report = try store.loadCatalogue(smaller)
        XCTAssertEqual(report.education.updated, 3)
        let shown = try await store.repositories.education.getAll()
        XCTAssertEqual(Set(shown.map(\.id)), Set(smaller.education.map(\.id)))
        let fixes = try await store.repositories.fixes.getAll()
        XCTAssertEqual(fixes.count, full.fixes.count, "a fix left out stays: records name it")
        clock.advance(60)
        try store.loadCatalogue(full)
        let again = try await store.repositories.education.getAll()
        XCTAssertEqual(again.count, full.education.count)
    }

    func test_softDeletedCatalogueRecord_staysDeletedOnReload() async throws {
        let dir = try TempDir()
        let store = try open(dir)
        let catalogue = try Fixture.builtInCatalogue()
        try store.loadCatalogue(catalogue)
        try await store.repositories.fixes.delete(catalogue.fixes[0].id)
        let report = try store.loadCatalogue(catalogue)
        XCTAssertEqual(report.fixes.inserted, 0)
        let got = try await store.repositories.fixes.getById(catalogue.fixes[0].id)
        XCTAssertNil(got, "reloading seeds does not bring back what the user removed")
    }

    func test_catalogueWithAFixForAnUnknownBug_isRefused_andNothingIsLoaded() async throws {
        let dir = try TempDir()
        let store = try open(dir)
        let bug = Fixture.bug("need-to-be-right", active: false)
        let good = Fixture.fixes(for: bug)
        let orphan = Fix(id: uuid("orphan"), number: 999, bugId: uuid("bug-nobody"), prompt: "x", createdAt: Fixture.epoch)
        let catalogue = SeedCatalogue(bugs: [bug], fixes: good + [orphan], education: [])
        XCTAssertThrowsError(try store.loadCatalogue(catalogue)) { error in
            XCTAssertTrue("\(error)".contains("FIX #999"), "\(error)")
            XCTAssertTrue("\(error)".contains("Nothing was changed"), "\(error)")
        }
        let bugs = try await store.repositories.bugs.getAll()
        let fixes = try await store.repositories.fixes.getAll()
        XCTAssertTrue(bugs.isEmpty && fixes.isEmpty, "one transaction: all or nothing")
    }
}
