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
        // A file that is no template at all is said too (it was left out without a word).
        try dir.write("Templates/week.html", week)
        try dir.write("Templates/week.mustache~", week)
        let unused = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder).unusedOverrides
        XCTAssertEqual(unused.map { URL(fileURLWithPath: $0).lastPathComponent }, ["week.html", "week.mustache~", "weeks.mustache"])
        XCTAssertEqual(try TemplateSet.load(workspace: nil).unusedOverrides, [])
    }

    /// The other two metas every private page carries are checked as the CSP is (noindex, and
    /// no-referrer on share pages too), in the template's text and not its comments: a CSP meta
    /// commented out, or the robots line deleted, used to build without a word.
    func test_anOverrideWithoutNoindexOrNoReferrerOrWithTheCSPCommentedOutIsNamed() throws {
        let dir = try TempDir()
        let folder = dir.url.appendingPathComponent("Templates")
        let top = String(decoding: try XCTUnwrap(BuiltIn.file("Templates/partials/top.mustache")), as: UTF8.self)
        func without() throws -> [PageMeta: [String]] { try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder).pagesWithout }
        // Attributes in another order, case and quoting still count.
        try dir.write("Templates/partials/top.mustache", top.replacingOccurrences(of: #"<meta name="referrer" content="no-referrer">"#, with: "<META content=no-referrer NAME='Referrer'>"))
        XCTAssertEqual(try without(), [:])
        let lines = top.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try dir.write("Templates/partials/top.mustache", lines.map {
            $0.contains("Content-Security-Policy") ? "{{! TODO: put the Content-Security-Policy back }}" : $0
        }.filter { !$0.contains("robots") }.joined(separator: "\n"))
        let found = try without()
        XCTAssertEqual(found.keys.sorted(), [.contentSecurityPolicy, .noindex])
        XCTAssertTrue(found[.contentSecurityPolicy]?.contains("week") == true && found[.noindex]?.contains("dashboard") == true, "\(found)")
        XCTAssertFalse(found.values.joined().contains { $0.hasPrefix("share/") }, "share pages carry their own")
        // An HTML comment, which a browser does not read, does not count either (nor one opened
        // before a tag and closed after it); character references in a value are read.
        try dir.write("Templates/partials/top.mustache", lines.map {
            $0.contains("robots") ? "<!-- " + $0 + " -->" : $0.contains("no-referrer") ? "<!-- {{title}} " + $0 + " {{title}} -->" : $0
        }.joined(separator: "\n"))
        XCTAssertEqual(try without().keys.sorted(), [.noReferrer, .noindex])
        try dir.write("Templates/partials/top.mustache", top.replacingOccurrences(of: #"content="no-referrer""#, with: #"content="no&#45;referrer""#))
        XCTAssertEqual(try without(), [:])
        // Three ways a page goes without a policy a browser applies, which passed: the meta inside a
        // section (on a page only when its value is), an http-equiv a browser does not match (it
        // does not trim it), and a meta inside <title>, where "<meta" is text.
        let policy = try XCTUnwrap(lines.first { $0.contains("Content-Security-Policy") })
        for changed in ["{{#crisis}}" + policy + "{{/crisis}}",
                        policy.replacingOccurrences(of: #"http-equiv="Content-Security-Policy""#, with: #"http-equiv=" Content-Security-Policy""#),
                        "<title>" + policy + "</title>"] {
            try dir.write("Templates/partials/top.mustache", lines.map { $0 == policy ? changed : $0 }.joined(separator: "\n"))
            XCTAssertEqual(try without().keys.sorted(), [.contentSecurityPolicy], changed)
        }
        try dir.write("Templates/partials/top.mustache", top)
        let share = String(decoding: try XCTUnwrap(BuiltIn.file("Templates/share/page.mustache")), as: UTF8.self)
        try dir.write("Templates/share/page.mustache", share.replacingOccurrences(of: #"<meta name="referrer" content="no-referrer">"#, with: ""))
        XCTAssertEqual(try without(), [.noReferrer: ["share/page"]], "a public page needs no noindex, but no-referrer")
    }

    /// An override that drops the help block (the `crisis` section of partials/top, or the text
    /// of partials/help) is said: the block is what a page shows first when something written
    /// on it reads like a crisis, and it used to vanish without a word.
    func test_anOverrideThatDropsTheHelpBlockIsNamed() throws {
        let dir = try TempDir()
        let folder = dir.url.appendingPathComponent("Templates")
        func withoutHelp() throws -> [String] { try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder).pagesWithoutHelp }
        let top = String(decoding: try XCTUnwrap(BuiltIn.file("Templates/partials/top.mustache")), as: UTF8.self)
        try dir.write("Templates/partials/top.mustache", top)
        XCTAssertEqual(try withoutHelp(), [])
        try dir.write("Templates/partials/top.mustache", top.split(separator: "\n").filter { !$0.contains("crisis") }.joined(separator: "\n"))
        let dropped = try withoutHelp()
        XCTAssertTrue(dropped.contains("week") && dropped.contains("dashboard") && !dropped.contains("notfound"), "\(dropped)")
        XCTAssertFalse(dropped.contains { $0.hasPrefix("share/") })
        try dir.write("Templates/partials/top.mustache", top)
        try dir.write("Templates/partials/help.mustache", "\n")
        XCTAssertTrue(try withoutHelp().contains("changelog"))
    }

    /// A typo in a part of an override that no page shows yet (a section with nothing in it,
    /// like a week's note before any note is written) is said on the build that has it, not first
    /// on the build that fills the section, which then fails. Names the built-in templates read
    /// are not said, nor tags a page reached.
    func test_aTypoInAPartNoPageShowsYetIsSaid() async throws {
        let dir = try TempDir()
        let folder = dir.url.appendingPathComponent("Templates")
        let week = String(decoding: try XCTUnwrap(BuiltIn.file("Templates/week.mustache")), as: UTF8.self)
        let note = "{{#note}}<section aria-label=\"Your note\"><h2>Note</h2>{{{note}}}</section>{{/note}}"
        XCTAssertTrue(week.contains(note))
        try dir.write("Templates/week.mustache", week.replacingOccurrences(of: note,
            with: "{{#note}}<h2>{{titel}}</h2>{{{nte}}}{{{range}}}{{range}}{{fixCount}}{{{note}}}{{/note}}{{^note}}{{range}}{{/note}}"))
        let templates = try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder)
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 3)
        _ = try PracticeFixture.build(p, templates: templates)
        let said = templates.unreachedNames()
        XCTAssertEqual(said.count, 4, "\(said)")
        XCTAssertTrue(said[0].hasSuffix("{{titel}} is in a part no page shows yet, and no built-in template reads 'titel' there. If it is a typo, builds fail from the first page that shows it."), said[0])
        XCTAssertTrue(said[1].contains("{{{nte}}}") && said[1].contains("'nte'"), said[1])
        XCTAssertTrue(said[2].contains("{{{range}}}") && said[2].contains("prints 'range' raw"), said[2])
        // A name only the changelog's template reads is not one a week page has.
        XCTAssertTrue(said[3].contains("{{fixCount}}") && said[3].contains("reads 'fixCount' there"), said[3])
        XCTAssertTrue(said.allSatisfy { $0.contains("week.mustache:") })
        // A partial that includes itself, even where no page goes yet, is refused at load.
        try dir.write("Templates/partials/mine.mustache", "<p>{{#note}}{{> partials/loop}}{{/note}}</p>\n")
        try dir.write("Templates/partials/loop.mustache", "<b>{{> partials/mine}}</b>\n")
        try dir.write("Templates/week.mustache", week.replacingOccurrences(of: note, with: note + "{{> partials/mine}}"))
        XCTAssertThrowsError(try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: folder)) { error in
            XCTAssertTrue("\(error)".contains("includes itself (partials/loop > partials/mine > partials/loop)")
                          || "\(error)".contains("includes itself (partials/mine > partials/loop > partials/mine)"), "\(error)")
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("partials/loop.mustache"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("partials/mine.mustache"))
        // The same build with a week note fails on the first typo, as it always did.
        let noted = SiteContent(weeks: [.init(name: "2026-W10", source: "content/weeks/2026-W10.md", markdown: "A note.")])
        XCTAssertThrowsError(try PracticeFixture.build(p, content: noted, templates: templates)) { error in
            XCTAssertTrue("\(error)".contains("missing key 'titel'"), "\(error)")
        }
    }

    /// Files of the workspace's that used to change nothing without a word: a link to nothing in
    /// Templates/ or Assets/ and a folder with a built-in file's name are refused by name; a
    /// hidden file in Assets/ (an .htaccess) is named as not published.
    func test_overridesThatCouldNotBeUsedAreSaid() throws {
        let dir = try TempDir()
        let templates = dir.url.appendingPathComponent("Templates"), assets = dir.url.appendingPathComponent("Assets")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: templates.appendingPathComponent("week.mustache").path, withDestinationPath: "../theme/wek.mustache")
        XCTAssertThrowsError(try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: templates)) { error in
            XCTAssertTrue("\(error)".contains("week.mustache: a symbolic link to ../theme/wek.mustache, which is not there"), "\(error)")
        }
        try dir.write("Assets/.htaccess", "Options -Indexes\n")
        try dir.write("Assets/.git/config", "x\n")
        XCTAssertEqual(try AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: assets).hidden, [".git", ".htaccess"])
        try dir.write("Assets/back\\slash.png", "x\n")
        XCTAssertThrowsError(try AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: assets)) { error in
            XCTAssertTrue("\(error)".contains("back\\slash.png: a name with a backslash or a control character") && "\(error)".contains("Rename the file"), "\(error)")
        }
        try FileManager.default.removeItem(at: assets.appendingPathComponent("back\\slash.png"))
        // A control character in a template would go into every page as it is.
        try FileManager.default.removeItem(at: templates.appendingPathComponent("week.mustache"))
        try dir.write("Templates/week.mustache", "<p>one</p>\n<p>two\u{1B}[2J</p>\n")
        XCTAssertThrowsError(try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: templates)) { error in
            XCTAssertTrue("\(error)".contains("week.mustache:2: the control character U+001B"), "\(error)")
        }
        try dir.write("Assets/style.css/notes.txt", "x\n")
        XCTAssertThrowsError(try AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: assets)) { error in
            XCTAssertTrue("\(error)".contains("style.css: a folder with the name of the built-in file it would override"), "\(error)")
        }
        try FileManager.default.removeItem(at: assets.appendingPathComponent("style.css"))
        // An empty file in a built-in file's place (the pages were unstyled without a word).
        try dir.write("Assets/style.css", "")
        try dir.write("Assets/notes.txt", "")
        XCTAssertEqual(try AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: assets).emptyOverrides, ["style.css"])
        // A name that is not UTF-8 (Latin-1's é) was skipped without a word, in either folder.
        for folder in [assets, templates] {
            let name = folder.path + "/caf" + String(decoding: [0xE9], as: UTF8.self) + ".mustache"
            var bytes = Array((folder.path + "/caf").utf8) + [0xE9] + Array(".mustache".utf8) + [0]
            let fd = bytes.withUnsafeMutableBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o600) }
            XCTAssertGreaterThanOrEqual(fd, 0)
            close(fd)
            let error = folder == assets ? Result { try AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: assets) }.map { _ in () }
                : Result { try TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: templates) }.map { _ in () }
            XCTAssertThrowsError(try error.get()) { error in
                XCTAssertTrue("\(error)".contains(name + ": a name that is not UTF-8 text") && "\(error)".hasSuffix("Rename it."), "\(error)")
            }
            bytes.withUnsafeMutableBufferPointer { _ = unlink(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// The colour per bug is generated after the stylesheet under `:where()`, so a `.bug-SLUG`
    /// rule in the workspace's own Assets/style.css wins (it lost to the generated one, which
    /// came later with the same weight).
    func test_aBugColourOfOnesOwnStylesheetWins() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 2)
        let css = String(decoding: try XCTUnwrap(try PracticeFixture.build(p)["style.css"]), as: UTF8.self)
        let generated = css.split(separator: "\n").filter { $0.contains("--bug:") }
        XCTAssertFalse(generated.isEmpty)
        XCTAssertTrue(generated.allSatisfy { $0.hasPrefix(":where(.bug-") }, "\(generated)")
    }
}
