import EgoFixResources
import XCTest
@testable import EgoFixSite

/// Issue 30, case 1: a template override cannot crash the build by nesting.
final class HardeningTemplateTests: XCTestCase {
    func message(_ templates: [String: String]) -> String? {
        do { _ = try TemplateSet(templates: templates); return nil } catch { return String(describing: error) }
    }

    func nested(_ n: Int, key: String = "a", inner: String = "x") -> String {
        String(repeating: "{{#\(key)}}", count: n) + inner + String(repeating: "{{/\(key)}}", count: n)
    }

    func test_Hardening_deeplyNestedTemplateIsRefused() throws {
        let deep = message(["deep": "line one\n" + nested(3000)])
        XCTAssertEqual(deep, "Templates/deep.mustache:2: sections are nested more than 100 deep here; flatten the template (move inner parts into the page model or a partial)")
        XCTAssertNil(message(["ok": nested(100)]), "100 levels are allowed")
    }

    /// 32 partials of 99 sections each would nest 3,200 levels in one render.
    func test_Hardening_deepPartialChainIsRefused() throws {
        var templates: [String: String] = [:]
        for k in 0..<32 { templates["c\(k)"] = nested(99, inner: k == 31 ? "z" : "{{> c\(k + 1)}}") }
        let m = try XCTUnwrap(message(templates))
        XCTAssertTrue(m.hasPrefix("Templates/c0.mustache:1: sections and partials nest 3199 levels deep from here through '{{> c1}}'"), m)
        XCTAssertEqual(m.split(separator: "\n").count, 1)
        // A recursive partial is bounded by the partial limit, and refused when it nests too deep.
        XCTAssertNotNil(message(["r": nested(10, inner: "{{> r}}")]))
    }

    /// The built-in theme nests far below the limit (so loading it skips the check).
    func test_Hardening_builtInThemeIsWithinTheRenderDepth() throws {
        var shapes: [String: TemplateSyntax.Shape] = [:]
        for file in BuiltIn.files(under: "Templates") where file.path.hasSuffix(".mustache") {
            let name = String(file.path.dropLast(".mustache".count))
            let template = try CompiledTemplate(name: name, origin: file.path, text: String(decoding: file.data, as: UTF8.self))
            shapes[name] = TemplateSyntax.shape(of: template.tokens)
        }
        XCTAssertFalse(shapes.isEmpty)
        XCTAssertNoThrow(try TemplateSyntax.checkRenderDepth(shapes, origins: [:], maxPartialDepth: TemplateSet.maxPartialDepth))
    }

    /// A section nested in itself (a list within the same list) stops at 64 MB or a million list
    /// items a page, with one line naming the template, the line and the section: 90 of them
    /// deep rendered for minutes into gigabytes.
    func test_hardening_aPageThatGrowsPastItsLimitStopsNamingTheSection() throws {
        let leaf = String(repeating: "x", count: 1024)
        let set = try TemplateSet(templates: ["t": "{{#a}}{{#a}}\n{{#a}}\(leaf){{/a}}{{/a}}{{/a}}"])
        let items = TemplateValue.list((0..<100).map { _ in TemplateValue.object(TemplateObject()) })
        XCTAssertThrowsError(try set.render("t", .object(TemplateObject(fields: [("a", items)])))) { error in
            XCTAssertEqual(error as? TemplateError, .pageTooLarge(template: "Templates/t.mustache", line: 2, section: "a"))
            XCTAssertTrue("\(error)".contains("passed 64 MB or a million list items inside {{#a}}"), "\(error)")
        }
        XCTAssertEqual(try set.render("t", .object(TemplateObject(fields: [("a", .list([.object(TemplateObject())]))]))).count, 1024 + 1)
        // Four deep, a byte each: 10^8 items and 100 MB, stopped at a million items (a size
        // limit alone let ten nested {{#days}} run for minutes).
        let small = try TemplateSet(templates: ["t": "{{#a}}{{#a}}{{#a}}{{#a}}x{{/a}}{{/a}}{{/a}}{{/a}}"])
        XCTAssertThrowsError(try small.render("t", .object(TemplateObject(fields: [("a", items)])))) { error in
            XCTAssertEqual(error as? TemplateError, .pageTooLarge(template: "Templates/t.mustache", line: 1, section: "a"))
        }
    }
}
