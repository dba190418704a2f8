import XCTest
@testable import EgoFixCore

/// `egofix diagnostic --redo`: a rating typed wrong in the weekly diagnostic, put right while the
/// diagnostic is open.
final class DiagnosticRedoTests: XCTestCase {
    let c = Clock("Europe/Berlin")

    /// A practice begun Sunday 2026-03-01, two bugs active since, and quiet diagnostics for the
    /// weeks ending 03-15 and 03-22 on `need-to-be-right`.
    func world() async throws -> (World, DiagnosticService) {
        let w = try await World.make(start: c.at(2026, 3, 1, 9), bugs: ["need-to-be-right", "need-to-be-busy"])
        let svc = DiagnosticService(repos: w.repos, calendar: w.cal)
        for day in [15, 22] {
            w.clock.now = c.at(2026, 3, day, 19)
            _ = try await svc.complete([rating(w, 0, .quiet)], at: w.clock.now)
        }
        return (w, svc)
    }

    func rating(_ w: World, _ bug: Int, _ i: BugIntensity, _ ctx: EventContext? = nil) -> BugDiagnosticResponse {
        BugDiagnosticResponse(bugId: w.bugs[bug].id, intensity: i, primaryContext: ctx)
    }

    func live(_ w: World) async throws -> [WeeklyDiagnostic] {
        try await w.repos.diagnostics.getAll().filter { $0.deletedAt == nil }
    }

    func bug(_ w: World, _ i: Int) async throws -> Bug {
        guard let b = try await w.repos.bugs.getById(w.bugs[i].id) else { throw PracticeError.unknownBug(w.bugs[i].slug) }
        return b
    }

    func test_DiagnosticRedo_replacesTheRatingsKeepingTheWeekAndItsInstant() async throws {
        let (w, svc) = try await world()
        w.clock.now = c.at(2026, 3, 29, 19)
        let first = try await svc.complete([rating(w, 0, .present, .work), rating(w, 1, .loud, .home)], at: w.clock.now)
        w.clock.now = c.at(2026, 3, 30, 8)   // Monday: still open for the week ending Sunday
        let r = try await svc.redo([rating(w, 0, .quiet), rating(w, 1, .present, .home)], at: w.clock.now)

        let kept = try await live(w)
        XCTAssertEqual(kept.count, 3, "one diagnostic a week: the first is replaced, not added to")
        let week = try XCTUnwrap(kept.first { $0.week(in: w.cal) == c.day(2026, 3, 23) })
        XCTAssertEqual(week.responses.map(\.intensity), [.quiet, .present])
        XCTAssertEqual(week.completedAt, first.completedAt, "the streak and the day it counts on do not move")
        XCTAssertEqual(week.weekStarting, first.weekStarting)
        XCTAssertEqual(r.after.id, week.id)
        XCTAssertNotEqual(r.after.id, first.id, "a new record: the first is deleted (the store test reads it back)")
        XCTAssertEqual(r.before, first)
        let due = try await svc.isDue(at: w.clock.now)
        XCTAssertFalse(due, "the week is still done")
        let asked = try await svc.bugsRated(in: week)
        XCTAssertEqual(asked.map(\.slug), ["need-to-be-right", "need-to-be-busy"], "asked again: the bugs rated, in their order")
    }

    func test_DiagnosticRedo_aRatingThatMadeABugStableIsTakenBackWithIt() async throws {
        let (w, svc) = try await world()
        // The third quiet week in a row, on the bug's 28th active day: stable at the diagnostic.
        w.clock.now = c.at(2026, 3, 29, 19)
        let first = try await svc.complete([rating(w, 0, .quiet)], at: w.clock.now)
        let stable = try await bug(w, 0)
        XCTAssertEqual(stable.status, .stable)
        XCTAssertEqual(stable.stableSince, first.completedAt)

        w.clock.now = c.at(2026, 3, 29, 21)
        let r = try await svc.redo([rating(w, 0, .present, .work)], at: w.clock.now)
        let after = try await bug(w, 0)
        XCTAssertEqual(after.status, .active, "a present week: not three quiet ones")
        XCTAssertNil(after.stableSince)
        XCTAssertEqual(r.undone.map(\.slug), ["need-to-be-right"])
        XCTAssertTrue(r.changed.isEmpty)

        // Put back to quiet: stable again, dated at the diagnostic as the first time.
        w.clock.now = c.at(2026, 3, 30, 9)
        let again = try await svc.redo([rating(w, 0, .quiet)], at: w.clock.now)
        XCTAssertEqual(again.changed.map(\.transition), [.stabilised])
        let restored = try await bug(w, 0)
        XCTAssertEqual(restored.status, .stable)
        XCTAssertEqual(restored.stableSince, first.completedAt)
    }

    /// Bug `i` stable since 10 March.
    func makeStable(_ w: World, _ i: Int) async throws {
        var b = try await bug(w, i)
        b.status = .stable
        b.stableSince = c.at(2026, 3, 10, 12)
        try await w.repos.bugs.save(b)
    }

    func test_DiagnosticRedo_aLoudRatingThatSentABugBackStands() async throws {
        let (w, svc) = try await world()
        try await makeStable(w, 0)
        w.clock.now = c.at(2026, 3, 29, 19)
        let first = try await svc.complete([rating(w, 0, .loud, .work), rating(w, 1, .quiet)], at: w.clock.now)
        let regressed = try await bug(w, 0)
        XCTAssertEqual(regressed.status, .active)
        XCTAssertEqual(regressed.regressedAt, first.completedAt)

        w.clock.now = c.at(2026, 3, 30, 8)
        do {
            _ = try await svc.redo([rating(w, 0, .quiet), rating(w, 1, .quiet)], at: w.clock.now)
            XCTFail("the loud rating that sent the bug back was taken back")
        } catch let e as DiagnosticRedo.RedoError {
            XCTAssertEqual(e, .regressed(week: "2026-W13", bug: regressed.title, slug: "need-to-be-right", rating: "loud@work"))
        }
        do {
            _ = try await svc.redo([rating(w, 1, .present, .home)], at: w.clock.now)
            XCTFail("leaving the loud bug out took its rating back")
        } catch let e as DiagnosticRedo.RedoError { XCTAssertEqual(e.description.contains("--rate need-to-be-right=loud@work keeps it"), true) }
        let unchanged = try await live(w)
        XCTAssertTrue(unchanged.contains { $0.id == first.id }, "a refused redo changes nothing")

        // The loud rating kept, the other put right; where it was loudest may change too.
        let r = try await svc.redo([rating(w, 0, .loud, .home), rating(w, 1, .present, .home)], at: w.clock.now)
        XCTAssertEqual(r.after.responses.map(\.intensity), [.loud, .present])
        XCTAssertEqual(r.after.responses.first?.primaryContext, .home)
        let still = try await bug(w, 0)
        XCTAssertEqual(still.status, .active)
        XCTAssertEqual(still.regressedAt, first.completedAt)
    }

    func test_DiagnosticRedo_aLoudRatingGivenOnRedoSendsAStableBugBack() async throws {
        let (w, svc) = try await world()
        try await makeStable(w, 1)
        w.clock.now = c.at(2026, 3, 29, 19)
        let first = try await svc.complete([rating(w, 1, .quiet)], at: w.clock.now)
        w.clock.now = c.at(2026, 3, 30, 8)
        let r = try await svc.redo([rating(w, 1, .loud, .online)], at: w.clock.now)
        XCTAssertEqual(r.changed.map(\.transition), [.regressed(reason: "rated loud in the weekly diagnostic")])
        let after = try await bug(w, 1)
        XCTAssertEqual(after.regressedAt, first.completedAt, "dated by the rating, taken when the diagnostic was")
    }

    func test_DiagnosticRedo_refusesWithoutADiagnosticOrAChange() async throws {
        let (w, svc) = try await world()
        w.clock.now = c.at(2026, 3, 29, 19)
        do {
            _ = try await svc.redo([rating(w, 0, .quiet)], at: w.clock.now)
            XCTFail("a redo of a week with no diagnostic was recorded")
        } catch let e as DiagnosticRedo.RedoError { XCTAssertEqual(e, .nothingToRedo(week: "2026-W13", anyway: false)) }
        let none = try await live(w)
        XCTAssertEqual(none.count, 2)
        _ = try await svc.complete([rating(w, 0, .present, .work)], at: w.clock.now)
        do {
            _ = try await svc.redo([rating(w, 0, .present, .work)], at: w.clock.now.addingTimeInterval(60))
            XCTFail("a redo with the same ratings was recorded")
        } catch let e as DiagnosticRedo.RedoError { XCTAssertEqual(e, .unchanged(week: "2026-W13")) }
        do {
            _ = try await svc.redo([], at: w.clock.now.addingTimeInterval(60))
            XCTFail("a redo with no rating deleted the diagnostic")
        } catch let e as PracticeError { XCTAssertEqual(e, .diagnosticEmpty) }
        // A context is part of the rating: the same intensity elsewhere is a change.
        let r = try await svc.redo([rating(w, 0, .present, .home)], at: w.clock.now.addingTimeInterval(120))
        XCTAssertEqual(r.after.responses.first?.primaryContext, .home)
        let one = try await live(w)
        XCTAssertEqual(one.count, 3)
    }

    /// A bug rated, then deactivated before the redo: its rating may stay as it was.
    func test_DiagnosticRedo_aBugDeactivatedSinceKeepsItsRating() async throws {
        let (w, svc) = try await world()
        w.clock.now = c.at(2026, 3, 29, 19)
        _ = try await svc.complete([rating(w, 0, .present, .work), rating(w, 1, .quiet)], at: w.clock.now)
        try await w.repos.bugs.save(BugLifecycle.deactivate(try await bug(w, 1), at: c.at(2026, 3, 29, 20)))
        w.clock.now = c.at(2026, 3, 30, 8)
        let r = try await svc.redo([rating(w, 0, .quiet), rating(w, 1, .quiet)], at: w.clock.now)
        XCTAssertEqual(r.after.responses.map(\.intensity), [.quiet, .quiet])
        let rated = try await svc.bugsRated(in: r.after)
        XCTAssertEqual(rated.map(\.slug), ["need-to-be-right", "need-to-be-busy"])
        // A bug neither active nor rated in the first is still refused.
        let others = try await World.make(start: c.at(2026, 3, 1, 9), bugs: ["need-to-be-right", "need-to-be-busy"], activeSlugs: ["need-to-be-right"])
        let svc2 = DiagnosticService(repos: others.repos, calendar: others.cal)
        _ = try await svc2.complete([rating(others, 0, .quiet)], at: c.at(2026, 3, 29, 19))
        do {
            _ = try await svc2.redo([rating(others, 0, .quiet), rating(others, 1, .loud)], at: c.at(2026, 3, 30, 8))
            XCTFail("an inactive bug the first did not rate was rated")
        } catch let e as PracticeError { XCTAssertEqual(e, .diagnosticBugNotActive(slug: "need-to-be-busy", active: ["need-to-be-right"])) }
    }

    /// What a sync does with a bug another machine settled on ratings the merge does not keep
    /// (`SyncRules.unfoundedStability`): a stability whose third quiet week is now present goes
    /// back to active, a resolution with a present week inside its 90 days goes back to stable;
    /// a bug whose ratings the merge did not touch is left as it is.
    func test_DiagnosticRedo_aSyncTakesBackAStateTheKeptRatingsDoNotGive() throws {
        let bug = Catalogue.bug("need-to-be-busy", activatedAt: c.at(2026, 9, 1))
        let user = Catalogue.uuid("user")
        func week(_ sunday: Int, _ month: Int, _ i: BugIntensity, deleted: Bool = false) -> WeeklyDiagnostic {
            let day = c.day(2026, month, sunday)
            return WeeklyDiagnostic(userId: user, weekStarting: day.adding(days: -6).start(in: c.calendar),
                                    responses: [BugDiagnosticResponse(bugId: bug.id, intensity: i, primaryContext: i == .quiet ? nil : .work)],
                                    completedAt: day.at(hour: 19, in: c.calendar), deletedAt: deleted ? day.at(hour: 20, in: c.calendar) : nil)
        }
        var stable = bug
        stable.status = .stable
        stable.stableSince = c.at(2026, 10, 4, 19)
        // Made stable on 13, 20 September and 4 October quiet, before the other machine's present
        // week of 27 September arrived.
        let seen = [week(13, 9, .quiet), week(20, 9, .quiet), week(4, 10, .quiet)]
        let unseen = week(27, 9, .present)
        XCTAssertTrue(SyncRules.unfoundedStability(bugs: [stable], diagnostics: seen + [unseen], arrived: [], calendar: c.calendar).isEmpty,
                      "nothing arrived or was deleted: not looked at")
        let back = SyncRules.unfoundedStability(bugs: [stable], diagnostics: seen + [unseen], arrived: [unseen.id], calendar: c.calendar)
        XCTAssertEqual(back.map(\.status), [.active])
        XCTAssertNil(back.first?.stableSince)
        XCTAssertGreaterThan(back.first?.updatedAt ?? .distantPast, stable.updatedAt, "newer than the stable copy elsewhere")
        // The same ratings with the present week a quiet one: the stability stands.
        let quiet = week(27, 9, .quiet)
        XCTAssertTrue(SyncRules.unfoundedStability(bugs: [stable], diagnostics: seen + [quiet], arrived: [quiet.id], calendar: c.calendar).isEmpty)
        // Stable on the kept ratings earlier than the merged record says: quiet 13, 20 September
        // and 4 October (a run), present 11 October, quiet 18 October, the record's stable date
        // the 18th (its machine saw the run late). A stable bug stays stable through a present week.
        let late = week(18, 10, .quiet)
        var lateStable = stable
        lateStable.stableSince = c.at(2026, 10, 18, 19)
        XCTAssertTrue(SyncRules.unfoundedStability(bugs: [lateStable], diagnostics: seen + [quiet, week(11, 10, .present), late],
                                                   arrived: [late.id], calendar: c.calendar).isEmpty)
        // A week's rating made after the stable moment (in another zone, or with --anyway) is read
        // by its week: 27 September present, rated on 5 October.
        var after = week(27, 9, .present)
        after = WeeklyDiagnostic(id: after.id, userId: user, weekStarting: after.weekStarting, responses: after.responses,
                                 completedAt: c.at(2026, 10, 5, 9))
        XCTAssertEqual(SyncRules.unfoundedStability(bugs: [stable], diagnostics: seen + [after], arrived: [after.id], calendar: c.calendar)
                        .map(\.status), [.active])
        // Resolved on 10 January after 90 stable days, with a present week on 20 December arriving.
        var resolved = stable
        resolved.status = .resolved
        resolved.resolvedAt = c.at(2027, 1, 10, 12)
        let noisy = week(20, 12, .present)
        let unresolved = SyncRules.unfoundedStability(bugs: [resolved], diagnostics: seen + [quiet, noisy], arrived: [noisy.id], calendar: c.calendar)
        XCTAssertEqual(unresolved.map(\.status), [.stable])
        XCTAssertNil(unresolved.first?.resolvedAt)
        XCTAssertEqual(unresolved.first?.stableSince, stable.stableSince)
        // A present week 90 days or more before the resolution holds nothing off.
        let early = week(11, 10, .present)
        XCTAssertTrue(SyncRules.unfoundedStability(bugs: [resolved], diagnostics: seen + [quiet, early], arrived: [early.id], calendar: c.calendar).isEmpty)
    }
}
