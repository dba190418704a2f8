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

    /// An override that drops the Content-Security-Policy meta is said (the build warns with the
    /// page templates it leaves without one); an unchanged copy, or none, says nothing.
    func test_anOverrideWithoutTheCSPIsNamed() throws {
        XCTAssertEqual(try TemplateSet.load(workspace: nil).pagesWithoutCSP, [])
        let dir = try TempDir()
        let folder = dir.url.appendingPathComponent("Templates")
        let top = String(decoding: try XCTUnwrap(BuiltIn.file("Templates/partials/top.mustache")), as: UTF8.self)
        try dir.write("Templates/partials/top.mustache", top)
        XCTAssertEqual(try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder).pagesWithoutCSP, [])
        // A partial of one's own outside partials/ is no page.
        try dir.write("Templates/includes/nav.mustache", "<nav></nav>\n")
        try dir.write("Templates/partials/top.mustache", top + "{{> includes/nav}}\n")
        XCTAssertEqual(try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder).pagesWithoutCSP, [])
        let dropped = top.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("Content-Security-Policy") }
        try dir.write("Templates/partials/top.mustache", dropped.joined(separator: "\n"))
        let without = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder).pagesWithoutCSP
        XCTAssertTrue(without.contains("week") && without.contains("dashboard"), "\(without)")
        XCTAssertFalse(without.contains { $0.hasPrefix("share/") || $0.hasPrefix("partials/") }, "share pages carry their own; partials are not pages")
    }

    /// A file in Templates/ that no page uses (a misspelt name) is said; a partial of one's own
    /// that an override includes is used.
    func test_anUnusedTemplateFileIsNamed() throws {
        let dir = try TempDir()
        let folder = dir.url.appendingPathComponent("Templates")
        let week = String(decoding: try XCTUnwrap(BuiltIn.file("Templates/week.mustache")), as: UTF8.self)
        try dir.write("Templates/week.mustache", week + "{{> partials/mine}}\n")
        try dir.write("Templates/partials/mine.mustache", "<p>mine</p>\n")
        try dir.write("Templates/weeks.mustache", week)
        let unused = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder).unusedOverrides
        XCTAssertEqual(unused.map { URL(fileURLWithPath: $0).lastPathComponent }, ["weeks.mustache"])
        XCTAssertEqual(try TemplateSet.load(workspace: nil).unusedOverrides, [])
    }
}
