import EgoFixCore
import EgoFixResources
@testable import EgoFixSite
import Foundation
import XCTest

/// `PageWriter` writes week and period pages without the templates; these hold it to them.
final class PageWriterTests: XCTestCase {
    func builtIn() throws -> TemplateSet { try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: nil) }

    /// The same set with the week and period pages rendered by the templates.
    func byTemplates() throws -> TemplateSet {
        var t = try builtIn()
        t.writesWeeks = false
        t.writesPeriods = false
        return t
    }

    func assertSameSites(_ a: [String: Data], _ b: [String: Data], line: UInt = #line) {
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted(), line: line)
        for path in a.keys.sorted() where a[path] != b[path] {
            let x = String(decoding: a[path] ?? Data(), as: UTF8.self), y = String(decoding: b[path] ?? Data(), as: UTF8.self)
            let at = zip(x.utf8, y.utf8).prefix { $0 == $1 }.count
            XCTFail("\(path) differs at byte \(at): writer \(String(decoding: Array(x.utf8.dropFirst(max(0, at - 80)).prefix(160)), as: UTF8.self).debugDescription), "
                    + "templates \(String(decoding: Array(y.utf8.dropFirst(max(0, at - 80)).prefix(160)), as: UTF8.self).debugDescription)", line: line)
            return
        }
    }

    func test_pageWriter_followsTheBuiltInTemplates() throws {
        for kind in PageWriter.Kind.allCases {
            var texts: [String: String] = [:]
            for name in kind.templates {
                texts[name] = BuiltIn.file("Templates/\(name).mustache").map { String(decoding: $0, as: UTF8.self) }
            }
            XCTAssertEqual(kind.digest { texts[$0] }, kind.templateDigest,
                           "a template PageWriter follows for \(kind) pages has changed: change the writer to match, then its templateDigest")
        }
        let set = try TemplateSet.load(workspace: nil)
        XCTAssertTrue(set.writesWeeks)
        XCTAssertTrue(set.writesPeriods)
    }

    func test_pageWriter_pagesAreTheTemplatesPages_threeWeekPractice() async throws {
        // Reflections with Markdown, a question, an apostrophe and crisis language; crash notes; a week note.
        let p = try await Practice.make(reflections: ["Kept **quiet** & let it go. Why do I keep score?", "It's <fine>.",
                                                      "Some days I want to die a little when I lose an argument."],
                                        crashNotes: ["Argued about \"facts\". Was I listening?"])
        let content = SiteContent(weeks: [.init(name: "2026-W11", source: "content/weeks/2026-W11.md", markdown: "A *week* note.")])
        let written = try Practice.build(p, content: content, title: "Me & \"my\" <site>", templates: try builtIn())
        let rendered = try Practice.build(p, content: content, title: "Me & \"my\" <site>", templates: try byTemplates())
        XCTAssertEqual(written.keys.filter { $0.hasPrefix("weeks/") }.count, 3)
        XCTAssertEqual(written.keys.filter { $0.hasPrefix("months/") }.count, 1)
        XCTAssertTrue(try XCTUnwrap(written["weeks/2026-W11/index.html"]).range(of: Data("Before anything else".utf8)) != nil)
        assertSameSites(written, rendered)
    }

    func test_pageWriter_pagesAreTheTemplatesPages_twoYearDemo() throws {
        let calendar = UserCalendar.make(timeZone: TimeZone(identifier: "Europe/Berlin") ?? TimeZone(secondsFromGMT: 3600) ?? .current)
        let now = LocalDay(year: 2026, month: 11, day: 22).at(hour: 21, in: calendar)
        let catalogue = try Practice.catalogue()
        let demo = DemoHistory.generate(catalogue: catalogue, endingAt: now, years: 2, seed: 7, calendar: calendar, detect: false)
        let data = demo
        let written = try Practice.build((data, now, calendar), templates: try builtIn())
        let rendered = try Practice.build((data, now, calendar), templates: try byTemplates())
        XCTAssertGreaterThan(written.keys.filter { $0.hasPrefix("weeks/") }.count, 100)
        XCTAssertGreaterThan(written.keys.filter { $0.hasPrefix("months/") }.count, 20)
        assertSameSites(written, rendered)
    }

    func test_pageWriter_stepsAsideForAChangedTemplate() async throws {
        let dir = try TempDir()
        let folder = dir.url.appendingPathComponent("Templates")
        guard let fix = BuiltIn.file("Templates/partials/fix.mustache"), let period = BuiltIn.file("Templates/period.mustache") else {
            return XCTFail("no built-in fix partial or period template")
        }
        // An unchanged copy keeps the writer; a changed one hands those pages to the templates.
        try dir.write("Templates/partials/fix.mustache", fix)
        try dir.write("Templates/period.mustache", period)
        let copied = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder)
        XCTAssertTrue(copied.writesWeeks)
        XCTAssertTrue(copied.writesPeriods)
        try dir.write("Templates/partials/fix.mustache", String(decoding: fix, as: UTF8.self).replacingOccurrences(of: "· severity", with: "· weight"))
        let fixChanged = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder)
        XCTAssertFalse(fixChanged.writesWeeks)
        XCTAssertTrue(fixChanged.writesPeriods, "the period template does not read the fix partial")
        try dir.write("Templates/period.mustache", String(decoding: period, as: UTF8.self).replacingOccurrences(of: "<h2>By bug</h2>", with: "<h2>Per bug</h2>"))
        let changed = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder)
        XCTAssertFalse(changed.writesWeeks)
        XCTAssertFalse(changed.writesPeriods)
        let p = try await Practice.make(reflections: ["Fine."], crashNotes: [], days: 3)
        let files = try Practice.build(p, templates: changed)
        let week = String(decoding: try XCTUnwrap(files["weeks/2026-W10/index.html"]), as: UTF8.self)
        XCTAssertTrue(week.contains("· weight low") || week.contains("· weight medium") || week.contains("· weight high"), week)
        XCTAssertFalse(week.contains("· severity"))
        let month = String(decoding: try XCTUnwrap(files["months/2026-03/index.html"]), as: UTF8.self)
        XCTAssertTrue(month.contains("<h2>Per bug</h2>"))
        XCTAssertFalse(month.contains("<h2>By bug</h2>"))
    }
}
