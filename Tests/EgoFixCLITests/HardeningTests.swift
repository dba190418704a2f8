import XCTest
@testable import EgoFixCLI

/// Issue 30: bad input and faults, tried as an attacker would. Each case ends in one line on
/// standard error, a non-zero exit, and nothing changed.
final class HardeningTests: XCTestCase {
    let morning = "2026-03-02T09:00:00+01:00"

    func onboarded() throws -> CLI {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        return cli
    }

    /// One line on standard error, mentioning `mentions`, a non-zero exit, no crash report.
    func assertOneLineRefusal(_ r: CLI.Result, mentions: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNotEqual(r.status, 0, "accepted", file: file, line: line)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, "not one line: \(r.err)", file: file, line: line)
        XCTAssertTrue(r.err.contains(mentions), "\(r.err) does not mention \(mentions)", file: file, line: line)
        XCTAssertFalse(r.err.contains("Fatal error") || r.err.contains("Backtrace"), r.err, file: file, line: line)
    }

    func assertRefused(_ cli: CLI, _ args: [String], at now: String?, stdin: String? = nil, mentions: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try cli.export()
        let r = try cli.run(args, at: now, stdin: stdin)
        assertOneLineRefusal(r, mentions: mentions, file: file, line: line)
        XCTAssertEqual(try cli.export(), before, "the store changed", file: file, line: line)
    }

    // MARK: - 2. Standard output that cannot be written

    /// `egofix demo` with no store named filled the default store with a made-up year: `init` then
    /// refused ("already holds a practice") and `today` went on from the demo's last day. It is
    /// refused there, with the way to a demo; a store named by --store, EGOFIX_STORE or
    /// egofix.toml is filled as before.
    func test_Hardening_demoLeavesTheDefaultStoreAlone() throws {
        let cli = try CLI()
        let r = try cli.run(["demo"], namingTheStore: false)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("your own store, \(cli.workdir)/.local/share/egofix/egofix.sqlite") && r.err.contains("--store"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/.local/share/egofix/egofix.sqlite"))
        let byEnv = try cli.run(["demo"], env: ["EGOFIX_STORE": cli.workdir + "/env.sqlite"], namingTheStore: false)
        XCTAssertEqual(byEnv.status, 0, byEnv.err)
        let ws = cli.workdir + "/ws"
        try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true)
        try "store = \"demo.sqlite\"\n".write(toFile: ws + "/egofix.toml", atomically: true, encoding: .utf8)
        let byConfig = try cli.run(["demo"], in: ws, namingTheStore: false)
        XCTAssertEqual(byConfig.status, 0, byConfig.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ws + "/demo.sqlite"))
    }

    func test_Hardening_exportToDevFullFails() throws {
        let cli = try onboarded()
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("no /dev/full here") }
        let before = try cli.export()
        for args in [["export", "-"], ["status"], ["history", "--json"], ["status", "--json"], ["--help"], ["build", "--help"], ["--version"]] {
            let r = try cli.run(args, at: morning, stdout: full)
            assertOneLineRefusal(r, mentions: "cannot write to standard output")
        }
        XCTAssertEqual(try cli.export(), before)
        // Help and the version still reach a working standard output, whole, with exit 0.
        let help = try cli.run(["build", "--help"])
        XCTAssertEqual(help.status, 0, help.err)
        XCTAssertTrue(help.out.hasPrefix("OVERVIEW: Build the static site") && help.out.contains("--base-url <url>"), help.out)
        XCTAssertEqual(try cli.run(["--version"]).out, "0.1.0\n")
    }

    /// An export over the store itself (by its name, through a link, or its write-ahead log) is
    /// refused; the store keeps working.
    func test_Hardening_exportOverTheStoreIsRefused() throws {
        let cli = try onboarded()
        XCTAssertEqual(symlink(cli.store, cli.workdir + "/alias.sqlite"), 0)
        for target in [cli.store, cli.workdir + "/alias.sqlite", cli.workdir + "/./store.sqlite", cli.store + "-wal"] {
            try assertRefused(cli, ["export", target], at: morning, mentions: "it is the store itself")
        }
        XCTAssertEqual(try cli.run(["status"], at: morning).status, 0)
    }

    /// A store path that is a link to nothing is refused: SQLite would make the target readable by everyone.
    func test_Hardening_storeThroughADanglingLinkIsRefused() throws {
        let cli = try CLI()
        let link = cli.workdir + "/link.sqlite", target = cli.workdir + "/target.sqlite"
        XCTAssertEqual(symlink(target, link), 0)
        for args in [["init", "--bug", "need-to-impress"], ["demo", "--years", "1"]] {
            let r = try cli.run(args + ["--store", link], at: morning)
            assertOneLineRefusal(r, mentions: "is a symbolic link to")
            XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        }
        // Made by hand, the target is the user's choice: it is used with its own permissions.
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress", "--store", target], at: morning).status, 0)
        XCTAssertEqual(try cli.run(["status", "--store", link], at: morning).status, 0)
    }

    /// A build into the folder that holds the store would replace the store with the site: refused.
    func test_Hardening_buildIntoTheStoresFolderIsRefused() throws {
        let cli = try onboarded()
        let site = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", site], at: morning).status, 0)
        let inside = site + "/practice.sqlite"
        XCTAssertEqual(try cli.run(["export", cli.workdir + "/e.json"], at: morning).status, 0)
        XCTAssertEqual(try cli.run(["import", cli.workdir + "/e.json", "--store", inside], at: morning).status, 0)
        let r = try cli.run(["build", "--store", inside, "--out", site], at: morning)
        assertOneLineRefusal(r, mentions: "is inside the output folder")
        XCTAssertTrue(FileManager.default.fileExists(atPath: inside), "the store is still there")
        XCTAssertEqual(try cli.run(["status", "--store", inside], at: morning).status, 0)
    }

    /// `--out .` (the swap took away the folder the shell was in) and an output inside Assets/
    /// (each build copied the last site into the next as an asset, 97, 194, 291 files): refused.
    func test_Hardening_buildIntoTheWorkspaceOrAnInputFolderIsRefused() throws {
        let cli = try onboarded()
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Assets", withIntermediateDirectories: true)
        // (Here the store is in that folder too, and is named first.)
        assertOneLineRefusal(try cli.run(["build", "--out", "."], at: morning), mentions: "which a build replaces whole")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/Assets"))
        let inner = cli.workdir + "/inner"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        let r = try cli.run(["-c", "cd \"$2\" && exec \"$0\" build --store \"$1\" --out . --now 2026-03-02T09:00:00+01:00", CLI.binary.path, cli.store, inner],
                            env: [:], executable: "/bin/sh")
        assertOneLineRefusal(r, mentions: "holds the folder you build in")
        assertOneLineRefusal(try cli.run(["build", "--out", "Assets/site"], at: morning), mentions: "is inside Assets, which the build reads")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/Assets/site"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/Assets"))
        // Through a link to Assets/, and inside a content folder named relative to the workspace
        // but outside it: refused alike (both were built into).
        XCTAssertEqual(symlink("Assets", cli.workdir + "/alink"), 0)
        assertOneLineRefusal(try cli.run(["build", "--out", "alink/x"], at: morning), mentions: "is inside Assets, which the build reads")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/Assets/x"))
        let ws = cli.workdir + "/ws"
        try FileManager.default.createDirectory(atPath: cli.workdir + "/notes/pages", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true)
        try Data("content = \"../notes\"\n".utf8).write(to: URL(fileURLWithPath: ws + "/egofix.toml"))
        let r2 = try cli.run(["-c", "cd \"$2\" && exec \"$0\" build --store \"$1\" --out ../notes/pages/site --now 2026-03-02T09:00:00+01:00",
                              CLI.binary.path, cli.store, ws], env: [:], executable: "/bin/sh")
        assertOneLineRefusal(r2, mentions: "is inside ../notes, which the build reads")
        XCTAssertEqual(try cli.run(["build"], at: morning).status, 0, "./site is fine")
    }

    // MARK: - 3. Export over something that is not a file

    /// An export killed midway leaves `.FILE.PID.tmp`, a whole private copy, out of sight: the
    /// next export of FILE removes it (they piled up, one per interrupted export). A live
    /// process's temporary is left to it.
    func test_Hardening_exportRemovesWhatAKilledExportLeft() throws {
        let cli = try onboarded()
        let file = cli.workdir + "/e.json"
        let stale = cli.workdir + "/.e.json.4194000.tmp", live = cli.workdir + "/.e.json.1.tmp"
        for p in [stale, live] { XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data("{\"reflection\": \"x\"}".utf8))) }
        XCTAssertEqual(try cli.run(["export", file], at: morning).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
        XCTAssertTrue(FileManager.default.fileExists(atPath: file))
    }

    func test_Hardening_exportRefusesFIFOAndDevice() throws {
        let cli = try onboarded()
        let fifo = cli.workdir + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        var r = try cli.run(["export", fifo])
        assertOneLineRefusal(r, mentions: "a FIFO")
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO was replaced")
        // A device node (a link to one is refused too: it is not a regular file).
        r = try cli.run(["export", "/dev/null"])
        assertOneLineRefusal(r, mentions: "a character device")
        XCTAssertEqual(lstat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR)
        let link = cli.workdir + "/link"
        XCTAssertEqual(symlink("/dev/null", link), 0)
        assertOneLineRefusal(try cli.run(["export", link]), mentions: "a symbolic link")
        // A regular file is replaced whole, private to its owner, with no temporary file left.
        let path = cli.workdir + "/out.json"
        _ = FileManager.default.createFile(atPath: path, contents: Data("old".utf8))
        XCTAssertEqual(try cli.run(["export", path]).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: path), try cli.export())
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: cli.workdir).contains { $0.contains("egofix-tmp") })
    }

    // MARK: - 4. Absurd dates

    func test_Hardening_absurdDatesAreRefused() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["crash", "--now", "0001-01-01T00:00:00Z"], at: nil, mentions: "before 2000-01-01")
        try assertRefused(cli, ["crash", "--now", "9999-01-01T00:00:00Z"], at: nil, mentions: "after 2099-12-31")
        let r = try cli.run(["status"], env: ["EGOFIX_NOW": "1999-12-31T23:59:59Z"])
        assertOneLineRefusal(r, mentions: "EGOFIX_NOW")
        // An import with year 1, or from after 2099, is refused, naming the record and the field.
        let source = try onboarded()
        XCTAssertEqual(try source.run(["applied", "-m", "fine"], at: morning).status, 0)
        for (instant, problem) in [("0001-01-01T00:00:00.000Z", "before 1900-01-01"), ("2100-03-02T08:00:00.000Z", "after 2099-12-31")] {
            let target = try CLI()
            let path = try write(source, to: target) { object in
                var rows = object["completions"] as? [[String: Any]] ?? []
                rows[0]["assignedAt"] = instant
                object["completions"] = rows
            }
            let r = try target.run(["import", path], at: morning)
            assertOneLineRefusal(r, mentions: "completions[0].assignedAt")
            XCTAssertTrue(r.err.contains(problem), r.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.store), "a refused import left a store")
        }
    }

    func test_Hardening_demoStartingBefore2000ExportsAndImportsAgain() throws {
        // Three years ending in 2001 start in 1998: records before 2000 are a practice's too.
        let source = try CLI()
        XCTAssertEqual(try source.run(["demo", "--years", "3"], at: "2001-06-01T09:00:00Z").status, 0)
        let export = try source.export()
        XCTAssertTrue(String(decoding: export, as: UTF8.self).contains("\"1998-"), "the demo does not reach back before 2000")
        let target = try CLI()
        let path = target.workdir + "/old.json"
        _ = FileManager.default.createFile(atPath: path, contents: export)
        let r = try target.run(["import", path], at: "2001-06-01T10:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(try target.export(), export)
        // The longest demo still starts after 1900 with the earliest clock there is.
        assertOneLineRefusal(try CLI().run(["demo", "--years", "101"], at: morning), mentions: "--years must be between 1 and 100")
    }

    // MARK: - 5. Imports that make no sense

    /// The export of an onboarded practice, changed by `change`, written into `target`'s folder.
    func write(_ source: CLI, to target: CLI, _ change: (inout [String: Any]) -> Void) throws -> String {
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: try source.export()) as? [String: Any])
        change(&object)
        let path = target.workdir + "/import-\(UUID().uuidString).json"
        _ = FileManager.default.createFile(atPath: path, contents: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        return path
    }

    /// A key given twice, the first with an escape sequence: refused, as the same text given once
    /// is (the check read the last value, the import the first).
    /// The backup an import keeps is a store file: importing it said "not valid JSON", and the
    /// way to restore it was nowhere. It says what the file is and how to restore it, and that way
    /// works.
    func test_Hardening_importOfAStoreBackupSaysHowToRestoreIt() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "kept"], at: "2026-03-02T09:00:00Z").status, 0)
        let backup = cli.workdir + "/store.sqlite.backup-1"
        try FileManager.default.copyItem(atPath: cli.store, toPath: backup)
        XCTAssertEqual(try cli.run(["applied", "-m", "later"], at: "2026-03-03T09:00:00Z").status, 0)
        let r = try cli.run(["import", backup, "--replace"], at: "2026-03-03T10:00:00Z")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("is a store file (an import's backup, or a copy of a store), not an export. To restore it: `egofix export --store \(backup) restored.json`"), r.err)
        let json = cli.workdir + "/restored.json"
        XCTAssertEqual(try cli.run(["export", "--store", backup, json], at: "2026-03-03T10:01:00Z").status, 0)
        XCTAssertEqual(try cli.run(["import", json, "--replace"], at: "2026-03-03T10:02:00Z").status, 0)
        let history = try cli.json(["history", "--days", "2"], at: "2026-03-03T10:03:00Z")
        let reflections = ((history["days"] as? [[String: Any]]) ?? []).flatMap { ($0["fixes"] as? [[String: Any]]) ?? [] }.compactMap { $0["reflection"] as? String }
        XCTAssertEqual(reflections, ["kept"], "\(history)")
    }

    func test_Hardening_importRefusesAControlCharacterBehindADuplicateKey() throws {
        let source = try onboarded()
        XCTAssertEqual(try source.run(["applied", "-m", "fine"], at: morning).status, 0)
        let text = String(decoding: try source.export(), as: UTF8.self)
        XCTAssertTrue(text.contains(#""reflection" : "fine""#), text)
        let doubled = text.replacingOccurrences(of: #""reflection" : "fine""#,
                                                with: #""reflection" : "\u001b]0;pwned\u0007", "reflection" : "fine""#)
        let target = try CLI()
        let path = target.workdir + "/doubled.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(doubled.utf8)))
        let r = try target.run(["import", path], at: morning)
        assertOneLineRefusal(r, mentions: "control character")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.store), "a refused import left a store")
    }

    func test_Hardening_importValidatesMeaning() throws {
        let source = try onboarded()
        func user(_ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) -> Void {
            { object in
                var users = object["users"] as? [[String: Any]] ?? []
                change(&users[0])
                object["users"] = users
            }
        }
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("users[0].currentStreak", user { $0["currentStreak"] = -5 }),
            ("users[1]", { object in
                var users = object["users"] as? [[String: Any]] ?? []
                var second = users[0]
                second["id"] = UUID().uuidString
                users.append(second)
                object["users"] = users
            }),
            ("users[0].primaryBugId", user { $0["primaryBugId"] = UUID().uuidString }),
            ("users[0].currentVersion", user { $0["currentVersion"] = "banana" }),
            ("users[0].currentVersion", user { $0["currentVersion"] = "01.1" }),
            ("users[0].currentVersion", user { $0["currentVersion"] = "1.0\u{1B}]0;pwned\u{07}\u{1B}[2J" }),
            ("versions[0].version", { object in
                var versions = object["versions"] as? [[String: Any]] ?? []
                var v = (object["users"] as? [[String: Any]])?.first ?? [:]
                v = ["id": UUID().uuidString, "userId": v["id"] ?? "", "version": "v1.x", "changeType": "minorUpdate",
                     "description": "x", "createdAt": "2026-03-02T08:00:00.000Z"]
                versions.append(v)
                object["versions"] = versions
            }),
            // A number no integer field holds: Foundation names no field, the refusal does.
            ("users[0].longestStreak: 1.5 is not a whole number", user { $0["longestStreak"] = 1.5 }),
            // A completion of another profile: kept here, never synced.
            ("completions[0].userId", { object in
                var rows = object["completions"] as? [[String: Any]] ?? []
                rows[0]["userId"] = UUID().uuidString
                object["completions"] = rows
            }),
            // Two bugs with one slug: every build failed on their two pages.
            ("bugs[5].slug", { object in
                var bugs = object["bugs"] as? [[String: Any]] ?? []
                var twin = bugs[0]
                twin["id"] = UUID().uuidString
                bugs.append(twin)
                object["bugs"] = bugs
            }),
        ]
        for (field, change) in cases {
            let target = try CLI()
            let r = try target.run(["import", try write(source, to: target, change)], at: morning)
            assertOneLineRefusal(r, mentions: field)
            XCTAssertFalse(r.err.contains("\u{1B}"), "an escape reached the terminal")
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.store), "a refused import left a store")
        }
    }

    /// A stored string holding escape sequences (from a store written before imports were
    /// checked) reaches the terminal neutralised.
    func test_Hardening_statusNeutralisesControlCharacters() throws {
        XCTAssertEqual(Terminal.neutralised("v1.0\u{1B}]0;pwned\u{07}\u{1B}[2J"), "v1.0\\u{1B}]0;pwned\\u{7}\\u{1B}[2J")
        XCTAssertEqual(Terminal.neutralised("\u{1B}[1mv1\u{1B}[0m\u{9B}2J", keepingStyle: true), "\u{1B}[1mv1\u{1B}[0m\\u{9B}2J")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("no sqlite3 here") }
        let cli = try onboarded()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [cli.store, "UPDATE users SET currentVersion = '1.0' || char(27) || ']0;pwned' || char(7) || char(27) || '[2J'"]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let r = try cli.run(["status"], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("\u{1B}") || r.out.contains("\u{07}"), "raw control characters reached the terminal")
        XCTAssertTrue(r.out.contains("\\u{1B}]0;pwned"), r.out)
    }

    // MARK: - 6. NUL in a reflection

    func test_Hardening_nulInReflectionIsRefused() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["applied"], at: morning, stdin: "a\u{0}b", mentions: "U+0000")
        try assertRefused(cli, ["applied", "-m", "a\u{1B}[2Jb"], at: morning, mentions: "U+001B")
        try assertRefused(cli, ["crash", "need-to-impress", "--note", "x\u{1B}]0;title\u{7}"], at: morning, mentions: "note holds")
        // In an import too.
        let source = try onboarded()
        XCTAssertEqual(try source.run(["applied", "-m", "fine"], at: morning).status, 0)
        let target = try CLI()
        let path = try write(source, to: target) { object in
            var rows = object["completions"] as? [[String: Any]] ?? []
            rows[0]["reflection"] = "a\u{0}b"
            object["completions"] = rows
        }
        let r = try target.run(["import", path], at: morning)
        assertOneLineRefusal(r, mentions: "completions[0].reflection")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.store))
        // Tabs and line breaks are text.
        XCTAssertEqual(try cli.run(["applied"], at: morning, stdin: "line one\n\tline two\r\n").status, 0)
    }

    /// Text is kept as typed but for blank lines before it and white space after it: an indented
    /// first line is a Markdown code block and stays one (its four spaces were cut, so the block
    /// became a paragraph on the site); text of nothing but white space is no text.
    func test_Hardening_aReflectionKeepsItsFirstLinesIndentation() throws {
        let cli = try onboarded()
        XCTAssertEqual(try cli.run(["crash", "need-to-impress"], at: morning, stdin: "\n  \n    let x = 1\n    x += 1\n\n  \n").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: morning, stdin: "  \n \t\n").status, 0)
        let export = String(decoding: try cli.export(), as: UTF8.self)
        XCTAssertTrue(export.contains(#""note" : "    let x = 1\n    x += 1""#), export)
        XCTAssertFalse(export.contains(#""reflection" :"#), "white space alone is no reflection: \(export)")
        XCTAssertEqual(try cli.run(["build"], at: morning).status, 0)
        let week = try String(contentsOfFile: cli.workdir + "/site/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertTrue(week.contains("<pre><code>let x = 1\nx += 1\n</code></pre>"), week)
    }

    /// A note or reflection of nothing but invisible format characters (zero width space, the
    /// joiners, word joiner, byte order mark), alone or among spaces and line breaks, is no note,
    /// as blank text is not: it was stored, "Reflection saved." was said, and the history marked
    /// the day "+reflection" over nothing to read. Each way a command takes one: -m, standard input,
    /// the editor, the crash's prompt.
    func test_Hardening_aNoteOfInvisibleCharactersIsNoNote() throws {
        let cli = try onboarded()
        let invisible = ["\u{200B}", "\u{200C}\u{200D}", "\u{2060} \n\u{FEFF}", "\n\u{200B}\t\u{FEFF}\n \u{FE0F}\u{3164}"]
        func export() throws -> String { String(decoding: try cli.export(), as: UTF8.self) }
        for (i, text) in invisible.enumerated() {
            let m = try cli.run(["crash", "need-to-impress", "-m", text], at: "2026-03-02T09:0\(i):00+01:00")
            XCTAssertEqual(m.status, 0, m.err)
            let piped = try cli.run(["crash", "need-to-impress"], at: "2026-03-02T09:1\(i):00+01:00", stdin: text)
            XCTAssertEqual(piped.status, 0, piped.err)
        }
        let crashes = try export()
        XCTAssertFalse(crashes.contains(#""note" :"#), crashes)
        // The quick fix and the day's fix, marked with -m and on standard input.
        let applied = try cli.run(["applied", "-m", invisible[2]], at: "2026-03-02T10:00:00+01:00")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertFalse(applied.out.contains("Reflection saved"), applied.out)
        XCTAssertEqual(try cli.run(["skipped"], at: "2026-03-02T10:01:00+01:00", stdin: invisible[3]).status, 0)
        // The editor's file with nothing visible in it is a file left empty.
        let editor = cli.workdir + "/invisible.sh"
        try "#!/bin/sh\nprintf '\\342\\200\\213\\n\\357\\273\\277 ' > \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(editor, 0o755), 0)
        let edited = try cli.run(["failed", "-e"], at: "2026-03-03T09:00:00+01:00", env: ["EDITOR": editor])
        XCTAssertEqual(edited.status, 1, edited.err)
        XCTAssertTrue(edited.err.contains("left empty in the editor. Nothing recorded"), edited.err)
        XCTAssertEqual(try cli.run(["failed", "-m", invisible[0]], at: "2026-03-03T09:01:00+01:00").status, 0)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/script") {
            let typed = try cli.runInTerminal(["crash"], at: "2026-03-03T10:00:00+01:00", input: "\n\u{200B}\u{2060}\n")
            XCTAssertTrue(typed.out.contains("CRASH LOGGED"), typed.out)
        }
        let all = try export()
        XCTAssertFalse(all.contains(#""note" :"#) || all.contains(#""reflection" :"#), all)
        XCTAssertTrue(all.contains(#""outcome" : "failed""#) && all.contains(#""outcome" : "skipped""#), all)
        XCTAssertFalse(try cli.run(["history"], at: "2026-03-03T11:00:00+01:00").out.contains("+reflection"))
    }

    /// A note that shows nothing and reaches the store another way (an export of an older store,
    /// another machine's file) is kept, as everything a person wrote is, and shown as none: no
    /// "+reflection" in the history, no empty reflection on the week page. The same test as a typed
    /// note's (`VisibleText`), which now also counts variation selectors and Hangul fillers.
    func test_Hardening_anImportedNoteThatShowsNothingIsNotShown() throws {
        let cli = try onboarded()
        XCTAssertEqual(try cli.run(["applied", "-m", "PLACEHOLDER-R"], at: "2026-03-02T10:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["crash", "-m", "PLACEHOLDER-C"], at: "2026-03-02T11:00:00+01:00").status, 0)
        let file = cli.workdir + "/old.json"
        XCTAssertEqual(try cli.run(["export", file], at: "2026-03-02T12:00:00+01:00").status, 0)
        let json = try String(contentsOfFile: file, encoding: .utf8)
            .replacingOccurrences(of: "PLACEHOLDER-R", with: "\\u200B\\uFE0F")
            .replacingOccurrences(of: "PLACEHOLDER-C", with: " \\u3164\\n")
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        let other = try CLI()
        let imported = try other.run(["import", file], at: "2026-03-02T12:00:00+01:00")
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertTrue(String(decoding: try other.export(), as: UTF8.self).contains("\u{3164}"), "the note is kept")
        let history = try other.run(["history"], at: "2026-03-02T12:05:00+01:00")
        XCTAssertTrue(history.out.contains("applied"), history.out)
        XCTAssertFalse(history.out.contains("+reflection"), history.out)
        XCTAssertEqual(try other.run(["build", "--out", "site"], at: "2026-03-02T12:05:00+01:00").status, 0)
        let week = try String(contentsOfFile: other.workdir + "/site/weeks/2026-W10/index.html", encoding: .utf8)
        XCTAssertFalse(week.contains("\u{200B}") || week.contains("\u{3164}"), week)
        XCTAssertFalse(week.contains("class=\"reflection\""), week)
    }

    /// A busy day in `history` goes on over more lines under its first part, within a card's
    /// 64 columns (a day with nine fixes and a crash was one line of 383).
    func test_Hardening_aBusyDayInHistoryKeepsToTheCardsWidth() throws {
        let cli = try onboarded()
        for i in 1...6 {
            XCTAssertEqual(try cli.run(["crash", "need-to-impress"], at: "2026-03-02T09:0\(i):00+01:00").status, 0)
            XCTAssertEqual(try cli.run(["applied", "-m", "x"], at: "2026-03-02T09:0\(i):30+01:00").status, 0)
        }
        let r = try cli.run(["history"], at: "2026-03-02T11:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n")
        XCTAssertTrue(lines.allSatisfy { $0.count <= 64 }, r.out)
        let day = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("2026-03-02  ") }, r.out)
        XCTAssertTrue(lines[day + 1].hasPrefix("            FIX #"), r.out)
        XCTAssertTrue(r.out.contains("6 crashes"), r.out)
    }

    /// The all-time totals under `history` keep to a card's 64 columns as the days above them do:
    /// ten years of demo (three-digit counts beside "Fear of being ordinary") made lines of 65
    /// and 66. A title as long as a catalogue allows (40) goes on a line of its own.
    func test_Hardening_historyTotalsByBugKeepToTheCardsWidth() throws {
        let end = "2026-11-22T20:00:00+01:00"
        func totals(_ out: String) -> [Substring] {
            Array(out.split(separator: "\n").drop { !$0.hasPrefix(ByBugTable.heading) })
        }
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo", "--years", "10"], at: end).status, 0)
        let r = try cli.run(["history"], at: end)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.split(separator: "\n").allSatisfy { $0.count <= 64 }, r.out)
        let rows = totals(r.out)
        XCTAssertEqual(rows.first, "all time, by bug        applied  skipped  failed  rate", r.out)
        XCTAssertEqual(rows.count, 6, r.out)
        let bugs = try XCTUnwrap(try cli.json(["history"], at: end)["byBug"] as? [[String: Any]])
        XCTAssertTrue(bugs.contains { ($0["applied"] as? Int ?? 0) >= 100 }, "\(bugs)")
        XCTAssertTrue(rows.contains { $0.hasPrefix("Fear of being ordinary  ") }, r.out)

        // A catalogue of one's own with the longest title it allows.
        let long = "Need to be the one who explains the joke"
        XCTAssertEqual(long.count, 40)
        let other = try CLI()
        let builtIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Seeds/bugs.json")
        var seeds = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: builtIn)) as? [[String: Any]])
        let k = try XCTUnwrap(seeds.firstIndex { $0["slug"] as? String == "need-to-be-right" })
        seeds[k]["title"] = long
        try FileManager.default.createDirectory(atPath: other.workdir + "/Seeds", withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: seeds).write(to: URL(fileURLWithPath: other.workdir + "/Seeds/bugs.json"))
        XCTAssertEqual(try other.run(["demo", "--years", "10"], at: end).status, 0)
        let o = try other.run(["history"], at: end)
        XCTAssertEqual(o.status, 0, o.err)
        XCTAssertTrue(o.out.split(separator: "\n").allSatisfy { $0.count <= 64 }, o.out)
        let at = try XCTUnwrap(totals(o.out).firstIndex { $0 == long }, o.out)
        XCTAssertTrue(totals(o.out)[at + 1].hasPrefix(String(repeating: " ", count: 24)), o.out)

        // Counts a century of practice could reach.
        let table = ByBugTable(rows: [.init(title: long, applied: 12_345, skipped: 67_890, failed: 1_234, rate: 0.15),
                                      .init(title: "Fear of being ordinary", applied: 99_999, skipped: 99_999, failed: 99_999, rate: 1)])
        XCTAssertTrue(table.lines(Style(color: false)).allSatisfy { $0.count <= 64 }, "\(table.lines(Style(color: false)))")
    }

    // MARK: - 8. Strict --now

    func test_Hardening_nowIsParsedStrictly() throws {
        let cli = try onboarded()
        for bad in ["2026-02-30T10:00:00Z", "2026-11-22T20:00:00Z; rm -rf /", "2026-11-22T20:00:00", "2026-13-01T00:00:00Z",
                    "2026-11-22T24:00:00Z", "2026-11-22T20:00:00+01:00x", "2026-11-22 20:00:00Z"] {
            try assertRefused(cli, ["crash", "need-to-impress"], at: bad, mentions: "is not an ISO 8601 instant")
        }
        // What a near miss lacks is said: seconds, or the zone offset.
        try assertRefused(cli, ["crash", "need-to-impress"], at: "2026-03-02T09:00+01:00", mentions: "it needs seconds. Use")
        try assertRefused(cli, ["crash", "need-to-impress"], at: "2026-03-02T09:00", mentions: "it needs seconds and a zone offset (Z or +01:00)")
        try assertRefused(cli, ["crash", "need-to-impress"], at: "2026-11-22T20:00:00", mentions: "it needs a zone offset (Z or +01:00)")
        try assertRefused(cli, ["crash", "need-to-impress"], at: "2026-11-22T20:00:00+01:00x", mentions: "(a real date and time, nothing after it)")
        // An empty --now (a script's unset variable) is refused, not read as the real clock.
        try assertRefused(cli, ["crash", "need-to-impress"], at: "", mentions: "--now is empty")
        for good in ["2026-03-02T10:00:00Z", "2026-03-02T10:00:00.5+01:00", "2026-03-02T10:00:00-05:30"] {
            XCTAssertNotNil(ISO8601.parse(good), good)
        }
        XCTAssertEqual(ISO8601.parse("2026-03-02T10:00:00+01:00"), ISO8601.parse("2026-03-02T09:00:00Z"))
    }

    // MARK: - 9. Fix numbers, and unsharing

    func test_Hardening_shareParsesFixNumbersStrictlyAndCanUnshare() throws {
        let cli = try onboarded()
        for bad in ["1-2", "0x25", "12abc", "3.7", "FIX#", ""] {
            try assertRefused(cli, ["share", bad], at: morning, mentions: "is not a fix number")
        }
        let dash = try cli.run(["share", "-37"], at: morning)
        XCTAssertNotEqual(dash.status, 0, "-37 was taken as 37")
        XCTAssertEqual(Share.number("FIX #037"), 37)
        XCTAssertEqual(Share.number("#037"), 37)
        XCTAssertEqual(Share.number("37"), 37)
        // Not shared already holds: said, with exit 0 (as `bug deactivate` of an inactive bug).
        let notShared = try cli.run(["share", "--remove", "37"], at: morning)
        XCTAssertEqual(notShared.status, 0, notShared.err)
        XCTAssertEqual(notShared.out, "FIX #037 is not shared. Nothing was changed.\n")

        XCTAssertEqual(try cli.run(["share", "37"], at: morning).status, 0)
        let out = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        func cards() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: out + "/share").filter { !$0.contains(".") }
        }
        XCTAssertEqual(try cards().count, 1)
        let r = try cli.run(["share", "--remove", "FIX #037"], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("unshared"), r.out)
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        XCTAssertEqual(try cards(), [], "the card is still in share/")
    }

    /// Sharing says once what a link preview needs when the workspace has no base URL (the
    /// share page can only name its image "card.png", which previews ignore), and not when it has one.
    func test_share_withoutABaseURLSaysWhatLinkPreviewsNeed() throws {
        let cli = try onboarded()
        let plain = try cli.run(["share", "37"], at: morning)
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertTrue(plain.out.contains("// Link previews need the card's full address: base_url in egofix.toml"), plain.out)
        try Data("base_url = \"https://example.org/me/\"\n".utf8).write(to: URL(fileURLWithPath: cli.workdir + "/egofix.toml"))
        let based = try cli.run(["share", "38"], at: morning)
        XCTAssertEqual(based.status, 0, based.err)
        XCTAssertTrue(based.out.contains("// Shared."), based.out)
        XCTAssertFalse(based.out.contains("Link previews"), based.out)
    }

    // MARK: - 1. A template override that nests too deep

    func test_Hardening_deepTemplateFailsTheBuildAndKeepsTheSite() throws {
        let cli = try onboarded()
        let out = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let index = FileManager.default.contents(atPath: out + "/index.html")
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Templates", withIntermediateDirectories: true)
        let deep = "x\n" + String(repeating: "{{#a}}", count: 3000) + String(repeating: "{{/a}}", count: 3000)
        _ = FileManager.default.createFile(atPath: cli.workdir + "/Templates/deep.mustache", contents: Data(deep.utf8))
        let r = try cli.run(["build", "--out", out], at: "2026-03-02T10:00:00+01:00")
        assertOneLineRefusal(r, mentions: "Templates/deep.mustache:2: sections are nested more than 100 deep")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(), before)
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/index.html"), index)
    }

    // MARK: - 7. Modes

    func test_Hardening_backupsAndPrivateSiteAreOwnerOnly() throws {
        let source = try onboarded()
        let export = source.workdir + "/e.json"
        XCTAssertEqual(try source.run(["export", export]).status, 0)
        // Into a new store: no backup of nothing, and no word of one.
        let cli = try CLI()
        var r = try cli.run(["import", export], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("Backup") || r.out.contains("backup"), r.out)
        func backups() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: cli.workdir).filter { $0.contains(".backup-") } }
        XCTAssertEqual(try backups(), [])
        // --replace backs up with the store's mode.
        r = try cli.run(["import", export, "--replace"], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        let made = try backups()
        XCTAssertEqual(made.count, 1)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: cli.workdir + "/" + made[0])[.posixPermissions] as? Int, 0o600)
        // The private site is its owner's alone; share/ may be published.
        XCTAssertEqual(try cli.run(["share", "37"], at: morning).status, 0)
        let out = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        func mode(_ p: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: out + p)[.posixPermissions] as? Int ?? -1 }
        XCTAssertEqual(try mode(""), 0o700)
        XCTAssertEqual(try mode("/index.html"), 0o600)
        XCTAssertEqual(try mode("/changelog"), 0o700)
        XCTAssertEqual(try mode("/share") & 0o005, 0o005, "share/ is readable by anyone")
        // The manifest beside the cache names the site's weeks, bugs and shared fixes: owner only too.
        let sites = cli.workdir + "/.cache/egofix/sites"
        let manifests = try FileManager.default.contentsOfDirectory(atPath: sites)
        XCTAssertFalse(manifests.isEmpty)
        for m in manifests {
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: sites + "/" + m)[.posixPermissions] as? Int, 0o600, m)
        }
        XCTAssertEqual(try mode("/share/index.html") & 0o004, 0o004)
    }

    // MARK: - 11. Symbolic links in content/

    /// A site built once, its dashboard's bytes, and a file outside the workspace holding `text`.
    func builtSiteAndOutsideFile(_ cli: CLI, named name: String, holding text: String) throws -> (out: String, index: Data?, outside: String) {
        let out = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        let outside = try CLI.temporaryDirectory() + "/" + name
        _ = FileManager.default.createFile(atPath: outside, contents: Data(text.utf8))
        return (out, FileManager.default.contents(atPath: out + "/index.html"), outside)
    }

    func test_Hardening_contentLinkOutsideWorkspaceIsRefused() throws {
        let cli = try onboarded()
        let (out, index, secret) = try builtSiteAndOutsideFile(cli, named: "secret.txt", holding: "root:hunter2")
        try FileManager.default.createDirectory(atPath: cli.workdir + "/content/pages", withIntermediateDirectories: true)
        XCTAssertEqual(symlink(secret, cli.workdir + "/content/pages/leak.md"), 0)
        let r = try cli.run(["build", "--out", out], at: morning)
        assertOneLineRefusal(r, mentions: "content/pages/leak.md: a symbolic link to")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/leak/index.html"))
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/index.html"), index)
        // A link inside the workspace is content like any other.
        try FileManager.default.removeItem(atPath: cli.workdir + "/content/pages/leak.md")
        _ = FileManager.default.createFile(atPath: cli.workdir + "/about.md", contents: Data("# About\n\nNotes.".utf8))
        XCTAssertEqual(symlink("../../about.md", cli.workdir + "/content/pages/about.md"), 0)
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        // The content folder itself a link out of the workspace: its files lead out, refused alike.
        let elsewhere = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: elsewhere + "/pages", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: elsewhere + "/pages/leak.md", contents: Data("SECRET".utf8))
        try FileManager.default.removeItem(atPath: cli.workdir + "/content")
        XCTAssertEqual(symlink(elsewhere, cli.workdir + "/content"), 0)
        assertOneLineRefusal(try cli.run(["build", "--out", out], at: morning), mentions: "content/pages/leak.md: a symbolic link to")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/pages/leak/index.html"))
    }

    func test_Hardening_templateAndAssetLinksOutsideWorkspaceAreRefused() throws {
        let cli = try onboarded()
        let (out, index, secret) = try builtSiteAndOutsideFile(cli, named: "id_key", holding: "PRIVATE KEY")
        let fm = FileManager.default
        try fm.createDirectory(atPath: cli.workdir + "/Assets", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: cli.workdir + "/Templates/partials", withIntermediateDirectories: true)
        // An asset is copied into the site as it is: a link to a key would publish the key.
        XCTAssertEqual(symlink(secret, cli.workdir + "/Assets/key.txt"), 0)
        var r = try cli.run(["build", "--out", out], at: morning)
        assertOneLineRefusal(r, mentions: "Assets/key.txt: a symbolic link to")
        XCTAssertFalse(fm.fileExists(atPath: out + "/key.txt"))
        XCTAssertEqual(fm.contents(atPath: out + "/index.html"), index)
        try fm.removeItem(atPath: cli.workdir + "/Assets/key.txt")
        // A link to a folder is refused with its name too (it was skipped without a word).
        XCTAssertEqual(symlink((secret as NSString).deletingLastPathComponent, cli.workdir + "/Assets/photos"), 0)
        r = try cli.run(["build", "--out", out], at: morning)
        assertOneLineRefusal(r, mentions: "Assets/photos: a symbolic link to")
        try fm.removeItem(atPath: cli.workdir + "/Assets/photos")
        // A template is rendered into every page that uses it.
        XCTAssertEqual(symlink(secret, cli.workdir + "/Templates/partials/leak.mustache"), 0)
        r = try cli.run(["build", "--out", out], at: morning)
        assertOneLineRefusal(r, mentions: "Templates/partials/leak.mustache: a symbolic link to")
        try fm.removeItem(atPath: cli.workdir + "/Templates/partials/leak.mustache")
        // A FIFO is refused, not waited on (the change check does not read it either).
        XCTAssertEqual(mkfifo(cli.workdir + "/Assets/pipe.css", 0o600), 0)
        r = try cli.run(["build", "--out", out], at: morning)
        assertOneLineRefusal(r, mentions: "Assets/pipe.css: not a regular file")
        try fm.removeItem(atPath: cli.workdir + "/Assets/pipe.css")
        // A link inside the workspace is an override like any other.
        _ = fm.createFile(atPath: cli.workdir + "/notes.txt", contents: Data("plain".utf8))
        XCTAssertEqual(symlink("../notes.txt", cli.workdir + "/Assets/notes.txt"), 0)
        r = try cli.run(["build", "--out", out], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(fm.contents(atPath: out + "/notes.txt"), Data("plain".utf8))
    }

    // MARK: - 12. A build killed midway

    func test_Hardening_leftoverBuildFolderIsRemovedByTheNextBuild() throws {
        let cli = try onboarded()
        let out = cli.workdir + "/site"
        let leftover = cli.workdir + "/.site.egofix-build"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        // As a killed build leaves it: a private page half written.
        try FileManager.default.createDirectory(atPath: leftover + "/weeks", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: leftover + "/weeks/private.html", contents: Data("reflection".utf8))
        // The next build changes nothing, and still removes it.
        let r = try cli.run(["build", "--out", out], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("0 written"), r.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
        // So does a build that fails.
        try FileManager.default.createDirectory(atPath: leftover, withIntermediateDirectories: true)
        XCTAssertNotEqual(try cli.run(["build", "--out", out, "--base-url", "ftp://x"], at: morning).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
    }

    /// Ctrl-C during a build that writes: it stops with exit 130 and one line, removes the
    /// half-made folder beside the site (private pages, left until the next build before) and
    /// leaves the site as it was.
    func test_Hardening_ctrlCDuringABuildLeavesNothingBeside() throws {
        let cli = try CLI()
        let out = cli.workdir + "/site", leftover = cli.workdir + "/.site.egofix-build"
        let first = try cli.run(["build", "--demo", "--out", out], in: cli.workdir)
        XCTAssertEqual(first.status, 0, first.err)
        let before = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let index = FileManager.default.contents(atPath: out + "/index.html")
        // A long build (a hundred years), interrupted once it has begun writing.
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = ["build", "--demo", "--years", "100", "--out", out]
        p.environment = ["TZ": "UTC", "HOME": cli.workdir, "PATH": "/usr/bin:/bin", "LANG": "C", "SWIFT_BACKTRACE": "enable=no"]
        p.currentDirectoryURL = URL(fileURLWithPath: cli.workdir)
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: leftover), p.isRunning, Date() < deadline { usleep(2_000) }
        guard p.isRunning else { throw XCTSkip("the build finished before it could be interrupted") }
        kill(p.processIdentifier, SIGINT)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130, message)
        XCTAssertEqual(message, "egofix: interrupted; the site is as it was.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover), "the half-made folder is removed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).sorted(), before)
        XCTAssertEqual(FileManager.default.contents(atPath: out + "/index.html"), index)
        // Started with Ctrl-C ignored (nohup, `trap '' INT`), a build keeps ignoring it and finishes.
        let q = Process()
        q.executableURL = URL(fileURLWithPath: "/bin/sh")
        q.arguments = ["-c", "trap '' INT; exec \"$0\" build --demo --years 100 --out site", CLI.binary.path]
        q.environment = p.environment
        q.currentDirectoryURL = p.currentDirectoryURL
        q.standardOutput = FileHandle.nullDevice
        q.standardError = FileHandle.nullDevice
        try q.run()
        while !FileManager.default.fileExists(atPath: leftover), q.isRunning, Date() < deadline.addingTimeInterval(60) { usleep(2_000) }
        guard q.isRunning else { throw XCTSkip("the build finished before the signal could be sent") }
        kill(q.processIdentifier, SIGINT)
        q.waitUntilExit()
        XCTAssertEqual(q.terminationStatus, 0, "an ignored Ctrl-C stays ignored")
        XCTAssertGreaterThan(try FileManager.default.contentsOfDirectory(atPath: out + "/years").count, 90, "the hundred-year site was swapped in")
    }

    // MARK: - 13. Smaller ones

    func test_Hardening_versionNoteWithLeadingZeroIsRefused() throws {
        let cli = try onboarded()
        try FileManager.default.createDirectory(atPath: cli.workdir + "/content/versions", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: cli.workdir + "/content/versions/01.1.md", contents: Data("Notes".utf8))
        let r = try cli.run(["build", "--out", cli.workdir + "/site"], at: morning)
        assertOneLineRefusal(r, mentions: "content/versions/01.1.md: the file name should look like 1.3.md")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/site"))
    }

    /// Options for another kind of fix are refused, not silently ignored.
    func test_Hardening_outcomeOptionsForAnotherKindOfFixAreRefused() throws {
        let catalogue = try Session.seedFilesBuiltIn().builtInCatalogue()
        let counter = try XCTUnwrap(catalogue.fixes.first { $0.interactionType == .counter })
        for args in [["--steps", "2"], ["--option", "a"], ["--timer-done"], ["--count", "3", "--steps", "1"]] {
            let parsed = try XCTUnwrap(EgoFix.parseAsRoot(["applied"] + args) as? Applied)
            XCTAssertThrowsError(try OutcomeCommand.interactionOutcome(fix: counter, parsed.o), "\(args)") { error in
                XCTAssertTrue("\(error)".contains("does not apply") && "\(error)".contains("--count"), "\(error)")
            }
        }
        let ok = try XCTUnwrap(EgoFix.parseAsRoot(["applied", "--count", "3"]) as? Applied)
        XCTAssertEqual(try OutcomeCommand.interactionOutcome(fix: counter, ok.o)?.count, 3)
        let standard = try XCTUnwrap(catalogue.fixes.first { $0.interactionType == .standard })
        // The kind as the spec names it: "a standard fix" (it said "a plain fix").
        XCTAssertThrowsError(try OutcomeCommand.interactionOutcome(fix: standard, ok.o)) { error in
            XCTAssertTrue("\(error)".contains(" is a standard fix; --count does not apply. Nothing recorded."), "\(error)")
        }
    }

    /// A negative number is a bad value, not a missing one.
    func test_Hardening_negativeSeedIsABadValueNotAMissingOne() throws {
        let cli = try CLI()
        for args in [["build", "--demo", "--seed", "-5", "--out", cli.workdir + "/site"], ["demo", "--seed", "-5"], ["history", "--days", "-5"]] {
            let r = try cli.run(args, at: morning)
            XCTAssertNotEqual(r.status, 0)
            XCTAssertTrue(r.err.contains("'-5' is invalid") || r.err.contains("--days must be between"), r.err)
            XCTAssertFalse(r.err.contains("Missing value"), r.err)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/site"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.store))
    }

    func test_Hardening_feedHasNoRemoteImages() throws {
        let cli = try onboarded()
        try FileManager.default.createDirectory(atPath: cli.workdir + "/content/versions", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: cli.workdir + "/content/versions/1.0.md",
                                           contents: Data("First notes. ![pixel](https://evil.example/p.png)".utf8))
        let out = cli.workdir + "/site"
        let r = try cli.run(["build", "--out", out], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        let feed = String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: out + "/changelog/feed.xml")), as: UTF8.self)
        XCTAssertTrue(feed.contains("First notes"), feed)
        XCTAssertFalse(feed.contains("evil.example"), feed)
    }

    /// A 10 MB title made a build take 32 s: every configured text has a cap.
    func test_Hardening_hugeConfiguredTextIsRefused() throws {
        let cli = try onboarded()
        let out = cli.workdir + "/site"
        _ = FileManager.default.createFile(atPath: cli.workdir + "/egofix.toml",
                                           contents: Data(("title = \"" + String(repeating: "x", count: 10_000_000) + "\"\n").utf8))
        let started = Date()
        assertOneLineRefusal(try cli.run(["build", "--out", out], at: morning), mentions: "egofix.toml:1: the file is")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        try FileManager.default.removeItem(atPath: cli.workdir + "/egofix.toml")
        // A FIFO in its place is refused, not waited on, by every command that reads it.
        XCTAssertEqual(mkfifo(cli.workdir + "/egofix.toml", 0o600), 0)
        for args in [["build", "--out", out], ["status"]] {
            assertOneLineRefusal(try cli.run(args, at: morning), mentions: "egofix.toml:1: not a regular file")
        }
        try FileManager.default.removeItem(atPath: cli.workdir + "/egofix.toml")
        let longURL = "https://example.org/" + String(repeating: "a", count: 5000)
        assertOneLineRefusal(try cli.run(["build", "--out", out, "--base-url", longURL], at: morning), mentions: "--base-url must be at most")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}

/// Faults a person meets: a full disk, a read-only store, a command killed midway. Faults are
/// injected with strace (no privileges needed), the read-only store by running as nobody.
extension HardeningTests {
    /// On a 40-column terminal (a phone's SSH client) every line of prose keeps within 40 columns
    /// (lines of 64 to 80 were wrapped again by the terminal, mid-word) and the outcome buttons go
    /// one under another; a table's row is left whole. Printed into a pipe, nothing changes.
    func test_hardening_aNarrowTerminalGetsLinesThatFitIt() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: morning).status, 0)
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right", "--note", "Corrected the waiter."], at: morning).status, 0)
        let piped = try cli.run(["today"], at: morning)
        XCTAssertTrue(piped.out.contains("[ egofix applied ]   [ egofix skipped ]   [ egofix failed ]"), piped.out)
        for args in [["today"], ["status"], ["crash", "need-to-be-right", "--note", "Again."]] {
            let r = try cli.runInTerminal(args, at: "2026-03-02T10:00:00+01:00", input: "", before: "stty cols 40")
            XCTAssertEqual(r.status, 0, r.out)
            let lines = r.out.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
            let wide = lines.filter { $0.count > 40 && !$0.drop { $0 == " " }.contains("  ") }
            XCTAssertEqual(wide, [], "\(args[0]): \(r.out)")
            if args[0] != "status" {
                XCTAssertTrue(lines.contains("[ egofix applied ]") && lines.contains("[ egofix failed ]"), r.out)
            }
        }
    }
}

extension HardeningTests {
    /// A counter fix whose description names its unit ("times you say \"yes, but\"") does not
    /// say it again in brackets ("... (times)"); one that does not name it keeps the brackets.
    func test_hardening_aCounterSaysItsUnitOnce() throws {
        let cli = try CLI()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: try Data(contentsOf: root.appendingPathComponent("Seeds/fixes.json"))) as? [[String: Any]])
        func named(_ f: [String: Any]) -> Bool? {
            guard f["interactionType"] as? String == "counter", let c = f["configuration"] as? [String: Any],
                  let d = c["targetDescription"] as? String, let u = c["unit"] as? String else { return nil }
            return d.lowercased().split { !$0.isLetter }.contains(Substring(u))
        }
        for naming in [true, false] {
            let kept = all.filter { $0["type"] as? String == "quickFix" || named($0) == naming }
            try FileManager.default.createDirectory(atPath: cli.workdir + "/Seeds", withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: cli.workdir + "/Seeds/fixes.json"))
            try? FileManager.default.removeItem(atPath: cli.store)
            XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: morning).status, 0)
            let out = try cli.run(["today"], at: morning).out
            let line = try XCTUnwrap(out.split(separator: "\n").first { $0.hasPrefix("count: ") }, out)
            XCTAssertEqual(line.hasSuffix(")"), !naming, String(line))
        }
    }
}

final class FaultTests: XCTestCase {
    let morning = "2026-03-02T09:00:00+01:00"
    static let strace = "/usr/bin/strace"

    /// The command under strace, with `inject` (a strace fault spec) applied.
    static func faulty(_ inject: String) throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: FaultTests.strace) else { throw XCTSkip("no strace (scripts/test.sh installs it)") }
        let call = inject.prefix { $0 != ":" }
        return [FaultTests.strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=" + inject]
    }

    /// A build the disk cannot hold says so of the site, not of the hidden folder it was made in
    /// (gone by the time it was named), and that the previous site is kept; and it is.
    func test_Faults_aBuildTheDiskCannotHoldKeepsThePreviousSiteAndSaysSo() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: morning).status, 0)
        let out = cli.workdir + "/site"
        XCTAssertEqual(try cli.run(["build", "--out", out], at: morning).status, 0)
        let before = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-02T20:00:00+01:00").status, 0)
        let r = try cli.run(["build", "--out", out], at: "2026-03-02T20:01:00+01:00", wrapper: try FaultTests.faulty("mkdir:error=ENOSPC:when=3"))
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.hasPrefix("egofix: cannot write the site into \(out) ("), r.err)
        XCTAssertTrue(r.err.hasSuffix("No space left on device. The previous site is as it was.\n"), r.err)
        XCTAssertFalse(r.err.contains("egofix-build"), r.err)
        XCTAssertEqual(try String(contentsOfFile: out + "/index.html", encoding: .utf8), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cli.workdir).filter { $0.contains("egofix-build") }, [])
        XCTAssertEqual(try cli.run(["build", "--out", out], at: "2026-03-02T20:01:00+01:00").status, 0)
        XCTAssertNotEqual(try String(contentsOfFile: out + "/index.html", encoding: .utf8), before)
    }

    /// A reflection piped in (a heredoc typed into the terminal exists nowhere else) and a crash
    /// note piped in, refused by a full disk: each is kept in a private file the error names, as
    /// `-e`'s text is. Nothing is recorded.
    func test_Faults_aPipedReflectionRefusedByAFullDiskIsKept() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: morning).status, 0)
        let full = try FaultTests.faulty("pwrite64:error=ENOSPC")
        for (args, what, text) in [(["applied"], "reflection", "Let Tom finish the story.\n"), (["crash"], "note", "Corrected the waiter.\n")] {
            let r = try cli.run(args, at: "2026-03-02T20:00:00+01:00", stdin: text, wrapper: full)
            XCTAssertEqual(r.status, 1, r.out)
            let path = try XCTUnwrap(r.err.range(of: "The \(what) is kept in (\\S+)\\.\n", options: .regularExpression)
                .map { String(r.err[$0].dropFirst("The \(what) is kept in ".count).dropLast(2)) }, r.err)
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text.trimmingCharacters(in: .newlines))
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        }
        let history = try cli.run(["history", "--json"], at: "2026-03-02T20:05:00+01:00")
        XCTAssertFalse(history.out.contains("\"applied\" : 1") || history.out.contains("\"applied\":1"), history.out)
        XCTAssertTrue(try cli.run(["status"], at: "2026-03-02T20:05:00+01:00").out.contains("PENDING"))
    }

    /// A piped reflection over the 64 KiB cap, and a piped crash note refused for a mistyped bug or
    /// context: each is kept in a private file the error names, as every other refused pipe is (the
    /// README says so; these three were dropped, and a mistyped slug is the likeliest refusal).
    func test_Hardening_aPipedTextRefusedForItsSizeOrAMistypedNameIsKept() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: morning).status, 0)
        let long = String(repeating: "word ", count: 14_000) + "\n", note = "Corrected the waiter.\n"
        for (args, what, text, refusal) in [(["applied"], "reflection", long, "70001 bytes"),
                                            (["crash", "need-to-be-rigth"], "note", note, "unknown bug 'need-to-be-rigth'"),
                                            (["crash", "--context", "wrok"], "note", note, "unknown context 'wrok'")] {
            let r = try cli.run(args, at: "2026-03-02T20:00:00+01:00", stdin: text)
            // A context not of its kind is the command line's own (64).
            XCTAssertEqual(r.status, args.contains("--context") ? 64 : 1, r.out)
            XCTAssertTrue(r.err.contains(refusal), r.err)
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            let path = try XCTUnwrap(r.err.range(of: "The \(what) is kept in (\\S+)\\.\n", options: .regularExpression)
                .map { String(r.err[$0].dropFirst("The \(what) is kept in ".count).dropLast(2)) }, r.err)
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        }
        XCTAssertTrue(try cli.run(["status"], at: "2026-03-02T20:05:00+01:00").out.contains("PENDING"))
        let doc = try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any]
        XCTAssertEqual((doc?["crashes"] as? [Any])?.count, 0, "nothing logged")
    }

    /// `init` and `demo` on a disk with no room: one line saying so and what to do, and no store
    /// file left (it was left empty or half set up, and the next command called it "not a store
    /// egofix wrote" and sent the person to their backups).
    func test_Faults_aStoreAFullDiskCouldNotSetUpIsNotLeftBehind() throws {
        let cli = try CLI()
        let full = try FaultTests.faulty("pwrite64:error=ENOSPC")
        for args in [["init", "--bug", "need-to-be-right"], ["demo"]] {
            let r = try cli.run(args, at: morning, wrapper: full)
            XCTAssertEqual(r.status, 1, r.out)
            XCTAssertTrue(r.err.hasPrefix("egofix: the disk holding store \(cli.store) is full"), r.err)
            XCTAssertTrue(r.err.contains("Free some space and run the command again. Nothing was changed."), r.err)
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            for suffix in ["", "-journal"] {
                XCTAssertFalse(FileManager.default.fileExists(atPath: cli.store + suffix), "\(args[0]) left \(cli.store)\(suffix)")
            }
        }
        let r = try cli.run(["init", "--bug", "need-to-be-right"], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
    }

    /// A first sync whose store cannot commit (a full disk) leaves no file of this machine in the
    /// shared folder: after a join on a full disk, the file of a device no store holds stayed there
    /// for every machine to merge, while the error said nothing was changed.
    func test_Faults_aSyncThatCannotCommitLeavesNoFileInTheFolder() throws {
        let a = try CLI()
        let folder = a.workdir + "/shared"
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-liked"], at: morning).status, 0)
        let files = { (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { !$0.hasPrefix(".") } ?? [] }
        // The commit's first sync to disk fails (SQLite's fdatasync; the folder's file is written
        // with fsync): the merge and this machine's file are made, the commit is not.
        let r = try a.run(["sync", folder], at: morning, wrapper: try FaultTests.faulty("fdatasync:error=ENOSPC"))
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.hasPrefix("egofix: store error while committing"), r.err)
        XCTAssertEqual(files(), [], "no file of a machine whose store did not take the sync")
        let synced = try a.run(["sync", folder], at: morning)
        XCTAssertEqual(synced.status, 0, synced.err)
        XCTAssertEqual(files().count, 1)
    }

    /// A first sync killed anywhere (here at each of its syncs to disk and renames in turn) leaves
    /// no file of an id no store holds: the next sync merges no "other machine", and leaves one
    /// device file and no temporary. A kill between this machine's file and the commit left a file
    /// named after an id drawn in the rolled-back transaction, merged as another machine's at
    /// every sync after, and a kill before the rename its temporary, a whole copy of the practice
    /// in the shared folder, for good.
    func test_Faults_aFirstSyncKilledAnywhereLeavesNoFileOfAMachineNoStoreHolds() throws {
        var hits = 0
        for call in ["fdatasync", "rename"] {
            for when in 1...8 {
                let a = try CLI()
                let folder = a.workdir + "/shared"
                XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-liked"], at: morning).status, 0)
                XCTAssertEqual(try a.run(["applied", "-m", "Listened first."], at: morning).status, 0)
                XCTAssertEqual(mkdir(folder, 0o700), 0)
                let killed = try a.run(["sync", folder], at: morning, wrapper: try FaultTests.faulty("\(call):signal=KILL:when=\(when)"))
                let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if killed.status != 0, left.contains(where: { $0.hasPrefix("egofix-device-") || $0.hasSuffix(".tmp") }) { hits += 1 }
                let again = try a.run(["sync", folder], at: "2026-03-02T09:05:00+01:00")
                XCTAssertEqual(again.status, 0, again.err)
                XCTAssertTrue(again.out.contains("no other machine's file changed"), "\(call) #\(when): \(again.out)")
                let files = try FileManager.default.contentsOfDirectory(atPath: folder)
                XCTAssertEqual(files.count, 1, "\(call) #\(when): \(files)")
                XCTAssertTrue(files.allSatisfy { $0.hasPrefix("egofix-device-") && $0.hasSuffix(".json") }, "\(call) #\(when): \(files)")
            }
        }
        XCTAssertGreaterThan(hits, 0, "no kill came between a file in the folder and the commit")
    }

    /// A join killed midway (`init --from DIR` on the new machine) leaves a store with no
    /// profile; what the next command says names the join as well as `init` (a plain `init`
    /// starts a practice of its own), and the join run again takes the practice whole.
    func test_Faults_aJoinKilledMidwayIsRunAgain() throws {
        let a = try CLI(), b = try CLI()
        let folder = a.workdir + "/shared"
        XCTAssertEqual(try a.run(["init", "--bug", "need-to-be-liked"], at: morning).status, 0)
        XCTAssertEqual(try a.run(["applied", "-m", "Listened first."], at: morning).status, 0)
        XCTAssertEqual(try a.run(["sync", folder], at: morning).status, 0)
        let killed = try b.run(["init", "--from", folder], at: morning, wrapper: try FaultTests.faulty("rename:signal=KILL:when=1"))
        XCTAssertNotEqual(killed.status, 0)
        let status = try b.run(["status"], at: morning)
        XCTAssertEqual(status.status, 1)
        XCTAssertTrue(status.err.contains("`egofix init --from DIR` to join the practice"), status.err)
        let joined = try b.run(["init", "--from", folder], at: "2026-03-02T09:05:00+01:00")
        XCTAssertEqual(joined.status, 0, joined.err)
        XCTAssertTrue(try b.run(["history"], at: "2026-03-02T09:06:00+01:00").out.contains("+reflection"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.count, 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }, [])
    }

    /// An import killed while it copies the store for its backup leaves no file under a backup's
    /// name (it left a 0-byte "backup" and its journal, for good); the next import clears what the
    /// killed one began and makes its own.
    func test_Faults_anImportKilledDuringItsBackupLeavesNoFalseBackup() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: morning).status, 0)
        let export = cli.workdir + "/e.json"
        XCTAssertEqual(try cli.run(["export", export], at: morning).status, 0)
        func backups() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: cli.workdir).filter { $0.contains(".backup-") }.sorted()
        }
        let killed = try cli.run(["import", "--replace", export], at: morning, wrapper: try FaultTests.faulty("pwrite64:signal=KILL:when=2"))
        XCTAssertNotEqual(killed.status, 0)
        let begun = try backups()
        XCTAssertFalse(begun.isEmpty, "the kill came during the backup")
        XCTAssertTrue(begun.allSatisfy { $0.hasSuffix(".unfinished") || $0.hasSuffix(".unfinished-journal") }, begun.joined(separator: " "))
        let r = try cli.run(["import", "--replace", export], at: morning)
        XCTAssertEqual(r.status, 0, r.err)
        let left = try backups()
        XCTAssertEqual(left.count, 1, left.joined(separator: " "))
        XCTAssertTrue(r.out.contains(left.first ?? "-"), r.out)
        XCTAssertTrue(try cli.run(["check"]).out.contains("integrity: ok"))
    }

    /// An import that fails after its backup (here the store file is read-only to the user) leaves
    /// the store as it was and no backup of it (a full copy of the private records, unnamed by the
    /// error; on a nearly full disk, the room the next try needed). The error says what is wrong.
    func test_Faults_aFailedImportLeavesNoBackupAndSaysWhy() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("needs root and setpriv") }
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: morning).status, 0)
        let export = cli.workdir + "/e.json"
        XCTAssertEqual(try cli.run(["export", export], at: morning).status, 0)
        let before = try cli.export()
        let fm = FileManager.default
        try fm.setAttributes([.posixPermissions: 0o777], ofItemAtPath: cli.workdir)
        try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cli.store)
        try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: export)
        let r = try cli.run(["import", "--replace", export], at: morning, wrapper: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.hasPrefix("egofix: cannot write store \(cli.store) while importing"), r.err)
        XCTAssertTrue(r.err.contains("read-only"), r.err)
        XCTAssertFalse(r.err.contains("cannot open"), r.err)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: cli.workdir).filter { $0.contains(".backup-") }, [])
        try fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: cli.store)
        XCTAssertEqual(try cli.export(), before, "the store is as it was")
    }
}
