import XCTest
@testable import EgoFixCore

final class FullFlowDiagnosticTests: XCTestCase {
    /// Weekly diagnostics recorded through the service are what the context-spike detector reads.
    func test_fullFlow_weeklyDiagnosticFeedsPatternDetection() async throws {
        let c = Clock("Europe/Berlin")
        let w = try await World.make(start: c.at(2026, 3, 2, 9), bugs: ["need-to-impress", "need-to-be-busy"])
        let svc = DiagnosticService(repos: w.repos, calendar: w.cal)
        let impress = w.bugs[0], busy = w.bugs[1]
        // 14 Sundays: impress is loud at work 7 times, present elsewhere 7 times; busy stays quiet.
        var sunday = c.day(2026, 3, 8)
        for i in 0..<14 {
            let now = sunday.at(hour: 19, in: w.cal)
            let loud = i % 2 == 0
            _ = try await svc.complete([
                BugDiagnosticResponse(bugId: impress.id, intensity: loud ? .loud : .present, primaryContext: loud ? .work : [.home, .social, .family, .online][i % 4]),
                BugDiagnosticResponse(bugId: busy.id, intensity: .quiet),
            ], at: now)
            sunday = sunday.adding(days: 7)
        }
        let now = sunday.adding(days: -6).at(hour: 9, in: w.cal)
        let diagnostics = try await w.repos.diagnostics.getAll()
        XCTAssertEqual(diagnostics.count, 14)
        let events = try await w.repos.events.getAll()
        XCTAssertEqual(events.filter { $0.eventType == .weeklyCompleted }.count, 14)
        let ctx = DetectionContext(userId: w.user.id, now: now, calendar: w.cal, bugs: try await w.repos.bugs.getAll(),
                                   fixes: w.fixes, completions: try await w.repos.completions.getAll(),
                                   crashes: try await w.repos.crashes.getAll())
        let run = PatternEngine.run(events: events, diagnostics: diagnostics, context: ctx)
        let spike = run.patterns.first { $0.patternType == .contextualSpike }
        XCTAssertNotNil(spike, "patterns: \(run.patterns.map(\.patternType))")
        XCTAssertEqual(spike?.relatedBugIds, [impress.id])
        XCTAssertTrue(spike?.title.lowercased().contains("work") ?? false, spike?.title ?? "")
        // The same data with the contexts scattered shows no spike.
        let w2 = try await World.make(start: c.at(2026, 3, 2, 9), bugs: ["need-to-impress"])
        var s2 = c.day(2026, 3, 8)
        for i in 0..<14 {
            _ = try await DiagnosticService(repos: w2.repos, calendar: w2.cal).complete([
                BugDiagnosticResponse(bugId: w2.bugs[0].id, intensity: i % 2 == 0 ? .loud : .present,
                                      primaryContext: [.work, .home, .social, .family, .online][i % 5])], at: s2.at(hour: 19, in: w2.cal))
            s2 = s2.adding(days: 7)
        }
        let run2 = PatternEngine.run(events: try await w2.repos.events.getAll(), diagnostics: try await w2.repos.diagnostics.getAll(),
                                     context: DetectionContext(userId: w2.user.id, now: now, calendar: w2.cal, bugs: w2.bugs, fixes: w2.fixes))
        XCTAssertNil(run2.patterns.first { $0.patternType == .contextualSpike })
    }
}
