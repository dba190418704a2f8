import XCTest

/// `egofix build` and `egofix demo` as a user runs them.
final class SiteBuildTests: XCTestCase {
    /// The demo workspace of the repository (demo/egofix.toml and demo/content).
    var demoWorkspace: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("demo")
    }

    func tree(_ root: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let fm = FileManager.default
        guard let e = fm.enumerator(atPath: root) else { return out }
        while let rel = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: root + "/" + rel, isDirectory: &isDir), !isDir.boolValue {
                out[rel] = fm.contents(atPath: root + "/" + rel)
            }
        }
        return out
    }

    func buildDemo(into out: String, env: [String: String], arguments: [String]? = nil) throws -> CLI.Result {
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = arguments ?? ["build", "--demo", "--out", out]
        p.environment = ["HOME": NSTemporaryDirectory(), "PATH": "/usr/bin:/bin"].merging(env) { $1 }
        p.currentDirectoryURL = demoWorkspace
        let o = Pipe(), e = Pipe()
        p.standardOutput = o
        p.standardError = e
        try p.run()
        let od = o.fileHandleForReading.readDataToEndOfFile(), ed = e.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, out: String(decoding: od, as: UTF8.self), err: String(decoding: ed, as: UTF8.self))
    }

    /// Every month page's "Inside" list adds up to the month's counts: a week across the month's
    /// edge is counted for its days in the month, which it names (its whole-week counts, October
    /// 2026 listed 29 applied under 25).
    func test_build_aMonthsWeeksAddUpToTheMonth() throws {
        let out = NSTemporaryDirectory() + "egofix-months-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        XCTAssertEqual(try buildDemo(into: out, env: [:]).status, 0)
        let months = try FileManager.default.contentsOfDirectory(atPath: out + "/months").sorted()
        XCTAssertGreaterThan(months.count, 10)
        var edges = 0
        for month in months {
            let html = try String(contentsOfFile: out + "/months/\(month)/index.html", encoding: .utf8)
            for word in ["applied", "skipped", "failed"] {
                let stat = try XCTUnwrap(html.range(of: "<span class=\"label\">\(word)</span><span class=\"value\">[0-9]+<", options: .regularExpression), month)
                let total = Int(html[stat].split(separator: ">")[3].dropLast()) ?? -1
                let inside = html.components(separatedBy: "<h2>Inside</h2>")[1]
                var sum = 0
                var rest = inside[...]
                while let r = rest.range(of: "[0-9]+ \(word)", options: .regularExpression) {
                    sum += Int(rest[r].split(separator: " ")[0]) ?? 0
                    rest = rest[r.upperBound...]
                }
                XCTAssertEqual(sum, total, "\(month): \(word)")
            }
            if html.contains("<span class=\"muted\">\(month)-01 to ") { edges += 1 }
        }
        XCTAssertGreaterThan(edges, 5, "weeks across a month's first day name their days in it")
    }

    /// A quiz marked without --option showed its question on the week page with nothing after
    /// it, a page that read as cut short: it says no answer was recorded; an answer is shown.
    /// `applied` says the same back, so a wrong option is seen when it is given.
    /// Begun on a Saturday and rated that Sunday: the week's days before the practice read
    /// "Before day one.", as the graph labels them. The diagnostic's Monday is the first day the
    /// index holds, and Monday to Friday read "Nothing recorded.", as if missed (the committed
    /// demo's first week had it).
    func test_build_theFirstWeeksDaysBeforeDayOneSaySo() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-07T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-08T19:00:00Z").status, 0)
        let out = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: "2026-03-08T20:00:00Z").status, 0)
        let week = try String(contentsOfFile: out + "/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertEqual(week.components(separatedBy: "Before day one.").count - 1, 5, week)
        XCTAssertFalse(week.contains("Nothing recorded."), week)
    }

    func test_build_aQuizMarkedWithoutAnAnswerSaysSo() throws {
        let cli = try CLI(zone: "UTC")
        let root = demoWorkspace.deletingLastPathComponent()
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: try Data(contentsOf: root.appendingPathComponent("Seeds/fixes.json"))) as? [[String: Any]])
        let kept = all.filter { $0["interactionType"] as? String == "quiz" || $0["type"] as? String == "quickFix" }
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Seeds", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: cli.workdir + "/Seeds/fixes.json"))
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        let unanswered = try cli.run(["applied"], at: "2026-03-02T09:00:00Z")
        XCTAssertEqual(unanswered.status, 0, unanswered.err)
        // The command says what it recorded, as the week page will.
        XCTAssertTrue(unanswered.out.contains("No answer recorded."), unanswered.out)
        // And how to add one the same day, which works.
        XCTAssertTrue(unanswered.out.replacingOccurrences(of: "\n", with: " ").contains("`egofix amend --option ID` adds one today."), unanswered.out)
        let today = try cli.run(["today", "--json"], at: "2026-03-03T09:00:00Z").out
        let option = try XCTUnwrap(today.range(of: #""id" : "[a-z0-9]+""#, options: .regularExpression).map { today[$0].split(separator: "\"")[2] }, today)
        let answered = try cli.run(["applied", "--option", String(option)], at: "2026-03-03T09:00:00Z")
        XCTAssertEqual(answered.status, 0, answered.err)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(today.utf8)) as? [String: Any])
        let text = try XCTUnwrap((((doc["fix"] as? [String: Any])?["configurationData"] as? [String: Any])?["options"] as? [[String: Any]])?.first { $0["id"] as? String == String(option) }?["text"] as? String, today)
        XCTAssertTrue(answered.out.replacingOccurrences(of: "\n", with: " ").contains("Answered: " + text), "the option chosen is said back: \(answered.out)")
        let out = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: "2026-03-03T10:00:00Z").status, 0)
        let week = try String(contentsOfFile: out + "/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertEqual(week.components(separatedBy: "No answer recorded.").count - 1, 1, week)
        XCTAssertEqual(week.components(separatedBy: "Answered: ").count - 1, 1, week)
        // The dashboard, as `status`, says today's fix is marked (not "`egofix today` shows today's").
        let dashboard = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        XCTAssertTrue(dashboard.range(of: "No pending fix. Today&#39;s, FIX #[0-9]+, is marked applied.", options: .regularExpression) != nil, dashboard)
        // A practice of two days: its graph starts at day one (it showed a year of empty days).
        XCTAssertTrue(dashboard.contains("<h2>Since day one</h2>"), dashboard)
        XCTAssertFalse(dashboard.contains("contribution-graph long"), "a short graph, not a year that scrolls: \(dashboard)")
        // The way the command gives to add an answer the same day works.
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-04T09:00:00Z").status, 0)
        let third = try cli.run(["today", "--json"], at: "2026-03-04T09:10:00Z").out
        let given = try XCTUnwrap(third.range(of: #""id" : "[a-z0-9]+""#, options: .regularExpression).map { third[$0].split(separator: "\"")[2] }, third)
        let added = try cli.run(["amend", "--option", String(given)], at: "2026-03-04T09:20:00Z")
        XCTAssertEqual(added.status, 0, added.err)
        XCTAssertTrue(added.out.contains("Answered: "), added.out)
    }

    func test_build_twoProcessesInDifferentZonesAndLocalesGiveIdenticalTrees() throws {
        let dir = try CLI.temporaryDirectory()
        let a = try buildDemo(into: dir + "/a", env: ["TZ": "UTC", "LANG": "C", "LC_ALL": "C"])
        let b = try buildDemo(into: dir + "/b", env: ["TZ": "Pacific/Apia", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        XCTAssertEqual(a.status, 0, a.err)
        XCTAssertEqual(b.status, 0, b.err)
        let ta = try tree(dir + "/a"), tb = try tree(dir + "/b")
        XCTAssertGreaterThan(ta.count, 50)
        XCTAssertEqual(ta.keys.sorted(), tb.keys.sorted())
        for k in ta.keys.sorted() where ta[k] != tb[k] { XCTFail("\(k) differs between the two builds") }
    }

    /// A bug back to active after a regression says so on its page, with the day, not only the
    /// day it was first activated (the demo's need-to-be-busy regresses in October 2026).
    func test_build_aRegressedBugsPageSaysWhenItCameBack() throws {
        let dir = try CLI.temporaryDirectory()
        XCTAssertEqual(try buildDemo(into: dir + "/s", env: ["TZ": "UTC"]).status, 0)
        let page = try String(contentsOfFile: dir + "/s/bugs/need-to-be-busy/index.html", encoding: .utf8)
        XCTAssertTrue(page.contains("Status: active. Back to active 2026-10-08, a regression; first active 2026-01-06."), page)
        let steady = try String(contentsOfFile: dir + "/s/bugs/fear-of-ordinary/index.html", encoding: .utf8)
        XCTAssertTrue(steady.contains("Status: active. Active since 2026-08-23."), steady)
        // The list stops at 60 fixes and says so (it stopped without a word).
        XCTAssertTrue(page.contains("The latest 60 of 62. The rest are on their weeks&#39; pages, under reports."), page)
        XCTAssertFalse(steady.contains("The latest 60"), steady)
    }

    /// Every contribution graph has its table alternative (DESIGN): month, quarter and year pages
    /// had the SVG and a summary only; the history page had the tables.
    func test_build_periodGraphsHaveTheirTable() throws {
        let dir = try CLI.temporaryDirectory()
        XCTAssertEqual(try buildDemo(into: dir + "/s", env: ["TZ": "UTC"]).status, 0)
        for (path, title) in [("months/2026-11", "November 2026"), ("quarters/2026-Q4", "Q4 2026"), ("years/2026", "2026")] {
            let page = try String(contentsOfFile: dir + "/s/\(path)/index.html", encoding: .utf8)
            XCTAssertTrue(page.contains("<details><summary>\(title) as a table</summary>"), "\(path): \(page.prefix(400))")
            XCTAssertTrue(page.contains("<table class=\"contribution-table\">"), path)
        }
    }

    func test_build_noChangeRebuildRewritesNothing() throws {
        let dir = try CLI.temporaryDirectory()
        XCTAssertEqual(try buildDemo(into: dir + "/s", env: ["TZ": "UTC"]).status, 0)
        let index = dir + "/s/index.html"
        let before = try FileManager.default.attributesOfItem(atPath: index)
        let again = try buildDemo(into: dir + "/s", env: ["TZ": "UTC"])
        XCTAssertTrue(again.out.contains(" 0 written"), again.out)
        XCTAssertTrue(again.out.contains("0 removed"), again.out)
        let after = try FileManager.default.attributesOfItem(atPath: index)
        XCTAssertEqual(before[.modificationDate] as? Date, after[.modificationDate] as? Date)
        XCTAssertEqual(before[.systemFileNumber] as? Int, after[.systemFileNumber] as? Int)
    }

    /// With the real clock, a second build a moment after the first finds nothing to do: the
    /// change check holds what the pages show of the clock (the local date), not the instant. A
    /// build at another local date builds again.
    func test_build_secondBuildOnTheRealClockWritesNothing() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"]).status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "Let Tom finish."]).status, 0)
        let out = cli.workdir + "/site"
        func day() -> String { String(ISO8601DateFormatter().string(from: Date()).prefix(10)) }
        let before = day()
        var r = try cli.run(["build", "--out", out])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains(": 0 written"), r.out)
        r = try cli.run(["build", "--out", out, "--stats"])
        XCTAssertEqual(r.status, 0, r.err)
        if day() == before {  // not across midnight
            XCTAssertTrue(r.out.contains(": 0 written, "), r.out)
            XCTAssertFalse(r.err.contains("render pages"), "the change check answered: \(r.err)")
        }
        // A write to the store (a crash logged) is seen, the same day.
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right", "--note", "Corrected a waiter."]).status, 0)
        r = try cli.run(["build", "--out", out])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains(": 0 written"), r.out)
        // Pinned to the next day (at the same store), the pages change, and so does the answer.
        let tomorrow = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
        r = try cli.run(["build", "--out", out], at: tomorrow)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains(": 0 written"), r.out)
    }

    /// The quick "nothing changed" answer reads no folder; a file added deep in the site, or a page
    /// edited by hand, must still be noticed and put right by the next build.
    func test_build_noChangeRebuildStillNoticesAStrayFileAndAnEditedPage() throws {
        let dir = try CLI.temporaryDirectory()
        XCTAssertEqual(try buildDemo(into: dir + "/s", env: ["TZ": "UTC"]).status, 0)
        let stray = dir + "/s/weeks/2026-W47/notes.txt"
        try Data("left here by hand".utf8).write(to: URL(fileURLWithPath: stray))
        var r = try buildDemo(into: dir + "/s", env: ["TZ": "UTC"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("1 removed"), r.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stray))

        let page = dir + "/s/changelog/index.html"
        let original = try Data(contentsOf: URL(fileURLWithPath: page))
        try Data("edited".utf8).write(to: URL(fileURLWithPath: page))
        r = try buildDemo(into: dir + "/s", env: ["TZ": "UTC"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains(": 1 written"), r.out)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: page)), original)

        r = try buildDemo(into: dir + "/s", env: ["TZ": "UTC"])
        XCTAssertTrue(r.out.contains(": 0 written"), r.out)
        XCTAssertTrue(r.out.contains("0 removed"), r.out)
    }

    /// Every spelling of the same request gets the same answer (nothing to do); a different
    /// request builds; a bad one fails as it always did.
    func test_build_spellingsOfOneRequestGiveTheSameAnswer() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir + "/s"
        XCTAssertEqual(try buildDemo(into: out, env: ["TZ": "UTC"]).status, 0)
        let spellings: [[String]] = [
            ["build", "--demo", "--out", out, "--stats"],
            ["build", "--stats", "--out=\(out)", "--demo"],
            ["build", "--demo", "--seed", "7", "--years=1", "--out", out, "--stats"],
            ["build", "--demo", "--seed", "7", "--seed", "7", "--out", out, "--stats"],
        ]
        for arguments in spellings {
            let r = try buildDemo(into: out, env: ["TZ": "UTC"], arguments: arguments)
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertTrue(r.out.contains(": 0 written, "), "\(arguments): \(r.out)")
            XCTAssertTrue(r.err.contains("check for changes: "), "\(arguments): \(r.err)")
        }
        var r = try buildDemo(into: out, env: ["TZ": "UTC"], arguments: ["build", "--demo", "--seed", "8", "--out", out, "--stats"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains(": 0 written, "), r.out)
        XCTAssertTrue(r.err.contains("render pages: "), r.err)
        for extra in [[String](), ["--seed", "7", "--seed", "7"]] {
            r = try buildDemo(into: out, env: ["TZ": "UTC"], arguments: ["build", "--demo", "--out", out, "--base-url", "ftp://example.org"] + extra)
            XCTAssertEqual(r.status, 64, "the command line itself")
            XCTAssertEqual(r.err, "egofix: --base-url must start with https:// or http://.\n")
            r = try buildDemo(into: out, env: ["TZ": "UTC"], arguments: ["build", "--demo", "--out", out, "--years=-2"] + extra)
            XCTAssertEqual(r.status, 64)
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            XCTAssertTrue(r.err.contains("--years"), r.err)
        }
        r = try buildDemo(into: out, env: ["TZ": "UTC"], arguments: ["build", "--demo", "--out", out, "--years", "x"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("--years"), r.err)
        r = try buildDemo(into: out, env: ["TZ": "UTC"], arguments: ["build", "--help"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.out.contains("USAGE: egofix build"), r.out)
        XCTAssertTrue(try tree(out).keys.contains("index.html"), "nothing lost by the failed builds")
    }

    /// The quick "nothing changed" answer covers the workspace as the build reads it: a page added
    /// to the content folder, then a template override added, each makes the next build at the
    /// same instant build again, and shows in the site.
    func test_build_noChangeAnswerNoticesContentAndTemplateEdits() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let at = "2026-03-02T09:00:00+01:00"
        XCTAssertEqual(try cli.run(["build"], at: at).status, 0)
        XCTAssertTrue(try cli.run(["build"], at: at).out.contains(": 0 written, "))

        try FileManager.default.createDirectory(atPath: cli.workdir + "/content/pages", withIntermediateDirectories: true)
        try Data("# Notes\n\nWritten in the content folder.\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/content/pages/notes.md"))
        var r = try cli.run(["build"], at: at)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains(": 0 written, "), r.out)
        let notes = try String(contentsOfFile: cli.workdir + "/site/pages/notes/index.html", encoding: .utf8)
        XCTAssertTrue(notes.contains("Written in the content folder."), notes)
        XCTAssertTrue(try cli.run(["build"], at: at).out.contains(": 0 written, "))

        try FileManager.default.createDirectory(atPath: cli.workdir + "/Templates", withIntermediateDirectories: true)
        try Data("{{> partials/top}}<p>Written in Templates.</p>{{> partials/bottom}}".utf8)
            .write(to: URL(fileURLWithPath: cli.workdir + "/Templates/how.mustache"))
        r = try cli.run(["build"], at: at)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains(": 0 written, "), r.out)
        let how = try String(contentsOfFile: cli.workdir + "/site/how/index.html", encoding: .utf8)
        XCTAssertTrue(how.contains("Written in Templates."), how)
    }

    /// egofix.toml's time zone is still checked when the rest says nothing changed: one edited
    /// into a name ICU does not know fails the build in one line and leaves the site, for the
    /// demo (which does not use it) as for the store.
    func test_build_unknownTimeZoneInTheConfigFailsAfterAGoodBuild() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let at = "2026-03-02T09:00:00+01:00"
        let config = URL(fileURLWithPath: cli.workdir + "/egofix.toml")
        for build in [["build", "--demo"], ["build", "--now", at]] {
            try Data("time_zone = \"Europe/Berlin\"\n".utf8).write(to: config)
            XCTAssertEqual(try cli.run(build).status, 0)
            XCTAssertTrue(try cli.run(build).out.contains(": 0 written, "))
            try Data("time_zone = \"Mars/Olympus\"\n".utf8).write(to: config)
            let r = try cli.run(build)
            XCTAssertEqual(r.status, 1, "\(build)")
            XCTAssertEqual(r.err, "egofix: \(cli.workdir)/egofix.toml:1: unknown time zone 'Mars/Olympus'; use an IANA name such as Europe/Berlin.\n")
            XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/site/index.html"))
        }
    }

    func test_build_strictTemplateOverrideNamesTemplateAndKey() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Templates", withIntermediateDirectories: true)
        try Data("{{> partials/top}}<p>{{noSuchKey}}</p>{{> partials/bottom}}".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/Templates/how.mustache"))
        let r = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertTrue(r.err.contains("how.mustache"), r.err)
        XCTAssertTrue(r.err.contains("noSuchKey"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/site/index.html"), "a failed build writes nothing")
    }

    /// An output folder that cannot hold a site is the user's choice to change, said in one line,
    /// not an internal error.
    func test_build_outputThatCannotHoldASiteSaysWhy() throws {
        let cli = try CLI()
        var r = try cli.run(["build", "--demo", "--years", "1", "--out", "/"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertTrue(r.err.contains("cannot build into this folder") && !r.err.contains("bug"), r.err)
        let file = cli.workdir + "/afile"
        _ = FileManager.default.createFile(atPath: file, contents: Data("notes".utf8))
        r = try cli.run(["build", "--demo", "--years", "1", "--out", file + "/sub/site"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertTrue(r.err.contains("\(file) is a file, not a folder"), r.err)
        XCTAssertEqual(FileManager.default.contents(atPath: file), Data("notes".utf8))
    }

    func test_build_noteForAWeekThatDoesNotExistIsRefusedNamingTheFile() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        try FileManager.default.createDirectory(atPath: cli.workdir + "/content/weeks", withIntermediateDirectories: true)
        for (name, weeks) in [("2026-W99", 53), ("2026-W00", 53), ("2027-W53", 52)] {
            let path = cli.workdir + "/content/weeks/\(name).md"
            try Data("A note.\n".utf8).write(to: URL(fileURLWithPath: path))
            let r = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
            XCTAssertEqual(r.status, 1, name)
            XCTAssertEqual(r.err, "egofix: content/weeks/\(name).md: \(name.prefix(4)) has no such week; its weeks run from "
                           + "\(name.prefix(4))-W01 to \(name.prefix(4))-W\(weeks), so rename the file to one of those.\n")
            try FileManager.default.removeItem(atPath: path)
        }
        try Data("A note.\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/content/weeks/2026-W53.md"))
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-02T09:00:00+01:00").status, 0, "2026 has 53 weeks")
    }

    /// A `templates/` folder (or `Asset/`, `SEEDS/`) is not read on a file system that tells
    /// cases apart: said on every build, the no-change ones too, and made after a build it is a
    /// change (its files changed nothing, without a word, and the next build stopped at the check).
    func test_build_aFolderNamedOtherwiseThanTheOneABuildReadsIsSaid() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let at = "2026-03-02T09:00:00+01:00"
        XCTAssertEqual(try cli.run(["build"], at: at).err, "")
        try FileManager.default.createDirectory(atPath: cli.workdir + "/templates", withIntermediateDirectories: true)
        try Data("<p>mine</p>\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/templates/week.mustache"))
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Asset", withIntermediateDirectories: true)
        let expected = "egofix: warning: Asset/ is not read: the folder a build reads is Assets/, spelled so. Rename it to use its files.\n"
            + "egofix: warning: templates/ is not read: the folder a build reads is Templates/, spelled so. Rename it to use its files.\n"
        for _ in 0..<2 {
            let r = try cli.run(["build"], at: at)
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertEqual(r.err, expected)
        }
        try FileManager.default.moveItem(atPath: cli.workdir + "/templates", toPath: cli.workdir + "/Templates")
        try FileManager.default.removeItem(atPath: cli.workdir + "/Asset")
        let r = try cli.run(["build"], at: at)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("with the overrides in Templates/, the pages made from week") && !r.err.contains("is not read"), r.err)
    }

    /// A note written ahead of time (next week, the next version) is not on the site yet: the
    /// build says so on standard error on every build, the no-change ones too, and still succeeds;
    /// the no-change ones stay no-change builds.
    func test_build_noteForAWeekOrVersionWithoutAPageIsReportedNotDropped() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let at = "2026-03-02T09:00:00+01:00"
        XCTAssertEqual(try cli.run(["build"], at: at).err, "")
        for (folder, name) in [("weeks", "2026-W11"), ("versions", "9.9")] {
            try FileManager.default.createDirectory(atPath: cli.workdir + "/content/\(folder)", withIntermediateDirectories: true)
            try Data("Written ahead.\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/content/\(folder)/\(name).md"))
        }
        let expected = "egofix: warning: content/weeks/2026-W11.md is not on the site: there are week pages from 2026-W10 to 2026-W10 only. "
            + "The note joins the site once 2026-W11 is one of them.\n"
            + "egofix: warning: content/versions/9.9.md is not on the site: the changelog has no v9.9 (the latest is v1.0). "
            + "The note joins it once v9.9 is reached.\n"
        for round in 0..<3 {
            let r = try cli.run(["build", "--stats"], at: at)
            XCTAssertEqual(r.status, 0, r.err)
            // (--stats writes its steps on standard error too.)
            XCTAssertEqual(r.err.split(separator: "\n").filter { $0.hasPrefix("egofix:") }.map { $0 + "\n" }.joined(), expected)
            // After the first, a rebuild with nothing changed stops at the change check and says
            // the notes again from the manifest (every one of them used to do all the work).
            XCTAssertEqual(r.err.contains("render pages:"), round == 0, r.err)
        }
        // Once its week has a page, the note is on it and nothing is said.
        try FileManager.default.removeItem(atPath: cli.workdir + "/content/versions/9.9.md")
        let later = try cli.run(["build"], at: "2026-03-09T09:00:00+01:00")
        XCTAssertEqual(later.err, "")
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W11/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("Written ahead."))
    }

    /// The share folder's stylesheet overridden where it is published (Assets/share/share.css) or
    /// by its built-in name (Assets/share.css): either builds (the first failed, "produced twice").
    func test_build_shareStylesheetOverriddenEitherWay() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Assets/share", withIntermediateDirectories: true)
        for (path, css) in [("Assets/share/share.css", "body { color: teal; }\n"), ("Assets/share.css", "body { color: olive; }\n")] {
            try? FileManager.default.removeItem(atPath: cli.workdir + "/Assets/share/share.css")
            try Data(css.utf8).write(to: URL(fileURLWithPath: cli.workdir + "/" + path))
            let r = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
            XCTAssertEqual(r.status, 0, "\(path): \(r.err)")
            XCTAssertEqual(try String(contentsOfFile: cli.workdir + "/site/share/share.css", encoding: .utf8), css, path)
        }
        // Both at once: one would change nothing, so the build refuses, naming both.
        try Data("body { color: teal; }\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/Assets/share/share.css"))
        let both = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertNotEqual(both.status, 0)
        XCTAssertTrue(both.err.contains("Assets/share.css") && both.err.contains("Assets/share/share.css") && both.err.contains("Keep one of the two"), both.err)
        XCTAssertEqual(try String(contentsOfFile: cli.workdir + "/site/share/share.css", encoding: .utf8), "body { color: olive; }\n", "the site as it was")
    }

    /// Files in the content folders that are not NAME.md (another extension, a capital MD, a
    /// subfolder) are said not to be read, on every build (they were dropped without a word); a
    /// note for a week before the practice says so rather than that it will join the site.
    func test_build_contentFilesNotReadAreSaid() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        for folder in ["weeks", "versions", "pages/trips"] {
            try FileManager.default.createDirectory(atPath: cli.workdir + "/content/\(folder)", withIntermediateDirectories: true)
        }
        for file in ["weeks/2026-W10.markdown", "versions/1.1.MD", "pages/trips/lisbon.md", "weeks/2024-W10.md", "weeks/.hidden"] {
            try Data("A note.\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/content/" + file))
        }
        let r = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        for line in ["content/pages/trips is not read: content/pages reads the NAME.md files directly in it, such as about.md: lowercase letters, digits and '-'.",
                     "content/versions/1.1.MD is not read", "content/weeks/2026-W10.markdown is not read",
                     "content/weeks/2024-W10.md is not on the site: there are week pages from 2026-W10 to 2026-W10 only. 2024-W10 is before the practice began."] {
            XCTAssertTrue(r.err.contains("egofix: warning: " + line), "\(line)\n\(r.err)")
        }
        XCTAssertFalse(r.err.contains(".hidden"), r.err)
    }

    /// The dashboard's "Pending" and `egofix status` answer the same: a daily fix left unmarked
    /// on an earlier day is not pending two days later, today's unmarked one is.
    func test_dashboard_pendingFixIsTheOneStatusShows() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-12-01T09:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["skipped"], at: "2026-12-01T19:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2026-12-02T09:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["skipped"], at: "2026-12-02T19:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2026-12-06T09:00:00Z").status, 0)
        func dashboardPending(at now: String) throws -> String? {
            XCTAssertEqual(try cli.run(["build"], at: now).status, 0)
            let html = try String(contentsOfFile: cli.workdir + "/site/index.html", encoding: .utf8)
            guard let h = html.range(of: "<h2>Pending</h2>") else { return nil }
            let after = html[h.upperBound...]
            guard let label = after.range(of: "<span class=\"label\">"), label.lowerBound < (after.range(of: "<h2>")?.lowerBound ?? after.endIndex),
                  let end = after.range(of: "</span>", range: label.upperBound..<after.endIndex) else { return nil }
            return String(after[label.upperBound..<end.lowerBound])
        }
        let sameDay = try cli.run(["status"], at: "2026-12-06T19:00:00Z").out
        let label = try XCTUnwrap(try dashboardPending(at: "2026-12-06T19:00:00Z"))
        XCTAssertTrue(sameDay.contains("PENDING  " + label), sameDay)
        // Two days on, the 2026-12-06 fix is over: status names none of the fixes given, only
        // today's, which `today` (or an outcome) gives and the dashboard shows from then.
        let later = try cli.run(["status"], at: "2026-12-08T09:00:00Z").out
        XCTAssertFalse(later.contains("PENDING  " + label), later)
        XCTAssertTrue(later.contains("// Today's, not opened yet"), later)
        XCTAssertNil(try dashboardPending(at: "2026-12-08T09:00:00Z"), "the 2026-12-06 fix is over, as status says")
        let html = try String(contentsOfFile: cli.workdir + "/site/index.html", encoding: .utf8)
        XCTAssertTrue(html.contains("No pending fix."))
    }

    func test_build_withoutAStoreSaysWhatToDo() throws {
        let cli = try CLI()
        let r = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("egofix init"), r.err)
    }

    func test_demo_fillsAnEmptyStoreOnly_andPatternsFindAllSevenTypes() throws {
        let cli = try CLI()
        var r = try cli.run(["demo"])
        XCTAssertEqual(r.status, 0, r.err)
        r = try cli.run(["demo"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("already holds a practice"), r.err)
        let json = try cli.json(["patterns"], at: "2026-11-22T20:00:00+01:00")
        let types = Set(((json["patterns"] as? [[String: Any]]) ?? []).compactMap { $0["type"] as? String })
        XCTAssertEqual(types, ["avoidance", "temporalCrash", "contextualSpike", "correlatedBugs", "plateau", "regression", "improvement"])
        // The terminal names them as the pages do; the raw type is what --dismiss takes.
        let listed = try cli.run(["patterns"], at: "2026-11-22T20:00:00+01:00").out
        XCTAssertTrue(listed.contains("  crash timing") && listed.contains("  correlated bugs"), listed)
        XCTAssertFalse(listed.contains("temporalCrash") || listed.contains("correlatedBugs"), listed)
        let dismissed = try cli.run(["patterns", "--dismiss", "temporalCrash"], at: "2026-11-22T20:00:00+01:00")
        XCTAssertTrue(dismissed.out.replacingOccurrences(of: "\n", with: " ").contains("No crash timing pattern (by weekday or by time of day) will be surfaced again"), dismissed.out + dismissed.err)
        // Dismissed again: said, with nothing recorded again (it said "Noted." and added an event).
        let twice = try cli.run(["patterns", "--dismiss", "crash timing"], at: "2026-11-22T20:05:00+01:00")
        XCTAssertEqual(twice.status, 0, twice.err)
        XCTAssertEqual(twice.out.replacingOccurrences(of: "\n", with: " "), "No crash timing pattern is surfaced: dismissed on 2026-11-22. Nothing was changed. ")
        // With --json, JSON (it printed the sentence).
        let asJSON = try cli.json(["patterns", "--dismiss", "temporalCrash"], at: "2026-11-22T20:06:00+01:00")
        XCTAssertEqual(asJSON["type"] as? String, "temporalCrash")
        XCTAssertEqual(asJSON["changed"] as? Bool, false)
        let exported = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
        let dismissals = ((exported["events"] as? [[String: Any]]) ?? []).filter { $0["eventType"] as? String == "patternDismissed" }
        XCTAssertEqual(Set(dismissals.compactMap { $0["timestamp"] as? String }).count, 1, "\(dismissals)")
        let history = try cli.json(["history", "--days", "56"], at: "2026-11-22T20:00:00+01:00")
        XCTAssertEqual((history["days"] as? [Any])?.count, 56)
        // Listed last and marked, in the terminal, the JSON and on the patterns page: a fresh
        // finding of the dismissed type came first, unmarked.
        let after = try XCTUnwrap(try cli.json(["patterns"], at: "2026-11-22T20:00:00+01:00")["patterns"] as? [[String: Any]])
        let flags = after.map { ($0["type"] as? String ?? "", $0["dismissed"] as? Bool ?? false) }
        XCTAssertEqual(flags.filter(\.1).map(\.0).first, "temporalCrash", "\(flags)")
        XCTAssertEqual(flags.map(\.1), flags.map(\.1).sorted { !$0 && $1 }, "dismissed ones last: \(flags)")
        XCTAssertTrue(flags.allSatisfy { $0.1 == ($0.0 == "temporalCrash") }, "\(flags)")
        let site = try cli.run(["build"], at: "2026-11-22T20:00:00+01:00")
        XCTAssertEqual(site.status, 0, site.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/site/weeks/2026-W47/index.html"))
        let page = try String(contentsOfFile: cli.workdir + "/site/patterns/index.html", encoding: .utf8)
        let articles = page.components(separatedBy: "<article class=\"pattern\">").dropFirst()
        XCTAssertEqual(articles.map { $0.contains("· dismissed") }, flags.map(\.1), page)
    }

    /// `patterns --json` gives p as `pValue`, the name the export gives it, and as the terminal
    /// says it; left out where the terminal and the site say none was computed. It was
    /// `confidence`, a number that falls as the detectors grow surer (0.001 for the surest).
    func test_patterns_jsonNamesPForWhatItIs() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let at = "2026-11-22T20:00:00+01:00"
        let patterns = try XCTUnwrap(try cli.json(["patterns"], at: at)["patterns"] as? [[String: Any]])
        XCTAssertFalse(patterns.contains { $0["confidence"] != nil }, "\(patterns)")
        // A basis too long for its line goes on over more lines of "// ": read as one.
        let listed = try cli.run(["patterns"], at: at).out.split(separator: "\n").reduce(into: [String]()) { lines, line in
            if line.hasPrefix("// "), let last = lines.last, last.contains("// ") { lines[lines.count - 1] += " " + line.dropFirst(3) } else { lines.append(String(line)) }
        }
        for pattern in patterns {
            let basis = try XCTUnwrap(pattern["basis"] as? String)
            // After the type, or on a line of its own when the two do not fit in 80 columns.
            let line = try XCTUnwrap(listed.first { $0.contains("// " + basis) }, "\(listed)")
            if let p = pattern["pValue"] as? Double {
                XCTAssertTrue(line.hasSuffix(p < 0.001 ? ", p < 0.001" : String(format: ", p = %.3f", p)), "\(line): \(p)")
            } else {
                XCTAssertTrue(line.hasSuffix("// " + basis), "no p was computed: \(line)")
            }
        }
        XCTAssertTrue(patterns.contains { $0["pValue"] is Double }, "\(patterns)")
        XCTAssertNil(try XCTUnwrap(patterns.first { $0["type"] as? String == "regression" })["pValue"], "\(patterns)")
    }

    /// A week page's pattern is the one detected that week, with its figures as they were then:
    /// it says the day (the current week's read "46 of your last 53" beside the dashboard's "45
    /// of your last 55", in one build). The dashboard's, from the detectors at the build, has none.
    func test_build_aWeeksPatternSaysTheDayItWasDetected() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        XCTAssertEqual(try cli.run(["demo", "--years", "2"], at: "2026-11-22T19:00:00Z").status, 0)
        // `today` surfaces a pattern and stores it as detected that day.
        XCTAssertEqual(try cli.run(["today"], at: "2026-11-23T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["build"], at: "2026-11-24T09:00:00+01:00").status, 0)
        let site = cli.workdir + "/site/"
        let week = try String(contentsOfFile: site + "weeks/2026-W48/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("<article class=\"pattern\">") && week.contains(" · as detected 2026-11-23</span>"), week)
        let dashboard = try String(contentsOfFile: site + "index.html", encoding: .utf8)
        XCTAssertTrue(dashboard.contains("<article class=\"pattern\">") && !dashboard.contains("as detected"), dashboard)
    }

    /// A crash and a reboot made in Tokyo keep their clock times on a site built there; built in
    /// London or New York they have none. In London they read "12:00" and "13:00", times that were
    /// on no clock where they were made (helper 107); in New York the instants fall on other days.
    func test_build_aRecordMadeAtAnotherHourElsewhereHasNoTimeOfDay() throws {
        let cli = try CLI(zone: "Asia/Tokyo")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-05-04T09:00:00+09:00").status, 0)
        XCTAssertEqual(try cli.run(["crash", "-m", "Evening."], at: "2026-05-05T20:00:00+09:00").status, 0)
        XCTAssertEqual(try cli.run(["reboot"], at: "2026-05-05T21:00:00+09:00").status, 0)
        XCTAssertEqual(try cli.run(["crash", "-m", "Morning."], at: "2026-05-06T08:00:00+09:00").status, 0)
        func week(_ zone: String) throws -> String {
            let out = cli.workdir + "/site-" + zone.replacingOccurrences(of: "/", with: "-")
            let r = try cli.run(["build", "--out", out], at: "2026-05-06T12:00:00Z", env: ["TZ": zone])
            XCTAssertEqual(r.status, 0, r.err)
            return try String(contentsOfFile: out + "/weeks/2026-W19/index.html", encoding: .utf8)
        }
        let crash = "<span class=\"bug-name\">Need to be right</span></span> <span class=\"muted\">"
        let tokyo = try week("Asia/Tokyo")
        for said in [crash + "20:00 · rebooted 2026-05-05</span>", "reboot</span> <span class=\"muted\">21:00</span>", crash + "08:00</span>"] {
            XCTAssertTrue(tokyo.contains(said), said)
        }
        for zone in ["Europe/London", "America/New_York"] {
            let page = try week(zone)
            for said in [crash + " · rebooted 2026-05-05</span>", "reboot</span> <span class=\"muted\"></span>", crash + "</span>"] {
                XCTAssertTrue(page.contains(said), "\(zone): \(said)")
            }
            XCTAssertFalse(page.contains("12:00") || page.contains("13:00"), zone)
        }
    }

    /// A pattern type dismissed with `patterns --dismiss` leaves the dashboard and this week's
    /// report too, not only the terminal; the patterns page still lists it.
    func test_build_aDismissedPatternTypeLeavesTheDashboard() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let at = "2026-11-22T20:00:00+01:00"
        func pages() throws -> (dashboard: String, week: String, patterns: String) {
            XCTAssertEqual(try cli.run(["build"], at: at).status, 0)
            let read = { (p: String) in try String(contentsOfFile: cli.workdir + "/site/" + p, encoding: .utf8) }
            return (try read("index.html"), try read("weeks/2026-W47/index.html"), try read("patterns/index.html"))
        }
        let before = try pages()
        XCTAssertTrue(before.dashboard.contains("rise and fall together."), before.dashboard)
        XCTAssertEqual(try cli.run(["patterns", "--dismiss", "Correlated bugs"], at: at).status, 0)
        let after = try pages()
        XCTAssertFalse(after.dashboard.contains("rise and fall together."), after.dashboard)
        XCTAssertFalse(after.week.contains("rise and fall together."), after.week)
        XCTAssertTrue(after.dashboard.contains("class=\"pattern\""), "the next pattern takes its place")
        XCTAssertTrue(after.patterns.contains("rise and fall together."))
    }
}

/// Issue 31 (lifetime): the pages' links at the edges of months and weeks, in lives the demo does
/// not walk.
final class SiteLinkTests: XCTestCase {
    /// Every relative link and asset of every page in `root` that names no file there.
    func brokenLinks(_ root: String) throws -> [String] {
        var broken: [String] = []
        let fm = FileManager.default
        let pattern = try NSRegularExpression(pattern: "(?:href|src)=\"([^\"]*)\"")
        for rel in (fm.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted() where rel.hasSuffix(".html") {
            let html = try String(contentsOfFile: root + "/" + rel, encoding: .utf8)
            let folder = URL(fileURLWithPath: root + "/" + rel).deletingLastPathComponent()
            for m in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                guard let r = Range(m.range(at: 1), in: html) else { continue }
                // A page's own links: no scheme (https:, data:, mailto:), not from the root (404.html).
                let target = String(html[r].prefix { $0 != "#" && $0 != "?" })
                if target.hasPrefix("/") || target.isEmpty || html[r].contains(":") { continue }
                if !fm.fileExists(atPath: URL(fileURLWithPath: target, relativeTo: folder).standardizedFileURL.path) {
                    broken.append("\(rel) -> \(target)")
                }
            }
        }
        return broken
    }

    /// A practice begun on Sunday March 1 (its week, Feb 23 to Mar 1, is February's) and built on
    /// Tuesday March 31 (this week, Mar 30 to Apr 5, is April's): the week pages' months have pages.
    func test_Site_aWeekAcrossTwoMonthsHasItsMonthsPage() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-01T08:00:00Z", env: ["TZ": "UTC"]).status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "first"], at: "2026-03-01T20:00:00Z", env: ["TZ": "UTC"]).status, 0)
        let built = try cli.run(["build"], at: "2026-03-31T10:00:00Z", env: ["TZ": "UTC"])
        XCTAssertEqual(built.status, 0, built.err)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try brokenLinks(site), [])
        for month in ["2026-02", "2026-03", "2026-04"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/months/\(month)/index.html"), month)
        }
    }

    /// A practice begun on Monday December 29: its first days are in December, its week in
    /// January. December's page lists that week, where its days are.
    func test_Site_aMonthListsEveryWeekWithDaysInIt() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2025-12-29T08:00:00Z", env: ["TZ": "UTC"]).status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "Is December over?"], at: "2025-12-29T19:00:00Z", env: ["TZ": "UTC"]).status, 0)
        let built = try cli.run(["build"], at: "2026-01-03T10:00:00Z", env: ["TZ": "UTC"])
        XCTAssertEqual(built.status, 0, built.err)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try brokenLinks(site), [])
        // The "Inside" list, not the navigation's "this week".
        func inside(_ month: String) throws -> String {
            let page = try String(contentsOfFile: site + "/months/\(month)/index.html", encoding: .utf8)
            return String(page.components(separatedBy: "<h2>Inside</h2>").last?.split(separator: "</ul>").first ?? "")
        }
        let (december, january) = (try inside("2025-12"), try inside("2026-01"))
        XCTAssertTrue(december.contains("weeks/2026-W01/index.html\">Week 2026-W01"), "December lists no week: \(december)")
        XCTAssertTrue(january.contains("weeks/2026-W01/index.html\">Week 2026-W01"), january)
    }

    /// Begun in Tokyo just after midnight, built the same moment in Los Angeles, where it is
    /// still the day before: this week (the day before the first record's) has a page, and the
    /// "this week" link of every page goes to it.
    func test_Site_thisWeekHasAPageWhenTheClockIsBehindTheFirstRecord() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T00:30:00+09:00", env: ["TZ": "Asia/Tokyo"]).status, 0)
        let built = try cli.run(["build"], at: "2026-03-01T16:00:00Z", env: ["TZ": "America/Los_Angeles"])
        XCTAssertEqual(built.status, 0, built.err)
        let site = cli.workdir + "/site"
        XCTAssertEqual(try brokenLinks(site), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: site + "/weeks/2026-W09/index.html"))
        let dashboard = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        XCTAssertTrue(dashboard.contains("href=\"weeks/2026-W09/index.html\">this week"), dashboard)
    }
}

/// Issue 31 (lifetime): what a day with only a weekly diagnostic says on the pages.
final class SiteDiagnosticDayTests: XCTestCase {
    /// Sunday's diagnostic, and nothing else that day: the week page names it (it counts among
    /// the days engaged) and the graph calls the day a diagnostic, not "opened".
    func test_Site_aDiagnosticDayReadsAsTheDiagnostic() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-09T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-09T19:00:00+01:00").status, 0)
        let rated = try cli.run(["diagnostic", "--rate", "need-to-be-right=present@work"], at: "2026-03-15T19:00:00+01:00")
        XCTAssertEqual(rated.status, 0, rated.err)
        let built = try cli.run(["build"], at: "2026-03-16T09:00:00+01:00")
        XCTAssertEqual(built.status, 0, built.err)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W11/index.html", encoding: .utf8)
        let sunday = try XCTUnwrap(week.components(separatedBy: "Sunday 2026-03-15").dropFirst().first)
        XCTAssertTrue(sunday.prefix(300).contains("The weekly diagnostic. Nothing else recorded."), String(sunday.prefix(300)))
        // The practice's first week: no trend of weeks before it began.
        XCTAssertFalse(week.contains("&gt; present"), "a trend of weeks before the practice")
        XCTAssertTrue(week.contains("<td>present</td></tr>"), week)
        // A week later, the trend's arrows follow a no-break space, so no line of it starts with one.
        XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-03-22T19:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-23T09:00:00+01:00").status, 0)
        let next = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W12/index.html", encoding: .utf8)
        XCTAssertTrue(next.contains("<td>present\u{00A0}&gt; quiet</td>"), next)
        let history = try String(contentsOfFile: cli.workdir + "/site/history/index.html", encoding: .utf8)
        XCTAssertTrue(history.contains("2026-03-15: 1 diagnostic"), "the graph's day")
        XCTAssertFalse(history.contains("2026-03-15: opened"))
        let listed = try cli.run(["history"], at: "2026-03-16T09:00:00+01:00")
        XCTAssertTrue(listed.out.contains("2026-03-15  weekly diagnostic"), listed.out)
    }
}

/// Issue 31 (lifetime): the pages of weeks in a gap.
final class SiteQuietWeekTests: XCTestCase {
    /// A week in a months-long gap, and this week before its first fix: no "Why" tidbit that
    /// speaks of "today" (the rest days' "No fix today.") on either.
    func test_Site_aWeekWithoutFixesSaysNothingAboutToday() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-busy"], at: "2026-01-05T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "day one"], at: "2026-01-05T19:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "back"], at: "2026-03-02T19:00:00Z").status, 0)
        let built = try cli.run(["build"], at: "2026-03-09T07:00:00Z")
        XCTAssertEqual(built.status, 0, built.err)
        for week in ["2026-W02", "2026-W03", "2026-W06", "2026-W09", "2026-W11"] {
            let page = try String(contentsOfFile: cli.workdir + "/site/weeks/\(week)/index.html", encoding: .utf8)
            XCTAssertFalse(page.contains("<h2>Why</h2>"), "\(week): \(page.components(separatedBy: "<h2>Why</h2>").last?.prefix(200) ?? "")")
        }
    }
}

/// Issue 31 (lifetime): a week page without a diagnostic, while it can still be done.
final class SiteOpenDiagnosticTests: XCTestCase {
    /// Sunday 20:00, the diagnostic open and not done: the week does not call it skipped; Monday,
    /// the last week's is still open; Tuesday, it was skipped.
    func test_Site_anOpenDiagnosticIsNotCalledSkipped() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-09T08:00:00Z").status, 0)
        func said(_ week: String, at now: String) throws -> String {
            let built = try cli.run(["build"], at: now)
            XCTAssertEqual(built.status, 0, built.err)
            let page = try String(contentsOfFile: cli.workdir + "/site/weeks/\(week)/index.html", encoding: .utf8)
            return page.components(separatedBy: "<h2>Diagnostic</h2>").dropFirst().first.map { String($0.prefix(200)) } ?? page
        }
        XCTAssertTrue(try said("2026-W11", at: "2026-03-12T10:00:00Z").contains("It opens Sunday at 18:00"))
        // The same Sunday before and after 18:00: the rebuild's change check holds the window too.
        XCTAssertTrue(try said("2026-W11", at: "2026-03-15T10:00:00Z").contains("It opens Sunday at 18:00"))
        XCTAssertTrue(try said("2026-W11", at: "2026-03-15T20:00:00Z").contains("Open now, through Monday"))
        XCTAssertTrue(try said("2026-W11", at: "2026-03-16T10:00:00Z").contains("Open now, through Monday"))
        XCTAssertTrue(try said("2026-W11", at: "2026-03-17T10:00:00Z").contains("No diagnostic this week. Skipping costs nothing."))
    }
}

/// Issue 31 (site): the user's headings sit under the page's own.
final class SiteHeadingTests: XCTestCase {
    /// A reflection's "#" on a week page is an h4, under the day's h3, not a sibling of the days.
    func test_Site_aReflectionsHeadingIsUnderItsDay() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "# What happened\n\nThe meeting."], at: "2026-03-02T19:00:00+01:00").status, 0)
        let built = try cli.run(["build"], at: "2026-03-02T20:00:00+01:00")
        XCTAssertEqual(built.status, 0, built.err)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("<h3>Monday 2026-03-02</h3>"), week)
        XCTAssertTrue(week.contains("<h4>What happened</h4>"), week)
    }
}

/// Issue 31 (content): free pages a writer gets wrong.
final class SiteContentWarningTests: XCTestCase {
    /// An empty page is not published (it was its title alone, in every page's navigation); a
    /// page that starts with front matter is published with a warning that the block is not read.
    func test_Site_anEmptyPageIsLeftOutAndFrontMatterIsWarnedAbout() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let pages = cli.workdir + "/content/pages"
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        try Data(" \n".utf8).write(to: URL(fileURLWithPath: pages + "/empty.md"))
        try Data("---\ntitle: Front\n---\n# About\n\nText.\n".utf8).write(to: URL(fileURLWithPath: pages + "/about.md"))
        let built = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(built.status, 0, built.err)
        XCTAssertTrue(built.err.contains("content/pages/empty.md is empty"), built.err)
        XCTAssertTrue(built.err.contains("content/pages/about.md starts with a '---' block: front matter is not read"), built.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/site/pages/empty/index.html"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/site/pages/about/index.html"))
        let dashboard = try String(contentsOfFile: cli.workdir + "/site/index.html", encoding: .utf8)
        XCTAssertFalse(dashboard.contains("pages/empty/"), "the empty page is in the navigation")
    }
}

/// Issue 31 (site): a week under way, compared fairly.
final class SiteWeekSoFarTests: XCTestCase {
    /// The day a week page is built on, with nothing in it yet, is "Nothing yet.": "Nothing
    /// recorded." read as a day missed, beside "Not yet." for the days to come.
    func test_Site_todayWithNothingInItIsNotYetMissed() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        let built = try cli.run(["build"], at: "2026-03-04T07:00:00Z")
        XCTAssertEqual(built.status, 0, built.err)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertEqual(week.components(separatedBy: "Nothing yet.").count - 1, 1, "Wednesday, today")
        XCTAssertEqual(week.components(separatedBy: "Nothing recorded.").count - 1, 1, "Tuesday, missed")
        XCTAssertEqual(week.components(separatedBy: "Not yet.").count - 1, 4, "Thursday to Sunday")
    }

    /// Monday morning: this week's counts are set against the Monday of the week before, not
    /// against all of it; a week that is over is set against the whole week before.
    func test_Site_aWeekUnderWayIsComparedWithTheSameDaysBefore() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-09T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-09T19:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-10T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-10T19:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-16T08:00:00Z").status, 0)
        let built = try cli.run(["build"], at: "2026-03-16T09:00:00Z")
        XCTAssertEqual(built.status, 0, built.err)
        let now = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W12/index.html", encoding: .utf8)
        XCTAssertTrue(now.contains("-1 vs the same days before"), now)
        XCTAssertFalse(now.contains("-2 vs"), now)
        // A count that did not move says so once ("same as the same days before" said "same" twice).
        XCTAssertTrue(now.contains("unchanged vs the same days before"), now)
        XCTAssertFalse(now.contains("same as the same"), now)
        let next = try cli.run(["build"], at: "2026-03-23T09:00:00Z")
        XCTAssertEqual(next.status, 0, next.err)
        let over = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W12/index.html", encoding: .utf8)
        XCTAssertTrue(over.contains("-2 vs before"), over)
    }

    /// A Thursday morning before anything is recorded: the week so far is set against Monday to
    /// Wednesday of the week before (it read "days engaged 3 -1 vs the same days before", the
    /// hours still to come counted as a day missed). A Monday morning with nothing yet has nothing
    /// to compare.
    func test_Site_aWeekUnderWayLeavesOutATodayWithNothingInItYet() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        for day in 3...11 { XCTAssertEqual(try cli.run(["today"], at: String(format: "2026-03-%02dT08:00:00Z", day)).status, 0) }
        func week() throws -> String {
            try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W11/index.html", encoding: .utf8)
                .replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
                .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
        }
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-12T07:00:00Z").status, 0)
        let morning = try week()
        XCTAssertTrue(morning.contains(" days engaged 3 unchanged vs the same days before "), morning)
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-12T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-12T09:00:00Z").status, 0)
        let opened = try week()
        XCTAssertTrue(opened.contains(" days engaged 4 unchanged vs the same days before "), opened)
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-16T07:00:00Z").status, 0)
        let monday = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W12/index.html", encoding: .utf8)
        XCTAssertFalse(monday.contains(" vs "), monday)
        // Fixes given and none marked: the month's table by bug says that, not "Nothing recorded."
        // beside days engaged and a graph of opened days.
        let month = try String(contentsOfFile: cli.workdir + "/site/months/2026-03/index.html", encoding: .utf8)
        XCTAssertTrue(month.contains(">No fix marked, no crash.</td>"), month)
    }

    /// A quarter under way is set against the quarter before up to the same date: on 31 May,
    /// 1 January to 28 February (February is shorter). Counting 61 days took in 1 and 2 March,
    /// so a fix applied on 1 March read "-1 vs the same days before" against April and May. On
    /// its last day the quarter is set against the whole quarter before.
    func test_Site_aPeriodUnderWayIsComparedUpToTheSameDate() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2025-01-01T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["today"], at: "2025-03-01T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2025-03-01T19:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["build"], at: "2025-05-31T20:00:00Z").status, 0)
        func text() throws -> String {
            try String(contentsOfFile: cli.workdir + "/site/quarters/2025-Q2/index.html", encoding: .utf8)
                .replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
                .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
        }
        let may = try text()
        XCTAssertTrue(may.contains(" applied 0 unchanged vs the same days before "), may)
        XCTAssertEqual(try cli.run(["build"], at: "2025-06-30T20:00:00Z").status, 0)
        let june = try text()
        XCTAssertTrue(june.contains(" applied 0 -1 vs before "), june)
    }

    /// The night clocks go back, 02:00 to 03:00 happens twice: a crash at 02:45 before the change
    /// and one at 02:30 after it were listed "02:45", then "02:30", as if out of order. Times in
    /// the repeated hour carry their offset; the others are as they were.
    func test_Site_timesInTheRepeatedHourCarryTheirOffset() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2021-10-30T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right"], at: "2021-10-31T00:45:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right"], at: "2021-10-31T01:30:00Z").status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right"], at: "2021-10-31T09:10:00Z").status, 0)
        XCTAssertEqual(try cli.run(["build"], at: "2021-10-31T10:00:00Z").status, 0)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2021-W43/index.html", encoding: .utf8)
        let first = try XCTUnwrap(week.range(of: "02:45 UTC+2")), second = try XCTUnwrap(week.range(of: "02:30 UTC+1"), week)
        XCTAssertLessThan(first.lowerBound, second.lowerBound)
        XCTAssertTrue(week.contains("10:10 ·") || week.contains("10:10<"), week)
        XCTAssertFalse(week.contains("10:10 UTC"), week)
    }

    /// A period is set only against days of the practice. Early in January, the practice begun on
    /// 14 December, the month page was set against 1 to 4 December ("+2 vs the same days before",
    /// against days with nothing in them), and mid-January against thirteen days before day one
    /// and one after. January, set against a December the practice began partway through, has
    /// nothing to compare; February, set against the whole of January, has.
    func test_Site_aPeriodIsNotComparedWithDaysBeforeThePractice() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2025-12-14T08:00:00Z").status, 0)
        func page(_ path: String) throws -> String { try String(contentsOfFile: cli.workdir + "/site/" + path, encoding: .utf8) }
        for day in ["2026-01-02", "2026-01-15", "2026-02-03"] {
            XCTAssertEqual(try cli.run(["today"], at: day + "T08:00:00Z").status, 0)
            XCTAssertEqual(try cli.run(["applied"], at: day + "T19:00:00Z").status, 0)
            let built = try cli.run(["build"], at: day + "T20:00:00Z")
            XCTAssertEqual(built.status, 0, built.err)
            XCTAssertFalse(try page("months/2026-01/index.html").contains(" vs "), day)
        }
        let february = try page("months/2026-02/index.html")
        XCTAssertTrue(february.contains(" vs the same days before"), february)
        // Week pages alike: the practice began on a Sunday, so the week after it has nothing to
        // compare; the one after that is set against a whole week.
        XCTAssertFalse(try page("weeks/2025-W51/index.html").contains(" before<"))
        XCTAssertTrue(try page("weeks/2025-W52/index.html").contains("same as before<"))
    }

    /// The same when the first week has a diagnostic: day one was read as that week's Monday (the
    /// diagnostic's week), so the week after a practice begun on a Wednesday was set against five
    /// days and two before the practice ("+2 vs before").
    func test_Site_aFirstWeekWithADiagnosticIsNoWholeWeekEither() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-01-14T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=present"], at: "2026-01-18T19:00:00Z").status, 0)
        for day in ["2026-01-19", "2026-01-20"] {
            XCTAssertEqual(try cli.run(["today"], at: day + "T08:00:00Z").status, 0)
            XCTAssertEqual(try cli.run(["applied"], at: day + "T19:00:00Z").status, 0)
        }
        XCTAssertEqual(try cli.run(["build"], at: "2026-01-25T20:00:00Z").status, 0)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W04/index.html", encoding: .utf8)
        XCTAssertFalse(week.contains(" vs ") || week.contains(" before<"), week)
    }
}

/// Issue 31 (workspace): path settings in egofix.toml.
final class WorkspacePathTests: XCTestCase {
    /// "~/" in `output` and `content` is the home folder, as in `store`; a note edited in a
    /// content folder under it is noticed by the next build (it was hashed from another path, so
    /// the rebuild wrote nothing and the page kept the old note).
    func test_build_tildeInOutputAndContentIsTheHome() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let home = cli.workdir + "/home"
        let ws = cli.workdir + "/ws"
        try FileManager.default.createDirectory(atPath: home + "/notes/weeks", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true)
        try Data("output = \"~/out\"\ncontent = \"~/notes\"\n".utf8).write(to: URL(fileURLWithPath: ws + "/egofix.toml"))
        try Data("FIRST\n".utf8).write(to: URL(fileURLWithPath: home + "/notes/weeks/2026-W10.md"))
        func build() throws -> CLI.Result {
            let r = try cli.run(["build", "--store", cli.store], at: "2026-03-02T09:00:00+01:00", env: ["HOME": home], in: ws)
            XCTAssertEqual(r.status, 0, r.err)
            return r
        }
        _ = try build()
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/~"), "a folder named ~")
        let page = home + "/out/weeks/2026-W10/index.html"
        XCTAssertTrue(try String(contentsOfFile: page, encoding: .utf8).contains("FIRST"))
        try Data("SECOND\n".utf8).write(to: URL(fileURLWithPath: home + "/notes/weeks/2026-W10.md"))
        let again = try build()
        XCTAssertFalse(again.out.contains(" 0 written"), again.out)
        XCTAssertTrue(try String(contentsOfFile: page, encoding: .utf8).contains("SECOND"))
    }

    /// An egofix.toml that is not UTF-8 is refused, as any other file egofix reads.
    func test_build_anEgofixTomlNotInUTF8IsRefused() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        try Data([0x74, 0x69, 0x74, 0x6C, 0x65, 0x20, 0x3D, 0x20, 0x22, 0x63, 0x61, 0x66, 0xE9, 0x22, 0x0A])
            .write(to: URL(fileURLWithPath: cli.workdir + "/egofix.toml"))
        let r = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("egofix.toml:1: not UTF-8 text"), r.err)
    }
}

/// Issue 31 (site): what a rollup is compared with at the practice's edges.
final class SiteRollupComparisonTests: XCTestCase {
    /// A month or year whose page exists before it begins (this week's Thursday is in it) has no
    /// comparison; nor a month set against one from before the practice began.
    func test_Site_aRollupNotBegunOrAfterNothingHasNoComparison() throws {
        let late = try CLI(zone: "UTC")
        XCTAssertEqual(try late.run(["init", "--bug", "need-to-be-right"], at: "2025-12-22T08:00:00Z").status, 0)
        XCTAssertEqual(try late.run(["applied"], at: "2025-12-22T19:00:00Z").status, 0)
        XCTAssertEqual(try late.run(["build"], at: "2025-12-29T19:00:00Z").status, 0)
        for page in ["years/2026", "months/2026-01", "quarters/2026-Q1"] {
            let html = try String(contentsOfFile: late.workdir + "/site/\(page)/index.html", encoding: .utf8)
            XCTAssertFalse(html.contains(" vs "), "\(page) compared before it began")
        }
        let newYear = try CLI(zone: "UTC")
        XCTAssertEqual(try newYear.run(["init", "--bug", "need-to-be-right"], at: "2027-01-01T08:00:00Z").status, 0)
        XCTAssertEqual(try newYear.run(["applied"], at: "2027-01-01T19:00:00Z").status, 0)
        XCTAssertEqual(try newYear.run(["build"], at: "2027-01-05T19:00:00Z").status, 0)
        let january = try String(contentsOfFile: newYear.workdir + "/site/months/2027-01/index.html", encoding: .utf8)
        XCTAssertFalse(january.contains(" vs "), "January compared with a December before the practice")
    }
}

/// Issue 31 (workspace): theme folders that are links.
final class ThemeLinkTests: XCTestCase {
    /// A Templates folder that is a link is refused by name (its overrides were left out without a
    /// word), and a link to a folder put inside Assets after a good build is refused by the next
    /// build too (the change check skipped it and found nothing to do).
    func test_build_aThemeFolderLinkIsRefusedEvenAfterAGoodBuild() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let fm = FileManager.default
        try fm.createDirectory(atPath: cli.workdir + "/theme/Templates", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: cli.workdir + "/Templates", withDestinationPath: "theme/Templates")
        let linked = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(linked.status, 1)
        XCTAssertTrue(linked.err.contains("Templates") && linked.err.contains("a symbolic link to a folder"), linked.err)
        try fm.removeItem(atPath: cli.workdir + "/Templates")
        try fm.createDirectory(atPath: cli.workdir + "/Assets", withIntermediateDirectories: true)
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-02T09:00:00+01:00").status, 0)
        try fm.createDirectory(atPath: cli.workdir + "/theme/img", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: cli.workdir + "/Assets/img", withDestinationPath: "../theme/img")
        let after = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(after.status, 1, after.out)
        XCTAssertTrue(after.err.contains("Assets/img") && after.err.contains("a symbolic link to a folder"), after.err)
    }

    /// An asset at a page's path is named as the asset, in Assets/ (the error said a page was
    /// "produced twice", naming neither).
    func test_build_anAssetAtAPagesPathIsNamed() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Assets", withIntermediateDirectories: true)
        try Data("<p>mine</p>".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/Assets/index.html"))
        let r = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("Assets/index.html has the path of a file the build makes (index.html)"), r.err)
        try Data("x".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/Assets/reminders.ics"))
        try FileManager.default.removeItem(atPath: cli.workdir + "/Assets/index.html")
        let ics = try cli.run(["build"], at: "2026-03-02T09:00:00+01:00")
        XCTAssertTrue(ics.err.contains("Assets/reminders.ics has the path of a file the build makes"), ics.err)
    }

    /// The store linked into Assets/share/ (a link inside the workspace is followed) went out with
    /// the public folder, world-readable, every reflection in it. A database is refused by name.
    func test_build_aStoreLinkedIntoAssetsIsNotPublished() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "Words for nobody else."], at: "2026-03-02T09:00:00+01:00").status, 0)
        let fm = FileManager.default
        try fm.createDirectory(atPath: cli.workdir + "/Assets/share", withIntermediateDirectories: true)
        let relative = String(repeating: "../", count: 2) + (cli.store.hasPrefix(cli.workdir + "/") ? String(cli.store.dropFirst(cli.workdir.count + 1)) : cli.store)
        try fm.createSymbolicLink(atPath: cli.workdir + "/Assets/share/store.sqlite", withDestinationPath: relative)
        XCTAssertNotNil(fm.contents(atPath: cli.workdir + "/Assets/share/store.sqlite"), relative)
        let r = try cli.run(["build"], at: "2026-03-02T10:00:00+01:00")
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.contains("Assets/share/store.sqlite") && r.err.contains("an SQLite database, such as a store"), r.err)
        XCTAssertFalse(fm.fileExists(atPath: cli.workdir + "/site/share/store.sqlite"))
    }

    /// An export or a sync folder's device file in Assets/ went out with the site (only a
    /// database was refused): the whole practice as JSON. Refused by name; other JSON is published.
    func test_build_anExportInAssetsIsNotPublished() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let fm = FileManager.default
        try fm.createDirectory(atPath: cli.workdir + "/Assets/data", withIntermediateDirectories: true)
        try "{\"feeds\": [\"completions\"]}".write(toFile: cli.workdir + "/Assets/data/list.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try cli.run(["build"], at: "2026-03-02T10:00:00+01:00").status, 0, "other JSON is an asset like any")
        XCTAssertEqual(try cli.run(["export", cli.workdir + "/Assets/data/backup.json"], at: "2026-03-02T10:01:00+01:00").status, 0)
        let r = try cli.run(["build"], at: "2026-03-02T10:02:00+01:00")
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.contains("Assets/data/backup.json") && r.err.contains("an egofix export or sync file"), r.err)
        XCTAssertFalse(fm.fileExists(atPath: cli.workdir + "/site/data/backup.json"))
        try fm.removeItem(atPath: cli.workdir + "/Assets/data/backup.json")
        XCTAssertEqual(try cli.run(["sync", cli.workdir + "/Assets/folder"], at: "2026-03-02T10:03:00+01:00").status, 0)
        let device = try cli.run(["build"], at: "2026-03-02T10:04:00+01:00")
        XCTAssertEqual(device.status, 1, device.out)
        XCTAssertTrue(device.err.contains("an egofix export or sync file"), device.err)
    }
}

/// The copy audit: lines of 84 to 133 columns in patterns, share, the rest day, activate and
/// calibrate. Each line a command prints keeps to 80 columns (a card to 64), the basis of a
/// pattern going on a line of its own when the two do not fit.
final class LineWidthTests: XCTestCase {
    func test_copy_theCommandsKeepTo80Columns() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let at = "2026-11-23T09:00:00+01:00"
        var outputs: [String: String] = [:]
        for args in [["patterns"], ["share", "44"], ["status"], ["history"], ["bug", "deactivate", "need-to-impress"],
                     ["bug", "activate", "need-to-impress"], ["today"]] {
            let r = try cli.run(args, at: at)
            XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
            outputs[args.joined(separator: " ")] = r.out
        }
        for (command, out) in outputs.sorted(by: { $0.key < $1.key }) {
            for line in out.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, 80, "\(command): \(line)")
            }
        }
        XCTAssertTrue(outputs["patterns"]?.contains("\n// based on ") == true, outputs["patterns"] ?? "")
    }
}
