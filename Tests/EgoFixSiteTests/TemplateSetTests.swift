import EgoFixResources
import XCTest
@testable import EgoFixSite

final class TemplateSetTests: XCTestCase {
    private func set(_ templates: [String: String]) throws -> TemplateSet {
        try TemplateSet(templates: templates)
    }

    private func assertError(_ expression: @autoclosure () throws -> String, contains needles: [String],
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            let text = String(describing: error)
            for needle in needles {
                XCTAssertTrue(text.contains(needle), "'\(needle)' not in: \(text)", file: file, line: line)
            }
        }
    }

    // MARK: Rendering

    /// The templates are written in swift-mustache's grammar: every built-in template must pass
    /// its parser.
    func test_builtInTemplates_allParseWithSwiftMustache() throws {
        let files = BuiltIn.files(under: "Templates").filter { $0.path.hasSuffix(".mustache") }
        XCTAssertGreaterThan(files.count, 10)
        for file in files {
            let text = String(decoding: file.data, as: UTF8.self)
            XCTAssertNoThrow(try SwiftMustache.check(text, origin: file.path), file.path)
            XCTAssertNoThrow(try CompiledTemplate(name: file.path, origin: file.path, text: text), file.path)
        }
        XCTAssertThrowsError(try SwiftMustache.check("{{#a}}open", origin: "t.mustache"))
        XCTAssertThrowsError(try TemplateSet(templates: ["t": "{{#a}}{{/b}}"]))
    }

    /// Templates whose Characters are single scalars are read scalar by scalar; they must give the
    /// tokens (or the error) the Character reader gives, down to lines, indentation and text bytes.
    func test_layout_scalarsAndCharactersReadAlike() throws {
        func describe(_ tokens: [CompiledTemplate.Token]) -> [String] {
            tokens.flatMap { token -> [String] in
                switch token {
                case .text(let b): return ["text \(b)"]
                case .variable(let t): return ["var \(t.name) \(t.path) \(t.line)"]
                case .raw(let t): return ["raw \(t.name) \(t.path) \(t.line)"]
                case .partial(let t): return ["partial \(t.name) \(t.line) \(t.indentation.map { "\($0)" } ?? "-")"]
                case .section(let t): return ["section \(t.name) \(t.path) \(t.line) \(t.inverted)"] + describe(t.body) + ["end"]
                }
            }
        }
        func read(_ text: String, asCharacters: Bool) -> [String] {
            do { return describe(try CompiledTemplate.parse(text, label: "t", asCharacters: asCharacters)) } catch {
                return ["error \(error)"]
            }
        }
        var texts = BuiltIn.files(under: "Templates").filter { $0.path.hasSuffix(".mustache") }.map { String(decoding: $0.data, as: UTF8.self) }
        for text in texts { XCTAssertEqual(text.count, text.unicodeScalars.count, "every built-in template takes the scalar reader") }
        texts += [
            "", "plain", "a\nb\n", "{{x}}", "{{{x}}}", "{{& x }}", "{{ a.b.c }}", "{{.}}",
            "  {{#s}}\n  in\n  {{/s}}\n", "{{#s}}{{/s}}", " {{^s}} \t\n{{/s}}", "\t{{! note }}\n", "{{! unclosed",
            "  {{> partials/p }}\n", "x {{> p}} y", "{{#a}}\n{{#b}}\n{{c}}\n{{/b}}\n{{/a}}", "{{#a}}{{/b}}", "{{#a}}",
            "{{x", "{{x}", "{{{x}}", "{ {x}} {", "{{=<% %>=}}", "{{% pragma}}", "{{<x}}", "{{$x}}",
            "a\u{0B}{{#s}}\u{0B}b{{/s}}\u{0C}c", "line\u{0C}{{x}}\u{0B}", "  \t  {{#s}}  \n{{/s}}  ",
        ]
        texts += [
            "caf\u{E9} {{x}} \u{2014} {{#s}}\u{2713}{{/s}}", "{\u{301}{x}}", "{{\u{301}x}}", "{{x}\u{301}}", "a\r\n{{#s}}\r\n{{/s}}\r\n",
            "\r\n  {{> p}}\r\n", "x\u{2028}{{#s}}\u{85}y{{/s}}", "{{ \u{A0}x}}", "{{x \u{E9}", "{{!\u{1F600}}}", "\u{1F468}\u{200D}\u{1F469}{{x}}",
            "{{#s}}\n\u{301}{{/s}}", "#\u{FE0F}\u{20E3}{{x}}", "\r", "{{x}}\r", "{{ \u{3000}x}}", "a\u{2029}b{{#s}}\u{2028}{{/s}}",
            "\u{2192} {{x}} \u{B7}", "{{x}}\u{85}", "\u{A0}{{#s}}\u{A0}\n{{/s}}", "\u{2003}{{> p}}\n", "{{#s}}\u{1F600}{{/s}}\n",
        ]
        XCTAssertGreaterThan(texts.count, 50)
        for text in texts {
            XCTAssertEqual(read(text, asCharacters: false), read(text, asCharacters: true), text)
        }
    }

    func test_render_variablesSectionsListsAndPartials() throws {
        let t = try set([
            "page": "<h1>{{title}}</h1>\n{{#items}}\n<li>{{name}} ({{count}}) {{title}}</li>\n{{/items}}\n{{^items}}none{{/items}}\n{{> partials/footer}}",
            "partials/footer": "<footer>{{site.name}}</footer>\n",
        ])
        let out = try t.render("page", [
            "title": "Week",
            "items": [["name": "a", "count": 1], ["name": "b", "count": 2]],
            "site": ["name": "EgoFix"],
        ])
        XCTAssertEqual(out, "<h1>Week</h1>\n<li>a (1) Week</li>\n<li>b (2) Week</li>\n\n<footer>EgoFix</footer>\n")
    }

    func test_render_emptyListAndFalseAndNullTakeTheInvertedBranch() throws {
        let t = try set(["p": "{{#a}}A{{/a}}{{^a}}-a{{/a}}{{#b}}B{{/b}}{{^b}}-b{{/b}}{{#c}}C{{/c}}{{^c}}-c{{/c}}{{#d}}D{{/d}}{{^d}}-d{{/d}}"])
        XCTAssertEqual(try t.render("p", ["a": [Any](), "b": false, "c": NSNull(), "d": ""]), "-a-b-c-d")
        XCTAssertEqual(try t.render("p", ["a": [1], "b": true, "c": ["x": 1], "d": "x"]), "ABCD")
    }

    func test_render_optionalNoneIsNull() throws {
        let t = try set(["p": "[{{subtitle}}]{{#subtitle}}has{{/subtitle}}"])
        let none: String? = nil
        XCTAssertEqual(try t.render("p", ["subtitle": none as Any]), "[]")
        XCTAssertEqual(try t.render("p", ["subtitle": Optional("s") as Any]), "[s]has")
    }

    func test_render_textSectionPushesTheValue() throws {
        let t = try set(["p": "{{#tags}}<{{.}}>{{/tags}}{{#note}}{{.}}|{{title}}{{/note}}"])
        XCTAssertEqual(try t.render("p", ["tags": ["a", "b"], "note": "n", "title": "t"]), "<a><b>n|t")
    }

    func test_render_enumTreeContext() throws {
        let t = try set(["p": "{{a}}{{#l}}{{.}}{{/l}}"])
        XCTAssertEqual(try t.render("p", .object(["a": .text("x"), "l": .list([.text("1"), .text("2")])])), "x12")
    }

    // MARK: Escaping

    func test_render_escapesPerUnicodeScalar() throws {
        let t = try set(["p": "<a title=\"{{v}}\">{{v}}</a>"])
        let hostile = "\"\u{301} onmouseover=alert(1) <\u{301}script>&'"
        let out = try t.render("p", ["v": hostile])
        XCTAssertEqual(out, "<a title=\"&quot;\u{301} onmouseover=alert(1) &lt;\u{301}script&gt;&amp;&#39;\">"
                       + "&quot;\u{301} onmouseover=alert(1) &lt;\u{301}script&gt;&amp;&#39;</a>")
        // The only raw quotes are the template's own two.
        XCTAssertEqual(out.unicodeScalars.filter { $0 == "\"" }.count, 2)
    }

    func test_render_escapesInsidePartialsAndListsToo() throws {
        let t = try set(["p": "{{#l}}{{> q}}{{/l}}", "q": "{{.}}"])
        XCTAssertEqual(try t.render("p", ["l": ["<\u{301}", "&"]]), "&lt;\u{301}&amp;")
    }

    func test_render_isNotDoubleEscaped() throws {
        let t = try set(["p": "{{v}}"])
        XCTAssertEqual(try t.render("p", ["v": "a &amp; b"]), "a &amp;amp; b")
        XCTAssertEqual(try t.render("p", ["v": "fish & chips"]), "fish &amp; chips")
    }

    func test_render_rawOutputOnlyForRawHTML() throws {
        let t = try set(["p": "{{{body}}}|{{& body}}"])
        let body = try Markdown.html("*hi*", name: "n")
        XCTAssertEqual(try t.render("p", ["body": body]), "<p><em>hi</em></p>\n|<p><em>hi</em></p>\n")
        assertError(try t.render("p", ["body": "<script>x</script>"]),
                    contains: ["Templates/p.mustache:1", "'body'", "raw output is only for rendered Markdown and SVG"])
    }

    func test_render_rawHTMLInAnEscapingTagIsAnError() throws {
        let t = try set(["p": "{{body}}"])
        assertError(try t.render("p", ["body": RawHTML(trusted: "<b>x</b>")]), contains: ["'body'", "{{{body}}}"])
    }

    // MARK: Strictness

    func test_render_missingKeyNamesTemplateLineAndKey() throws {
        let t = try set(["week": "line one\n<h1>{{titel}}</h1>"])
        assertError(try t.render("week", ["title": "x"]), contains: ["Templates/week.mustache:2", "missing key 'titel'"])
    }

    func test_render_missingKeyInsideAPartialNamesThePartial() throws {
        let t = try set(["page": "{{> partials/head}}", "partials/head": "\n\n{{#user}}{{nmae}}{{/user}}"])
        assertError(try t.render("page", ["user": ["name": "x"]]),
                    contains: ["Templates/partials/head.mustache:3", "missing key 'nmae'"])
    }

    func test_render_missingKeyInEveryListItemIsChecked() throws {
        let t = try set(["p": "{{#l}}{{name}}{{/l}}"])
        assertError(try t.render("p", ["l": [["name": "a"], ["nam": "b"]]]), contains: ["missing key 'name'"])
    }

    func test_render_missingSectionKeyIsAnErrorEvenForInvertedSections() throws {
        let t = try set(["p": "{{^notes}}none{{/notes}}"])
        assertError(try t.render("p", [:]), contains: ["missing key 'notes'"])
    }

    func test_render_missingDottedSegmentIsAnError() throws {
        let t = try set(["p": "{{site.title}}"])
        assertError(try t.render("p", ["site": ["name": "x"]]), contains: ["missing key 'site.title'"])
        assertError(try t.render("p", ["site": "x"]), contains: ["missing key 'site.title'"])
    }

    func test_render_keysClimbToOuterContexts() throws {
        let t = try set(["p": "{{#a}}{{#b}}{{x}}{{y}}{{z}}{{/b}}{{/a}}"])
        XCTAssertEqual(try t.render("p", ["x": "1", "a": ["y": "2", "b": ["z": "3"]]]), "123")
    }

    func test_render_listOrObjectInAVariableIsAnError() throws {
        let t = try set(["p": "{{l}}"])
        assertError(try t.render("p", ["l": [1, 2]]), contains: ["'l' is a list"])
        assertError(try t.render("p", ["l": ["a": 1]]), contains: ["'l' is an object"])
        assertError(try t.render("p", ["l": true]), contains: ["'l' is a true/false value"])
    }

    func test_render_missingTemplate() throws {
        let t = try set(["p": "x"])
        assertError(try t.render("nope", [:]), contains: ["template 'nope' does not exist"])
    }

    func test_load_missingPartialFailsAtLoadNamingTemplateAndPartial() {
        XCTAssertThrowsError(try set(["p": "a\n{{#x}}{{> nothere}}{{/x}}"])) { error in
            XCTAssertEqual(error as? TemplateError,
                           .missingPartial(template: "Templates/p.mustache", line: 2, partial: "nothere"))
        }
    }

    func test_load_unsupportedSyntaxIsRefused() {
        for (source, needle) in [("{{=<% %>=}}", "set-delimiter"), ("{{% CONTENT_TYPE: TEXT}}", "pragmas"),
                                 ("{{<parent}}{{/parent}}", "inheritance"), ("{{$block}}{{/block}}", "inheritance"),
                                 ("{{> *dyn}}", "dynamic partials"), ("{{uppercased(x)}}", "transforms"),
                                 ("{{#a}}", "never closed"), ("{{#a}}{{/b}}", "closes '{{#a}}'"),
                                 ("{{/a}}", "never opened"), ("{{a", "never closed"), ("{{}}", "empty tag"),
                                 ("{{a b}}", "not a valid key"), ("{{> ../x}}", "not a valid partial name")] {
            XCTAssertThrowsError(try set(["p": source]), source) { error in
                XCTAssertTrue(String(describing: error).contains(needle), "\(source): \(error)")
                XCTAssertTrue(String(describing: error).hasPrefix("Templates/p.mustache:1:"), "\(error)")
            }
        }
    }

    /// A partial that includes itself is refused when the templates load, naming the chain (it
    /// was caught only when a page rendered it, by the depth limit).
    func test_render_recursivePartialIsCaught() throws {
        assertError(try set(["p": "{{> p}}"]).render("p", [:]), contains: ["p.mustache:1: '{{> p}}' includes itself (p > p)"])
        assertError(try set(["p": "a\n{{#x}}{{> q}}{{/x}}", "q": "{{> p}}"]).render("p", [:]), contains: ["includes itself (p > q > p)"])
    }

    func test_render_unsupportedContextValueIsAnError() throws {
        let t = try set(["p": "{{d}}"])
        assertError(try t.render("p", ["d": Date(timeIntervalSince1970: 0)]), contains: ["'d'", "Date"])
        assertError(try t.render("p", ["l": [["d": UUID()]]]), contains: ["'l[0].d'", "UUID"])
    }

    func test_render_commentsAndStandaloneLinesBehaveLikeMustache() throws {
        let t = try set(["p": "{{! a comment }}\n<ul>\n  {{#l}}\n  <li>{{.}}</li>\n  {{/l}}\n</ul>\n"])
        XCTAssertEqual(try t.render("p", ["l": ["a", "b"]]), "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n")
    }

    // MARK: Overlay

    /// The renderer reads a field's value in place at a fixed distance from its name, worked out as
    /// a struct's layout would be; it must be where Swift puts it.
    func test_renderer_readsFieldValuesWhereTheyAre() {
        XCTAssertEqual(TemplateRenderer.valueOffset, MemoryLayout<TemplateObject.Field>.offset(of: \TemplateObject.Field.1))
        XCTAssertEqual(TemplateRenderer.fieldStride, MemoryLayout<(String, TemplateValue)>.stride)
    }

    /// A page object finds a field by its name however either String was made: literals, parsed
    /// template names, slices, built strings, strings stored out of line, long and non-ASCII names.
    func test_pageObject_findsFieldsByNameHoweverTheStringsWereMade() throws {
        var reserved = String()
        reserved.reserveCapacity(64)  // stored out of line although it is short
        reserved += "title"
        let text = "x.title.y"
        let slice = String(text.split(separator: ".")[1])
        let built = String(decoding: Array("title".utf8), as: UTF8.self)
        let names = ["title", reserved, slice, built, String("subtitle".dropFirst(3))]
        for name in names {
            let object: TemplateObject = ["other": "no", "titles": "no", "title": "yes", "Title": "no"]
            guard case .text(let found)? = object[name] else { return XCTFail("no field for '\(name)'") }
            XCTAssertEqual(found, "yes", name)
        }
        var object = TemplateObject()
        object.append(reserved, "out of line")
        object.append("a name longer than fifteen bytes", "long")
        object.append("café", "accent")
        object.append("cafe", "plain")
        for (name, expected) in [("title", "out of line"), ("a name longer than fifteen bytes", "long"),
                                 (String(decoding: Array("café".utf8), as: UTF8.self), "accent"), ("cafe", "plain")] {
            guard case .text(let found)? = object[name] else { return XCTFail("no field for '\(name)'") }
            XCTAssertEqual(found, expected, name)
        }
        XCTAssertNil(object["caf"])
        XCTAssertNil(object["a name longer than fifteen byteS"])
        XCTAssertNil(object["titl"])
    }

    func test_overlay_userFolderOverridesBuiltInFileByFile() throws {
        let dir = try TempDir()
        let templates = dir.url.appendingPathComponent("Templates")
        try dir.write("Templates/layout.mustache", "user layout {{title}}")
        try dir.write("Templates/partials/extra.mustache", "extra")
        try dir.write("Templates/.hidden.mustache", "{{broken")
        try dir.write("Templates/notes.txt", "ignored")
        let builtIn: [(path: String, data: Data)] = [
            ("layout.mustache", Data("built-in layout {{title}}".utf8)),
            ("week.mustache", Data("{{> layout}} week".utf8)),
        ]
        let t = try TemplateSet(builtIn: builtIn, overrides: templates)
        XCTAssertEqual(t.names, ["layout", "partials/extra", "week"])
        XCTAssertEqual(try t.render("week", ["title": "T"]), "user layout T week")
        XCTAssertEqual(t.origin(of: "week"), "Templates/week.mustache (built-in)")
        XCTAssertEqual(t.origin(of: "layout"), templates.appendingPathComponent("layout.mustache").path)
    }

    func test_overlay_missingUserFolderUsesBuiltIns() throws {
        let t = try TemplateSet(builtIn: [("a.mustache", Data("A".utf8))],
                                overrides: URL(fileURLWithPath: "/nonexistent/egofix/Templates"))
        XCTAssertEqual(try t.render("a", [:]), "A")
    }

    func test_overlay_errorsNameTheUserFile() throws {
        let dir = try TempDir()
        try dir.write("Templates/a.mustache", "ok\n{{nope")
        XCTAssertThrowsError(try TemplateSet(builtIn: [], overrides: dir.url.appendingPathComponent("Templates"))) { error in
            XCTAssertTrue(String(describing: error).hasPrefix(dir.url.appendingPathComponent("Templates/a.mustache").path + ":2:"),
                          "\(error)")
        }
    }

    func test_assets_overlayFileByFile() throws {
        let dir = try TempDir()
        try dir.write("Assets/style.css", "user")
        try dir.write("Assets/img/x.svg", "<svg/>")
        let assets = try AssetSet(builtIn: [("style.css", Data("built".utf8)), ("favicon.svg", Data("f".utf8))],
                                  overrides: dir.url.appendingPathComponent("Assets"))
        XCTAssertEqual(assets.paths, ["favicon.svg", "img/x.svg", "style.css"])
        XCTAssertEqual(assets.file("style.css")?.data, Data("user".utf8))
        XCTAssertEqual(assets.file("favicon.svg")?.isBuiltIn, true)
    }

    func test_load_builtInTemplatesCompile() throws {
        // Whatever the theme ships must load: every partial it names exists.
        XCTAssertNoThrow(try TemplateSet.load(workspace: nil))
        XCTAssertNoThrow(try AssetSet.load(workspace: nil))
    }
}

/// A temporary folder removed when the value is released.
final class TempDir {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("egofix-site-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ path: String, _ text: String) throws {
        try write(path, Data(text.utf8))
    }

    func write(_ path: String, _ data: Data) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }
}
