import XCTest
@testable import EgoFixCore
import EgoFixResources

/// `egofix applied` reads what the detectors need from before the outcome while it writes the
/// outcome, then adds what the write changed. The patterns must be the ones a full read after the
/// write finds, whichever side of the write the early read lands on.
final class DetectionReadsTests: XCTestCase {
    func practice() async throws -> (Repositories, Calendar, Date) {
        let clock = Clock("Europe/Berlin")
        let end = clock.at(2026, 11, 22, 20)
        let catalogue = try SeedCatalogue.decode(bugs: XCTUnwrap(BuiltIn.file("Seeds/bugs.json")),
                                                 fixes: XCTUnwrap(BuiltIn.file("Seeds/fixes.json")),
                                                 education: XCTUnwrap(BuiltIn.file("Seeds/micro_education.json")))
        let d = DemoHistory.generate(catalogue: catalogue, endingAt: end, years: 1, seed: 3, calendar: clock.calendar)
        let morning = clock.at(2026, 11, 23, 8)
        let repos = Repositories.inMemory(clock: { morning })
        try await repos.users.save(XCTUnwrap(d.profile))
        for b in d.bugs { try await repos.bugs.save(b) }
        for f in d.fixes { try await repos.fixes.save(f) }
        for c in d.completions { try await repos.completions.save(c) }
        for c in d.crashes { try await repos.crashes.save(c) }
        for v in d.versions { try await repos.versions.save(v) }
        for e in d.events { try await repos.events.save(e) }
        for w in d.diagnostics { try await repos.diagnostics.save(w) }
        var today = TodayViewModel(repos: repos, calendar: clock.calendar)
        try await today.load(at: morning)
        return (repos, clock.calendar, morning.addingTimeInterval(600))
    }

    func test_detectionAfterAnOutcome_readEarlyOrLate_isTheFullRead() async throws {
        for outcome in [FixOutcome.failed, .applied] {
            for earlyReadFirst in [true, false] {
                let (repos, cal, now) = try await practice()
                var early = earlyReadFirst ? try await DetectionReads.earlier(repos, now: now, calendar: cal) : nil
                var vm = TodayViewModel(repos: repos, calendar: cal)
                try await vm.mark(outcome, at: now)
                if early == nil { early = try await DetectionReads.earlier(repos, now: now, calendar: cal) }
                let split = try await DetectionReads.run(repos, now: now, calendar: cal, after: XCTUnwrap(early))
                let full = try await DetectionReads.run(repos, now: now, calendar: cal)
                XCTAssertFalse(full.patterns.isEmpty)
                XCTAssertEqual(split, full, "\(outcome), early read \(earlyReadFirst ? "before" : "after") the write")
            }
        }
    }
}
