import EgoFixCore
import EgoFixResources
@testable import EgoFixSite
import Foundation
import XCTest

/// Every page comes from its template: a workspace's copy of a template, changed, changes the pages.
final class TemplateOverrideTests: XCTestCase {
    func test_changedWeekAndPeriodTemplates_changeThosePages() async throws {
        let dir = try TempDir()
        let folder = dir.url.appendingPathComponent("Templates")
        guard let fix = BuiltIn.file("Templates/partials/fix.mustache"), let period = BuiltIn.file("Templates/period.mustache") else {
            return XCTFail("no built-in fix partial or period template")
        }
        try dir.write("Templates/partials/fix.mustache", String(decoding: fix, as: UTF8.self).replacingOccurrences(of: "· severity", with: "· weight"))
        try dir.write("Templates/period.mustache", String(decoding: period, as: UTF8.self).replacingOccurrences(of: "<h2>By bug</h2>", with: "<h2>Per bug</h2>"))
        let changed = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder)
        let p = try await PracticeFixture.make(reflections: ["Fine."], crashNotes: [], days: 3)
        let files = try PracticeFixture.build(p, templates: changed)
        let week = String(decoding: try XCTUnwrap(files["weeks/2026-W10/index.html"]), as: UTF8.self)
        XCTAssertTrue(week.contains("· weight low") || week.contains("· weight medium") || week.contains("· weight high"), week)
        XCTAssertFalse(week.contains("· severity"))
        let month = String(decoding: try XCTUnwrap(files["months/2026-03/index.html"]), as: UTF8.self)
        XCTAssertTrue(month.contains("<h2>Per bug</h2>"))
        XCTAssertFalse(month.contains("<h2>By bug</h2>"))
    }
}
