import EgoFixCore
import EgoFixResources
@testable import EgoFixSite
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

final class SitePagesTests: XCTestCase {
    /// A version bump stored before its wording changed ("7 more fixes applied.", read as seven to
    /// go) reads as one stored now, so an old practice's changelog is not a mix (helper 113).
    func test_changelog_anOldVersionLineReadsAsANewOne() {
        let user = UUID(), at = Date(timeIntervalSince1970: 1_790_000_000)
        let old = VersionEntry(userId: user, version: "1.6", changeType: .minorUpdate, description: "7 more fixes applied.", createdAt: at)
        XCTAssertEqual(PageContext.versionText(old), "7 fixes applied since v1.5.")
        let new = VersionEntry(userId: user, version: "1.6", changeType: .minorUpdate, description: "7 fixes applied since v1.5.", createdAt: at)
        XCTAssertEqual(PageContext.versionText(new), "7 fixes applied since v1.5.")
        let major = VersionEntry(userId: user, version: "2.0", changeType: .majorUpdate, description: "Major update. 70 fixes applied since v1.0.", createdAt: at)
        XCTAssertEqual(PageContext.versionText(major), "Major update. 70 fixes applied since v1.0.")
        XCTAssertEqual(PageContext.versionText(nil), "First run. Known issues: all of them.")
    }

    func text(_ files: [String: Data], _ path: String) throws -> String {
        String(decoding: try XCTUnwrap(files[path], "missing \(path)"), as: UTF8.self)
    }

    func test_site_buildsEveryPageType() async throws {
        let p = try await PracticeFixture.make(reflections: ["Kept my mouth shut in standup. Why does *that* feel like losing?"], crashNotes: ["Argued about tabs."])
        let content = SiteContent(weeks: [.init(name: "2026-W10", source: "content/weeks/2026-W10.md", markdown: "A **week** note.")],
                                  versions: [.init(name: "1.1", source: "content/versions/1.1.md", markdown: "First bump.")],
                                  pages: [.init(name: "about", source: "content/pages/about.md", markdown: "# About\n\nHello.")])
        let files = try PracticeFixture.build(p, content: content)
        for path in ["index.html", "weeks/2026-W10/index.html", "weeks/2026-W12/index.html", "months/2026-03/index.html",
                     "quarters/2026-Q1/index.html", "years/2026/index.html", "reports/index.html", "changelog/index.html",
                     "changelog/feed.xml", "history/index.html", "bugs/need-to-be-right/index.html", "patterns/index.html",
                     "how/index.html", "pages/about/index.html", "404.html", "style.css", "share/index.html", "share/share.css",
                     "share/fix-037/index.html", "share/fix-037/card.svg", "share/fix-037/card.png"] {
            XCTAssertNotNil(files[path], "no \(path)")
        }
        let about = HTMLDocument(try text(files, "pages/about/index.html"))
        XCTAssertEqual(about.all("title").count, 1)
        XCTAssertTrue(about.texts.contains("About | EgoFix"))
    }

    func test_site_weekPage_showsEachDaysFixWithRenderedReflection() async throws {
        let p = try await PracticeFixture.make(reflections: ["Let Tom finish. *Why* was that hard?"], crashNotes: ["Corrected a waiter."])
        let content = SiteContent(weeks: [.init(name: "2026-W10", source: "content/weeks/2026-W10.md", markdown: "Note with **bold**.")])
        let week = HTMLDocument(try text(try PracticeFixture.build(p, content: content), "weeks/2026-W10/index.html"))
        let articles = week.elements.filter { $0.name == "article" && $0.classes.contains("fix") }
        XCTAssertGreaterThanOrEqual(articles.count, 7, "a fix per day, plus quick fixes")
        XCTAssertTrue(week.all("em").count >= 1, "the reflection's Markdown is rendered")
        XCTAssertTrue((week.textByClass["reflection"] ?? []).contains("Why"))
        XCTAssertTrue(week.all("strong").count >= 1, "the week note is rendered")
        XCTAssertTrue(week.texts.contains { $0.contains("Let Tom finish.") })
        // Questions you asked yourself: verbatim.
        XCTAssertTrue(week.texts.contains("Let Tom finish. *Why* was that hard?") || week.texts.contains("*Why* was that hard?"))
        // Diagnostic, mirror check and pager are there.
        XCTAssertTrue(week.texts.contains { $0.contains("You said present.") })
        XCTAssertEqual(week.elements.filter { $0.name == "a" && $0.attr("rel") == "next" }.count, 1)
        XCTAssertEqual(week.elements.filter { $0.name == "a" && $0.attr("rel") == "prev" }.count, 0, "the first week has nothing earlier")
    }

    func test_site_changelog_newestFirstWithFeed() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [])
        let files = try PracticeFixture.build(p)
        let doc = HTMLDocument(try text(files, "changelog/index.html"))
        let versions = doc.all("h2").compactMap { $0.attr("id") }
        XCTAssertGreaterThanOrEqual(versions.count, 2)
        XCTAssertEqual(versions, versions.sorted { $0.split(separator: "-").compactMap { Int($0) }.lexicographicallyPrecedes($1.split(separator: "-").compactMap { Int($0) }) }.reversed(), "newest first")
        XCTAssertEqual(versions.last, "v-1-0")
        XCTAssertTrue(doc.elements.contains { $0.name == "a" && $0.attr("href") == "../changelog/feed.xml" })
        let feed = try XCTUnwrap(files["changelog/feed.xml"])
        let parser = XMLParser(data: feed)
        XCTAssertTrue(parser.parse(), "the feed parses")
        XCTAssertTrue(String(decoding: feed, as: UTF8.self).contains("https://example.org/me/changelog/index.html"))
        // Named as the page is ("Changelog | title"), so a title with a colon in it does not read
        // "EgoFix: notes: changelog".
        let titled = try PracticeFixture.build(p, title: "EgoFix: notes")
        XCTAssertTrue(try text(titled, "changelog/feed.xml").contains("<title type=\"text\">Changelog | EgoFix: notes</title>"))
        let link = HTMLDocument(try text(titled, "changelog/index.html")).elements.first { $0.name == "link" && $0.attr("rel") == "alternate" }
        XCTAssertEqual(link?.attr("title"), "Changelog | EgoFix: notes")
        XCTAssertTrue(try text(titled, "changelog/index.html").contains("<title>Changelog | EgoFix: notes</title>"))
    }

    /// The applied fix that makes the next version counts under the version it was applied in:
    /// every finished version lists the 7 fixes that ended it, on the changelog and in the history's
    /// table by version ("applied under v1.0: 6 fixes" beside "every 7 applied fixes bump the minor
    /// number"; the 7th was listed under the version it made).
    func test_site_changelog_eachFinishedVersionListsTheSevenFixesThatEndedIt() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 38)
        let files = try PracticeFixture.build(p)
        let changelog = try text(files, "changelog/index.html")
        let counts = changelog.components(separatedBy: "<summary>applied under v").dropFirst().compactMap { part -> (String, Int)? in
            guard let colon = part.firstIndex(of: ":") else { return nil }
            let n = part[part.index(colon, offsetBy: 2)...].prefix { $0.isNumber }
            return (String(part[..<colon]), Int(n) ?? -1)
        }
        let applied = p.data.completions.filter { $0.outcome == .applied && $0.deletedAt == nil }.count
        XCTAssertGreaterThanOrEqual(counts.count, 3, changelog)
        XCTAssertEqual(counts.map(\.1).reduce(0, +), applied, "every applied fix is listed once")
        // The current version lists the fixes toward the next (none yet: no list).
        let finished = applied % 7 == 0 ? counts[...] : counts.dropFirst()
        if applied % 7 != 0 { XCTAssertEqual(counts.first?.1, applied % 7, "the current version") }
        for (version, n) in finished { XCTAssertEqual(n, 7, "v\(version)") }
        // Each says which version its fixes made, or are making: "7 fixes applied since v3.8." above
        // "applied under v3.9: 2 fixes" read as a contradiction.
        XCTAssertTrue(counts.dropFirst().allSatisfy { $0.0.contains(", making v") }, changelog)
        if applied % 7 != 0 { XCTAssertTrue(counts.first?.0.contains(", toward v") == true, changelog) }
    }

    /// The history page's tables by version (the spec's history view, grouped by version): newest
    /// version first; each finished version holds the 7 applied fixes that ended it, the 7th
    /// under the version it was applied in; every outcome is in one version's table, skips and
    /// failures under the version running when they were marked; bugs in the order the site
    /// lists them.
    func test_HistoryViewModel_groupsByVersion() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 38)
        let history = try text(try PracticeFixture.build(p), "history/index.html")
        let byVersion = history.components(separatedBy: "<h2>By version</h2>")[1].components(separatedBy: "<h2>")[0]
        let sections = byVersion.components(separatedBy: "<h3>v").dropFirst().map { part -> (version: String, rows: [[Int]]) in
            let version = String(part.prefix { $0 != " " })
            let rows = part.components(separatedBy: "</table>")[0].components(separatedBy: "<tr><td").dropFirst().map { row in
                row.components(separatedBy: "<td class=\"num\">").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
            }
            return (version, rows)
        }
        XCTAssertGreaterThanOrEqual(sections.count, 3)
        let numbers = sections.map { $0.version.split(separator: ".").compactMap { Int($0) } }
        XCTAssertEqual(numbers, numbers.sorted { $0.lexicographicallyPrecedes($1) }.reversed(), "newest version first")
        XCTAssertEqual(sections.last?.version, "1.0")
        let live = p.data.completions.filter { $0.deletedAt == nil }
        let applied = live.filter { $0.outcome == .applied }.count
        for (i, section) in sections.enumerated() {
            let sum = section.rows.map { $0[0] }.reduce(0, +)
            XCTAssertEqual(sum, i == 0 && applied % 7 != 0 ? applied % 7 : 7, "v\(section.version)")
        }
        for (column, outcome) in [(1, FixOutcome.skipped), (2, .failed)] {
            XCTAssertEqual(sections.flatMap(\.rows).map { $0[column] }.reduce(0, +), live.filter { $0.outcome == outcome }.count, "\(outcome)")
        }
        let order = history.components(separatedBy: "<h2>By version</h2>")[0].components(separatedBy: "<td class=\"bug-").dropFirst().map { $0.prefix { $0 != "\"" } }
        for section in byVersion.components(separatedBy: "<h3>v").dropFirst() {
            let slugs = section.components(separatedBy: "<td class=\"bug-").dropFirst().map { $0.prefix { $0 != "\"" } }
            XCTAssertEqual(slugs, order.filter(slugs.contains), "the bugs in the order of the table by bug")
        }
    }

    /// Report periods: ISO weeks (week 53 across the new year), months, quarters, years, and every
    /// period that overlaps a span, in order.
    func test_Period_boundariesAndLabels() {
        let d = LocalDay(year: 2027, month: 1, day: 1)   // a Friday in 2026-W53
        XCTAssertEqual(Period.containing(d, kind: .week).key, "2026-W53")
        XCTAssertEqual(Period.containing(d, kind: .week).start.description, "2026-12-28")
        XCTAssertEqual(Period.containing(d, kind: .week).end.description, "2027-01-03")
        XCTAssertEqual(Period.containing(d, kind: .month).key, "2027-01")
        XCTAssertEqual(Period.containing(LocalDay(year: 2026, month: 11, day: 22), kind: .quarter).key, "2026-Q4")
        XCTAssertEqual(Period.containing(LocalDay(year: 2026, month: 11, day: 22), kind: .quarter).end.description, "2026-12-31")
        XCTAssertEqual(Period.containing(d, kind: .year).key, "2027")
        XCTAssertEqual(Period.all(.month, from: LocalDay(year: 2026, month: 11, day: 30), through: LocalDay(year: 2027, month: 2, day: 1)).map(\.key),
                       ["2026-11", "2026-12", "2027-01", "2027-02"])
        XCTAssertEqual(Period.containing(LocalDay(year: 2024, month: 2, day: 10), kind: .month).end.description, "2024-02-29")
    }

    /// "Questions you asked yourself", per day, oldest day first: a day's reflections, then its
    /// crash notes, each question verbatim.
    func test_AskedQuestions_collectedFromReflectionsAndCrashNotesInOrder() {
        let user = UUID(), fix = UUID()
        let mon = LocalDay(year: 2026, month: 3, day: 2), tue = mon.adding(days: 1)
        let utc = TimeZone(identifier: "UTC") ?? .current
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = utc
        var reflection = FixCompletion(fixId: fix, userId: user, outcome: .applied, assignedAt: tue.at(hour: 8, in: cal))
        reflection.reflection = "Did anyone notice? Probably not."
        let note = Crash(userId: user, bugId: UUID(), note: "Laughed at a joke I didn't get. Why?", crashedAt: tue.at(hour: 9, in: cal))
        let monday = Crash(userId: user, bugId: UUID(), note: "Was that **me**? Yes.", crashedAt: mon.at(hour: 9, in: cal))
        let (_, questions) = PageContext.crisisAndQuestions(completionsByDay: [tue: [reflection]], crashesByDay: [tue: [note], mon: [monday]])
        XCTAssertEqual(questions.map(\.day), [mon, tue])
        XCTAssertEqual(questions.map(\.questions), [["Was that **me**?"], ["Did anyone notice?", "Why?"]])
    }

    /// A crash's line on the changelog names the bug once, as the pages name it: "CRASH 2026-03-05
    /// Need to be right.", not "CRASH 2026-03-05 Crash: need to be right.".
    func test_site_changelog_crashLinesSayTheWordOnce() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: ["Argued about tabs."])
        let changelog = try text(try PracticeFixture.build(p), "changelog/index.html")
        XCTAssertTrue(changelog.contains("<span class=\"outcome crash\">crash</span>"), changelog)
        XCTAssertFalse(changelog.contains("Crash: "), changelog)
        XCTAssertTrue(changelog.contains("</span> Need to be right.</p>"), changelog)
        let entry = { (type: VersionChangeType, text: String) in
            VersionEntry(userId: UUID(), version: "1.0", changeType: type, description: text, createdAt: Date())
        }
        XCTAssertEqual(PageContext.eventText(entry(.crash, "Crash: need to be liked.")), "Need to be liked.")
        XCTAssertEqual(PageContext.eventText(entry(.crash, "Crash.")), "No bug named.")
        XCTAssertEqual(PageContext.eventText(entry(.reboot, "Reboot after 3 crashes.")), "After 3 crashes.")
        // A reboot after one crash had no line; as stored now, and as stored before.
        XCTAssertEqual(PageContext.eventText(entry(.reboot, "Reboot after 1 crash.")), "After 1 crash.")
        XCTAssertEqual(PageContext.eventText(entry(.reboot, "Reboot.")), "After 1 crash.")
        XCTAssertEqual(PageContext.eventText(entry(.crash, "A bad day at work.")), "A bad day at work.", "an import's own words stay")
        XCTAssertEqual(PageContext.eventText(entry(.crash, "Crash course in humility.")), "Crash course in humility.")
    }

    /// p is named as what it is: the patterns page called it "Confidence", a number that falls as
    /// the detectors grow surer.
    func test_site_patternsPageNamesPForWhatItIs() async throws {
        let files = try PracticeFixture.build(try await PracticeFixture.make(reflections: [], crashNotes: []))
        for path in ["patterns/index.html", "how/index.html"] {
            let page = try text(files, path)
            XCTAssertTrue(page.contains("the smaller, the surer"), path)
            XCTAssertFalse(page.contains("Confidence is the chance") || page.contains("carries a confidence"), path)
        }
    }

    /// An inline comment is shown a line at a time, each line a block with a hanging indent, so
    /// a line a narrow page wraps stays under its "//" (it ran on at the left edge, read as prose).
    func test_site_commentLinesWrapUnderTheirSlashes() async throws {
        let files = try PracticeFixture.build(try await PracticeFixture.make(reflections: [], crashNotes: []))
        let week = HTMLDocument(try text(files, "weeks/2026-W10/index.html"))
        let comments = week.elements.filter { $0.name == "p" && $0.classes.contains("comment") && $0.classes.contains("lines") }
        XCTAssertFalse(comments.isEmpty, "the week's fixes carry comments")
        let lines = (week.textByClass["comment"] ?? []).filter { $0.hasPrefix("//") }
        XCTAssertFalse(lines.isEmpty)
        let page = try text(files, "weeks/2026-W10/index.html")
        for line in lines {
            XCTAssertTrue(page.contains("<span>" + HTMLEscape.escape(line) + "</span>"), "each line its own block: \(line)")
        }
        XCTAssertFalse(page.contains("<p class=\"comment lines\">//"), "no comment line outside its block")
        for (path, sheet) in [("style.css", try text(files, "style.css")), ("share/share.css", try text(files, "share/share.css"))] {
            XCTAssertTrue(sheet.contains(".comment.lines > span { display: block; padding-left: 3ch; text-indent: -3ch; }"), path)
        }
        let card = try text(files, "share/fix-037/index.html")
        XCTAssertTrue(card.contains("<p class=\"comment lines\"><span>//"), "the share page too")
    }

    /// A period's graph that begins before the practice did names those days "before day one":
    /// "no activity" read as days missed.
    func test_site_graphDaysBeforeDayOneAreNamedSo() async throws {
        let files = try PracticeFixture.build(try await PracticeFixture.make(reflections: [], crashNotes: []))
        let month = try text(files, "months/2026-03/index.html"), year = try text(files, "years/2026/index.html")
        XCTAssertTrue(month.contains("<title>2026-03-01: before day one</title>"), month)
        XCTAssertFalse(month.contains("2026-03-01: no activity"), month)
        XCTAssertTrue(year.contains("<title>2026-01-01: before day one</title>"))
        XCTAssertFalse(month.contains("2026-03-02: before day one"), "day one is a day of the practice")
        // The table alternative has one row for the weeks before it (the year page read out nine
        // rows of seven "before day one" days).
        XCTAssertTrue(year.contains("<tr><th scope=\"row\">2026-W01 to 2026-W09</th><td class=\"empty d0\" colspan=\"7\">before day one</td></tr>"), year)
        XCTAssertFalse(year.contains(">2026-01-05: before day one</td>"), year)
        XCTAssertTrue(year.contains("<tr><th scope=\"row\">2026-W10</th>"), year)
        XCTAssertTrue(month.contains("<tr><th scope=\"row\">2026-W09</th><td class=\"empty d0\" colspan=\"7\">before day one</td></tr>"), month)
    }

    func test_site_everyPrivatePageHasCSPNoReferrerAndNoindex() async throws {
        let files = try PracticeFixture.build(try await PracticeFixture.make(reflections: ["x"], crashNotes: []))
        for (path, data) in files where path.hasSuffix(".html") {
            let doc = HTMLDocument(String(decoding: data, as: UTF8.self))
            let metas = doc.all("meta")
            XCTAssertTrue(metas.contains { $0.attr("http-equiv") == "Content-Security-Policy" && ($0.attr("content") ?? "").contains("default-src 'none'") }, path)
            // A font put in Assets loads (self-hosted fonts are the site's own; none from elsewhere).
            XCTAssertTrue(metas.contains { ($0.attr("content") ?? "").contains("font-src 'self';") }, path)
            XCTAssertTrue(metas.contains { $0.attr("name") == "referrer" && $0.attr("content") == "no-referrer" }, path)
            XCTAssertTrue(doc.all("script").isEmpty, path)
            if !path.hasPrefix("share/") {
                XCTAssertTrue(metas.contains { $0.attr("name") == "robots" && ($0.attr("content") ?? "").contains("noindex") }, path)
            } else {
                XCTAssertFalse(doc.elements.contains { $0.name == "a" && ($0.attr("href") ?? "").contains("../../weeks") }, "share links into private pages: \(path)")
            }
            for el in doc.elements {
                for (k, v) in el.attributes where k == "href" || k == "src" {
                    XCTAssertFalse(v.hasPrefix("http://") || (v.hasPrefix("https://") && !v.hasPrefix("https://example.org/me/")), "\(path) requests \(v)")
                }
            }
        }
    }

    func test_site_graphHasTableAlternativeAndLegend() async throws {
        let files = try PracticeFixture.build(try await PracticeFixture.make(reflections: ["x"], crashNotes: ["y"]))
        let doc = HTMLDocument(try text(files, "history/index.html"))
        XCTAssertTrue(doc.all("svg").contains { $0.attr("role") == "img" && $0.attr("aria-label") != nil })
        XCTAssertGreaterThanOrEqual(doc.all("table").count, 2)
        XCTAssertTrue(doc.all("title").count > 7, "a label per cell")
    }

    func test_site_firstDay_hasNoEmptyBoxesOrNaN() async throws {
        let p = try await PracticeFixture.make(reflections: ["One day in."], crashNotes: [], days: 1)
        let files = try PracticeFixture.build(p)
        for (path, data) in files where path.hasSuffix(".html") {
            let s = String(decoding: data, as: UTF8.self)
            XCTAssertFalse(s.contains("NaN"), path)
            XCTAssertFalse(s.contains("nan%"), path)
            XCTAssertFalse(s.contains("inf"), path)
        }
        let dash = HTMLDocument(try text(files, "index.html"))
        XCTAssertTrue(dash.texts.contains("v1.0"))
    }

    func test_site_isDeterministic_acrossRuns() async throws {
        let p = try await PracticeFixture.make(reflections: ["Same."], crashNotes: ["Same crash."])
        let a = try PracticeFixture.build(p), b = try PracticeFixture.build(p)
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted())
        for k in a.keys { XCTAssertEqual(a[k], b[k], k) }
    }

    /// Written into a folder as each page renders, the site is byte for byte the one built in memory,
    /// share cards included, and a failing page leaves nothing behind.
    func test_site_writtenAsItRendersMatchesTheBuiltFiles() async throws {
        let p = try await PracticeFixture.make(reflections: ["Written."], crashNotes: ["A note."])
        let expected = try PracticeFixture.build(p)
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let builder = try SiteBuilder(templates: TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: nil),
                                      assets: AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: nil))
        let options = SiteOptions(title: "EgoFix", baseURL: "https://example.org/me/", now: p.now, calendar: p.calendar)
        var stats = SiteBuildStats()
        let build = try SiteWriter(output: site).begin()
        let paths = try builder.build(data: p.data, content: SiteContent(), options: options, reuseCard: { _, _ in nil },
                                      stats: &stats, into: build)
        try build.commit()
        XCTAssertEqual(paths, expected.keys.sorted())
        XCTAssertTrue(paths.contains { $0.hasSuffix("card.png") })
        for path in paths {
            XCTAssertEqual(FileManager.default.contents(atPath: site.appendingPathComponent(path).path), expected[path], path)
        }
        let big = SiteContent(pages: [.init(name: "huge", source: "content/pages/huge.md",
                                            markdown: String(repeating: "x", count: Thresholds.maxMarkdownBytes + 1))])
        let failing = try SiteWriter(output: site).begin()
        XCTAssertThrowsError(try builder.build(data: p.data, content: big, options: options, reuseCard: { _, _ in nil },
                                               stats: &stats, into: failing)) { XCTAssertTrue("\($0)".contains("content/pages/huge.md")) }
        failing.abandon()
        XCTAssertEqual(siteFiles(site).filter { $0 != SiteWriter.markerName }, paths)
    }

    /// The period pages' bug rows come from running totals; they must say what a walk over the days says.
    func test_site_bugRowsMatchAWalkOverTheDays() async throws {
        let p = try await PracticeFixture.make(reflections: ["Kept quiet."], crashNotes: ["Argued about tabs."])
        let options = SiteOptions(title: "EgoFix", baseURL: "https://example.org/me/", now: p.now, calendar: p.calendar)
        let ctx = try PageContext(data: p.data, content: SiteContent(), options: options,
                                  templates: TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: nil))
        let index = ctx.index
        var nonEmpty = 0
        for start in stride(from: -3, through: 24, by: 3) {
            for length in [0, 1, 6, 30] {
                let from = index.first.adding(days: start), through = from.adding(days: length)
                var expected: [String] = []
                for bug in index.bugs {
                    var t = BugTallies.Tally()
                    var d = from
                    while d <= through {
                        for c in index.completionsByDay[d] ?? [] where index.fixesById[c.fixId]?.bugId == bug.id {
                            if c.outcome == .applied { t.applied += 1 } else if c.outcome == .skipped { t.skipped += 1 } else if c.outcome == .failed { t.failed += 1 }
                        }
                        for c in index.crashesByDay[d] ?? [] where c.bugId == bug.id { t.crashes += 1 }
                        d = d.adding(days: 1)
                    }
                    if !t.isEmpty { expected.append("\(bug.slug) \(t.applied) \(t.skipped) \(t.failed) \(t.crashes)") }
                }
                let rows = ctx.bugRows(from: from, through: through).map { "\($0.slug) \($0.applied) \($0.skipped) \($0.failed) \($0.crashes)" }
                XCTAssertEqual(rows, expected, "\(from) through \(through)")
                nonEmpty += expected.isEmpty ? 0 : 1
            }
        }
        XCTAssertGreaterThan(nonEmpty, 10, "the ranges cover days with fixes and crashes")
    }

    /// A fix given on Sunday evening and marked on Monday morning is Monday's: the week it is
    /// listed in is the week that counts it, and no week lists what it does not count.
    func test_site_weekListAndCountsAgreeWhenAFixIsMarkedTheNextDay() async throws {
        var p = try await PracticeFixture.make(reflections: [], crashNotes: [])
        let sunday = LocalDay(year: 2026, month: 3, day: 15)
        let i = try XCTUnwrap(p.data.completions.firstIndex { LocalDay($0.assignedAt, calendar: p.calendar) == sunday && $0.outcome != .pending })
        p.data.completions[i].completedAt = sunday.adding(days: 1).at(hour: 8, in: p.calendar)
        let files = try PracticeFixture.build(p)
        func number(_ label: String, in page: String) -> Int {
            guard let r = page.range(of: "<span class=\"label\">\(label)</span><span class=\"value\">") else { return 0 }
            return Int(page[r.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        var weeks = 0
        for path in files.keys.sorted() where path.hasPrefix("weeks/2026-W") {
            let page = try text(files, path)
            let days = page.components(separatedBy: "<h2>Days</h2>").dropFirst().first ?? ""
            for outcome in ["applied", "skipped", "failed"] {
                XCTAssertEqual(days.components(separatedBy: "<span class=\"outcome \(outcome)\">").count - 1, number(outcome, in: page),
                               "\(path): \(outcome) listed and counted")
            }
            weeks += 1
        }
        XCTAssertGreaterThanOrEqual(weeks, 3)
        let w12 = try text(files, "weeks/2026-W12/index.html")
        let label = try XCTUnwrap(p.data.fixes.first { $0.id == p.data.completions[i].fixId }?.label)
        XCTAssertTrue(w12.contains("<span class=\"label\">\(label)</span>"), "listed on Monday, in week 12")
        XCTAssertFalse(try text(files, "weeks/2026-W11/index.html").contains("<span class=\"label\">\(label)</span>"), "not in week 11")
    }

    /// A week's "Why" never says "No fix today." over a week of fixes, nor over a week gone by
    /// with none: without a diagnostic, a week has no tidbit (the rest days' speak of today).
    func test_site_weekWhy_speaksOnlyOfWhatTheWeekHeld() async throws {
        var p = try await PracticeFixture.make(reflections: [], crashNotes: [])
        p.data.diagnostics = []
        p.now = p.now.addingTimeInterval(14 * 86_400)
        let files = try PracticeFixture.build(p)
        for week in ["2026-W10", "2026-W11", "2026-W12"] {
            XCTAssertFalse(try text(files, "weeks/\(week)/index.html").contains("<h2>Why</h2>"), "\(week) had fixes and no diagnostic")
        }
        let rest = try text(files, "weeks/2026-W14/index.html")
        XCTAssertFalse(rest.contains("<h2>Why</h2>"), "a week with no fix given says 'No fix today.' on its page")
    }

    /// A server sends the 404 page for a missing address at any depth: its links start at the
    /// site's root (the base URL's path), never beside the page.
    func test_site_notFoundPageLinksFromTheSitesRoot() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 3)
        let page = HTMLDocument(try text(try PracticeFixture.build(p), "404.html"))
        let links = page.elements.filter { $0.name == "a" || $0.name == "link" }.compactMap { $0.attr("href") }.filter { !$0.hasPrefix("#") }
        XCTAssertFalse(links.isEmpty)
        for href in links { XCTAssertTrue(href.hasPrefix("/me/"), href) }
        XCTAssertTrue(links.contains("/me/style.css"))
        XCTAssertEqual(PageContext.serverRoot(baseURL: nil), "/")
        XCTAssertEqual(PageContext.serverRoot(baseURL: "https://example.org/"), "/")
        XCTAssertEqual(PageContext.serverRoot(baseURL: "https://example.org"), "/")
        XCTAssertEqual(PageContext.serverRoot(baseURL: "http://localhost:8080/a/b/"), "/a/b/")
    }

    /// A past week says how far the next version was at its end; only the current week counts what is left to go.
    func test_site_weekHeaderSpeaksOfItsOwnTime() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [])
        let files = try PracticeFixture.build(p)
        let past = try text(files, "weeks/2026-W10/index.html"), current = try text(files, "weeks/2026-W12/index.html")
        XCTAssertTrue(past.range(of: #"· [0-9] more applied fix(es)? to v1\.[0-9] at the week&#39;s end</p>"#, options: .regularExpression) != nil, past)
        XCTAssertTrue(current.range(of: #"· [0-9] more applied fix(es)? to v1\.[0-9]</p>"#, options: .regularExpression) != nil, current)
        XCTAssertFalse(current.contains("at the week&#39;s end"), current)
    }

    /// How far the next version is reads the same in `status`, on the dashboard and on the week pages.
    func test_site_theNextVersionIsSaidOneWay() {
        XCTAssertEqual(VersionRules.toNextVersion(appliedCount: 0), "7 more applied fixes to v1.1")
        XCTAssertEqual(VersionRules.toNextVersion(appliedCount: 6), "1 more applied fix to v1.1")
        XCTAssertEqual(VersionRules.toNextVersion(appliedCount: 69), "1 more applied fix to v2.0")
    }

    func test_site_markdownOverTheCapNamesTheSource() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 2)
        let big = String(repeating: "x", count: Thresholds.maxMarkdownBytes + 1)
        let content = SiteContent(pages: [.init(name: "huge", source: "content/pages/huge.md", markdown: big)])
        XCTAssertThrowsError(try PracticeFixture.build(p, content: content)) { e in
            XCTAssertTrue("\(e)".contains("content/pages/huge.md"), "\(e)")
        }
    }

    func test_site_crisisLanguageShowsHelpFirst() async throws {
        let p = try await PracticeFixture.make(reflections: ["Some days I want to die a little when I lose an argument."], crashNotes: [], days: 3)
        let files = try PracticeFixture.build(p)
        let week = HTMLDocument(try text(files, "weeks/2026-W10/index.html"))
        let firstHeading = week.all("h2").first?.attr("id")
        XCTAssertEqual(firstHeading, "help-title")
        // Every page that shows the text, whatever kind of page it is, has the help block first.
        let showing = files.keys.sorted().filter { $0.hasSuffix(".html") && String(decoding: files[$0] ?? Data(), as: UTF8.self).contains("Some days I want to die") }
        XCTAssertTrue(showing.contains { $0.hasPrefix("bugs/") }, "\(showing)")
        for path in showing {
            XCTAssertEqual(HTMLDocument(try text(files, path)).all("h2").first?.attr("id"), "help-title", path)
        }
        let other = HTMLDocument(try text(try PracticeFixture.build(try await PracticeFixture.make(reflections: ["Fine."], crashNotes: [], days: 3)), "weeks/2026-W10/index.html"))
        XCTAssertFalse(other.all("h2").contains { $0.attr("id") == "help-title" })
    }

    /// Crisis language in the person's own notes (a week's, a version's, a free page) puts the help
    /// block first on the page that shows them, as it does for a reflection or a crash note (a week
    /// note said "I want to kill myself." under no help block).
    func test_site_crisisLanguageInNotesShowsHelpFirst() async throws {
        let p = try await PracticeFixture.make(reflections: ["Fine."], crashNotes: [], days: 10)
        let words = "Some nights I want to kill myself."
        let content = SiteContent(weeks: [.init(name: "2026-W10", source: "content/weeks/2026-W10.md", markdown: words)],
                                  versions: [.init(name: "1.1", source: "content/versions/1.1.md", markdown: words)],
                                  pages: [.init(name: "nights", source: "content/pages/nights.md", markdown: "# Nights\n\n" + words)])
        let files = try PracticeFixture.build(p, content: content)
        for path in ["weeks/2026-W10/index.html", "changelog/index.html", "pages/nights/index.html"] {
            XCTAssertEqual(HTMLDocument(try text(files, path)).all("h2").first?.attr("id"), "help-title", path)
        }
        XCTAssertNotEqual(HTMLDocument(try text(files, "weeks/2026-W11/index.html")).all("h2").first?.attr("id"), "help-title")
    }

    /// A free page's title is its first level-1 heading as CommonMark reads it: Windows line
    /// endings put the whole page in the <title>; a setext or indented heading was not seen (the
    /// file's name was the title, and the page had two h1s); closing #s and Markdown stayed in it.
    func test_site_freePageTitleIsItsFirstHeadingsText() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 3)
        let pages: [(String, String, String)] = [("crlf", "# Lisbon\r\n\r\nDay one.\r\n", "Lisbon"),
                                                 ("setext", "Porto\n=====\n\nRain.", "Porto"),
                                                 ("closing", "   # Faro ##\n\nSun.", "Faro"),
                                                 ("marked", "# *Sintra* [hills](hills.html)\n", "Sintra hills"),
                                                 ("plain", "No heading here.", "plain")]
        let content = SiteContent(pages: pages.map { .init(name: $0.0, source: "content/pages/\($0.0).md", markdown: $0.1) })
        let files = try PracticeFixture.build(p, content: content)
        for (name, _, title) in pages {
            let html = try text(files, "pages/\(name)/index.html")
            let shown = html.components(separatedBy: "<title>").dropFirst().first?.components(separatedBy: "</title>").first
            XCTAssertEqual(shown, title + " | EgoFix", name)
            XCTAssertEqual(HTMLDocument(html).all("h1").count, 1, name)
        }
    }

    /// Each entry's `<link href>` and `<id>` in the order written (a plain scan; the feed's own
    /// link and id come before the first entry).
    private func feedEntries(_ xml: String) -> [(id: String, link: String)] {
        xml.components(separatedBy: "<entry>").dropFirst().map { entry in
            func between(_ a: String, _ b: String) -> String {
                guard let s = entry.range(of: a), let e = entry.range(of: b, range: s.upperBound..<entry.endIndex) else { return "" }
                return String(entry[s.upperBound..<e.lowerBound])
            }
            return (between("<id>", "</id>"), between("<link rel=\"alternate\" type=\"text/html\" href=\"", "\""))
        }
    }

    func test_changelogFeed_entryLinksKeepTheirFragment() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [])
        let xml = try text(try PracticeFixture.build(p), "changelog/feed.xml")
        let entries = feedEntries(xml)
        XCTAssertGreaterThanOrEqual(entries.count, 2)
        XCTAssertEqual(entries.last?.link, "https://example.org/me/changelog/index.html#v-1-0")
        for e in entries {
            XCTAssertTrue(e.link.hasPrefix("https://example.org/me/changelog/index.html#v-"), e.link)
        }
        XCTAssertFalse(xml.contains("%23"), "a # in a link is a fragment, not part of the file name")
        // Without a base URL the links are relative to the feed's folder, fragment kept.
        let builder = try SiteBuilder(templates: TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: nil),
                                      assets: AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: nil))
        let relative = try builder.build(data: p.data, content: SiteContent(),
                                         options: SiteOptions(title: "EgoFix", baseURL: nil, now: p.now, calendar: p.calendar))
        let feed = try XCTUnwrap(relative.first { $0.path == "changelog/feed.xml" })
        XCTAssertEqual(feedEntries(String(decoding: feed.data, as: UTF8.self)).last?.link, "../changelog/index.html#v-1-0")
    }

    func test_changelogFeed_firstVersionHasItsOwnStableEntryID() async throws {
        let p = try await PracticeFixture.make(reflections: ["One day in."], crashNotes: [], days: 1)
        let xml = try text(try PracticeFixture.build(p), "changelog/feed.xml")
        let feedID = try XCTUnwrap(xml.components(separatedBy: "<entry>").first?.components(separatedBy: "<id>").dropFirst().first?
            .components(separatedBy: "</id>").first)
        let entries = feedEntries(xml)
        XCTAssertEqual(entries.count, 1, "a new workspace has v1.0 only")
        XCTAssertTrue(entries[0].id.hasPrefix("urn:uuid:"), entries[0].id)
        XCTAssertNotEqual(entries[0].id, feedID, "an entry's id is not the feed's id")
        XCTAssertEqual(feedEntries(try text(try PracticeFixture.build(p), "changelog/feed.xml"))[0].id, entries[0].id, "the same on the next build")
        let many = feedEntries(try text(try PracticeFixture.build(try await PracticeFixture.make(reflections: [], crashNotes: [])), "changelog/feed.xml"))
        XCTAssertEqual(Set(many.map(\.id)).count, many.count, "entry ids differ from each other")
    }

    /// "A bug activated again starts low again" (the copy audit): no rule says a word twice for one idea.
    func test_howPage_saysAgainOnceARule() async throws {
        let how = HTMLDocument(try text(try PracticeFixture.build(try await PracticeFixture.make(reflections: [], crashNotes: [], days: 1)), "how/index.html"))
        XCTAssertTrue(how.texts.contains("A bug activated again restarts at low severity: its days active count from the latest activation."),
                      how.texts.joined(separator: "\n"))
        for t in how.texts { XCTAssertLessThanOrEqual(t.lowercased().components(separatedBy: "again").count - 1, 1, t) }
    }

    /// The shade rule as the squares follow it: a skipped fix's severity adds nothing (a skipped
    /// high-severity fix with a reflection is depth 2; the page read as if it were 4).
    func test_howPage_saysASkippedFixsSeverityDoesNotShade() async throws {
        let how = HTMLDocument(try text(try PracticeFixture.build(try await PracticeFixture.make(reflections: [], crashNotes: [], days: 1)), "how/index.html"))
        XCTAssertTrue(how.texts.contains { $0.hasPrefix("Shade is depth: the severity of a fix applied or failed (low, medium, high; a skipped fix's severity does not count), plus a reflection") },
                      how.texts.joined(separator: "\n"))
    }

    func test_howPage_saysOneFreezePerWeekInAgreement() async throws {
        let how = HTMLDocument(try text(try PracticeFixture.build(try await PracticeFixture.make(reflections: [], crashNotes: [], days: 1)), "how/index.html"))
        XCTAssertTrue(how.texts.contains("One freeze a week; freeze weeks start on Sunday."), how.texts.joined(separator: "\n"))
        XCTAssertFalse(how.texts.contains { $0.contains("There are 1 ") })
    }

    /// A counter fix marked with a count of one, in each unit the catalogue uses: "Counted once",
    /// "1 reply", "1 person", never "1 times".
    func test_counterFix_countOfOneReadsInTheSingular() throws {
        XCTAssertEqual(Plural.count(1, unit: "times"), "once")
        XCTAssertEqual(Plural.count(2, unit: "times"), "2 times")
        let expected = ["buzzes": "1 buzz", "checks": "1 check", "deletions": "1 deletion", "drafts": "1 draft", "lookups": "1 lookup",
                        "messages": "1 message", "near misses": "1 near miss", "nos": "1 no", "people": "1 person",
                        "questions": "1 question", "reactions": "1 reaction", "replies": "1 reply", "reruns": "1 rerun",
                        "sentences": "1 sentence", "signs": "1 sign", "tasks": "1 task", "urges": "1 urge"]
        for unit in expected.keys.sorted() { XCTAssertEqual(Plural.count(1, unit: unit), expected[unit], unit) }
        XCTAssertEqual(Plural.count(3, unit: "people"), "3 people")
        var units: [String] = []
        for fix in try PracticeFixture.catalogue().fixes {
            if case .counter(let c)? = try? fix.configuration(), let unit = c.unit { units.append(unit) }
        }
        XCTAssertFalse(units.isEmpty)
        for unit in units { XCTAssertNotNil(expected[unit] ?? (unit == "times" ? "once" : nil), "a unit with no test: \(unit)") }
        XCTAssertEqual(Plural.of(1, "step", "steps") + " done.", "1 step done.")
    }

    /// Up to eight pages of one's own are listed in every page's navigation; with more, one
    /// "pages" entry leads to a page listing them all (each page listing every one made the
    /// site grow with the square of their number: 500 pages, 29 MB; 2,000, 304 MB).
    func test_site_manyPagesOfOnesOwnAreListedOnAPageOfTheirOwn() async throws {
        let p = try await PracticeFixture.make(reflections: [], crashNotes: [], days: 2)
        func pages(_ n: Int) -> SiteContent {
            SiteContent(pages: (1...n).map { .init(name: "note-\($0)", source: "content/pages/note-\($0).md", markdown: "Text \($0).") })
        }
        func nav(_ files: [String: Data], _ path: String) throws -> [String] {
            HTMLDocument(try text(files, path)).elements.filter { $0.name == "a" && ($0.attr("href") ?? "").contains("pages/") }.compactMap { $0.attr("href") }
        }
        let eight = try PracticeFixture.build(p, content: pages(8))
        XCTAssertEqual(try nav(eight, "index.html").count, 8)
        XCTAssertNil(eight["pages/index.html"])
        let nine = try PracticeFixture.build(p, content: pages(9))
        XCTAssertEqual(try nav(nine, "index.html"), ["pages/index.html"])
        XCTAssertEqual(try nav(nine, "pages/note-3/index.html"), ["../../pages/index.html"])
        XCTAssertTrue(try text(nine, "pages/note-3/index.html").contains(#"<a href="../../pages/index.html" aria-current="page">pages</a>"#))
        let listed = try nav(nine, "pages/index.html").filter { $0.hasPrefix("../pages/note-") }
        XCTAssertEqual(listed.count, 9, "\(listed)")
    }

    /// A question asked again is listed once, where it was first asked, with how often and over
    /// which days (a year page listed one question 5,498 times); questions stay oldest first.
    func test_site_aQuestionAskedAgainIsListedOnce() async throws {
        let p = try await PracticeFixture.make(reflections: ["Why do I need the last word?", "Fine. Who asked?"], crashNotes: [], days: 5)
        let files = try PracticeFixture.build(p)
        let page = try text(files, "weeks/2026-W10/index.html")
        let quoted = page.components(separatedBy: "<blockquote>").dropFirst().compactMap { $0.components(separatedBy: "</blockquote>").first }
        XCTAssertEqual(quoted.filter { $0.contains("Why do I need the last word?") }.count, 1, "\(quoted)")
        XCTAssertEqual(quoted.filter { $0.contains("Who asked?") }.count, 1, "\(quoted)")
        let first = try XCTUnwrap(quoted.first)
        XCTAssertTrue(first.contains("Why do I need the last word?") && first.contains("asked 3 times, 2026-03-02 to 2026-03-06"), first)
        XCTAssertTrue(quoted[1].contains("asked twice, 2026-03-03 to 2026-03-05"), quoted[1])
    }
}

extension SitePagesTests {
    /// The house style's spelling (American: color, gray, practice) holds for the tool's own
    /// words on every page, as it does for the catalogue: the history and how pages said
    /// "Colour" and "grey" (the copy audit).
    func test_site_theToolsOwnWordsKeepTheHouseSpelling() async throws {
        let p = try await PracticeFixture.make(reflections: ["Kept my mouth shut in standup."], crashNotes: ["Argued about tabs."])
        let files = try PracticeFixture.build(p, content: SiteContent(weeks: [], versions: [], pages: []))
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where path.hasSuffix(".html") {
            let words = HTMLDocument(String(decoding: data, as: UTF8.self)).texts.joined(separator: " ")
            XCTAssertEqual(HouseStyle.spelling(words), [], path)
        }
    }
}
