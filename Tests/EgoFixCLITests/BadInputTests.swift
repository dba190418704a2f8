@testable import EgoFixCLI
import EgoFixStore
import XCTest

/// Bad input gets one clear line, a non-zero exit, and changes nothing.
final class BadInputTests: XCTestCase {
    func assertRefused(_ cli: CLI, _ args: [String], at now: String, stdin: String? = nil, mentions: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try cli.export()
        let r = try cli.run(args, at: now, stdin: stdin)
        XCTAssertNotEqual(r.status, 0, "accepted: \(args)", file: file, line: line)
        let lines = r.err.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "not one line: \(r.err)", file: file, line: line)
        XCTAssertTrue(r.err.contains(mentions), "\(r.err) does not mention \(mentions)", file: file, line: line)
        XCTAssertFalse(r.err.contains("Fatal error"), file: file, line: line)
        XCTAssertEqual(try cli.export(), before, "the store changed", file: file, line: line)
    }

    func onboarded() throws -> CLI {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        return cli
    }

    /// A clock behind the practice's start (a laptop two weeks slow for a morning) is refused by
    /// every command that records: it marked a fix, logged a crash and gave a day's fix before day
    /// one, which the week pages drew as before day one and the changelog listed under a release
    /// made after them (found by helper 107). Reading still works.
    func test_badInput_aClockBeforeThePracticeBeganRecordsNothing() throws {
        let cli = try onboarded()
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-02T09:00:00+01:00").status, 0)
        let behind = "2026-02-20T09:00:00+01:00"
        let said = "the clock given by --now says 2026-02-20 09:00, a day before the practice began (2026-03-02 08:00). Nothing recorded."
        for args in [["today"], ["applied", "-m", "x"], ["crash", "-m", "x"], ["reboot"], ["amend", "-m", "x"], ["timer"],
                     ["bug", "activate", "need-to-be-right"], ["diagnostic", "--rate", "need-to-impress=quiet"]] {
            let r = try cli.run(args, at: behind, stdin: "")
            XCTAssertEqual(r.status, 1, "\(args): \(r.out)")
            XCTAssertTrue(r.err.hasPrefix("egofix: " + said), "\(args): \(r.err)")
        }
        try assertRefused(cli, ["skipped"], at: behind, stdin: "", mentions: "If the clock is behind, set it right. If it is right, "
                          + "the practice was begun on a clock that ran ahead, and commands record again from 2026-03-02.")
        XCTAssertEqual(try cli.run(["status"], at: behind).status, 0, "reading is not recording")
        // Earlier on the first day passes: a clock an hour ahead at init (a dual-boot machine's
        // hardware clock in local time), then set right, was locked out until then.
        let ahead = try CLI()
        XCTAssertEqual(try ahead.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T10:00:00+01:00").status, 0)
        XCTAssertEqual(try ahead.run(["today"], at: "2026-03-02T08:30:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["applied"], at: "2026-03-02T09:05:00+01:00", stdin: "").status, 0, "the clock set right")
    }

    func test_badInput_unknownBugSlug() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["crash", "need-to-be-perfect"], at: "2026-03-02T10:00:00+01:00", mentions: "unknown bug 'need-to-be-perfect'")
        try assertRefused(cli, ["bug", "activate", "nope"], at: "2026-03-02T10:00:00+01:00", mentions: "egofix bugs")
    }

    /// A slug typed with a typo or capitals names the bug meant (it said only "unknown bug"),
    /// in every command that takes one; one too far from every slug names none.
    func test_badInput_unknownBugSlugNamesTheNearest() throws {
        let fresh = try CLI()
        let first = try fresh.run(["init", "--bug", "need-to-be-rigth"], at: "2026-03-02T08:00:00+01:00")
        XCTAssertNotEqual(first.status, 0)
        XCTAssertTrue(first.err.contains("unknown bug 'need-to-be-rigth' (need-to-be-right?)"), first.err)
        // As near to need-to-be-right as to need-to-be-liked: neither is named.
        let tie = try fresh.run(["init", "--bug", "need-to-be-rite"], at: "2026-03-02T08:00:00+01:00")
        XCTAssertTrue(tie.err.contains("unknown bug 'need-to-be-rite'. Run"), tie.err)
        let cli = try onboarded()
        try assertRefused(cli, ["bug", "activate", "Need-To-Be-Liked"], at: "2026-03-02T10:00:00+01:00",
                          mentions: "unknown bug 'Need-To-Be-Liked' (need-to-be-liked?)")
        try assertRefused(cli, ["crash", "need-to-impres"], at: "2026-03-02T10:00:00+01:00",
                          mentions: "(need-to-impress?)")
        // The title as it reads, or the slug with underscores, names the slug (neither named one).
        try assertRefused(cli, ["bug", "primary", "Fear of being ordinary"], at: "2026-03-02T10:00:00+01:00",
                          mentions: "unknown bug 'Fear of being ordinary' (fear-of-ordinary?)")
        try assertRefused(cli, ["crash", "fear-of-being-ordinary"], at: "2026-03-02T10:00:00+01:00",
                          mentions: "(fear-of-ordinary?)")
        try assertRefused(cli, ["bug", "activate", "need_to_be_busy"], at: "2026-03-02T10:00:00+01:00",
                          mentions: "(need-to-be-busy?)")
        // The nearest is not active: named, with why the diagnostic cannot rate it.
        try assertRefused(cli, ["diagnostic", "--rate", "need-to-be-bussy=quiet"], at: "2026-03-08T19:00:00+01:00",
                          mentions: "(need-to-be-busy? It is not active")
        let far = try cli.run(["bug", "activate", "perfectionism"], at: "2026-03-02T10:00:00+01:00")
        XCTAssertTrue(far.err.contains("unknown bug 'perfectionism'. Run `egofix bugs`"), far.err)
    }

    /// A reflection given two ways is refused rather than one of them dropped unread.
    func test_badInput_reflectionGivenTwoWays() throws {
        let cli = try onboarded()
        XCTAssertEqual(try cli.run(["today"], at: "2026-03-02T09:00:00+01:00").status, 0)
        try assertRefused(cli, ["applied", "-m", "Let Tom finish.", "-e"], at: "2026-03-02T10:00:00+01:00", mentions: "-m and -e both give the reflection")
    }

    /// The next day, `applied` before `today`: today's fix is given and marked, the one `today`
    /// then shows as applied (it was refused as "no pending fix" after the reminder named it).
    /// Not before remind_at, nor while yesterday's fix is left unmarked: at 00:30 an outcome meant
    /// for last night's fix marked a new one nobody had seen.
    func test_badInput_outcomeBeforeTodayMarksTodaysFix() throws {
        let cli = try onboarded()
        try assertRefused(cli, ["applied"], at: "2026-03-03T10:00:00+01:00", mentions: "no pending fix")
        XCTAssertEqual(try cli.run(["skipped"], at: "2026-03-02T20:00:00+01:00").status, 0)
        try assertRefused(cli, ["failed", "-m", "last night's"], at: "2026-03-03T00:30:00+01:00", mentions: "no pending fix")
        let r = try cli.run(["applied", "-m", "did it"], at: "2026-03-03T10:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        let label = try XCTUnwrap(r.out.range(of: #"FIX #\d{3}"#, options: .regularExpression).map { String(r.out[$0]) }, r.out)
        let today = try cli.run(["today"], at: "2026-03-03T10:05:00+01:00")
        XCTAssertTrue(today.out.contains("TODAY // 2026-03-03") && today.out.contains(label) && today.out.contains("Marked applied."), today.out)
        try assertRefused(cli, ["applied"], at: "2026-03-03T11:00:00+01:00", mentions: "already marked applied")
    }

    /// `status` names the fix `applied` would mark before `today` has given it (it said "No
    /// pending fix" while `remind` and `applied` named one), and gives nothing itself: it only
    /// reads. Before remind_at it names none, as `applied` marks none.
    func test_badInput_statusNamesTheFixAnOutcomeBeforeTodayWouldMark() throws {
        let cli = try onboarded()
        XCTAssertEqual(try cli.run(["skipped"], at: "2026-03-02T20:00:00+01:00").status, 0)
        let early = try cli.run(["status"], at: "2026-03-03T06:00:00+01:00")
        XCTAssertTrue(early.out.contains("No pending fix."), early.out)
        let status = try cli.run(["status"], at: "2026-03-03T10:00:00+01:00")
        let named = try XCTUnwrap(status.out.range(of: #"PENDING  FIX #\d{3}"#, options: .regularExpression).map { String(status.out[$0].dropFirst(9)) }, status.out)
        XCTAssertTrue(status.out.contains("// Today's, not opened yet: `egofix today` shows it; an outcome marks it."), status.out)
        let json = try cli.run(["status", "--json"], at: "2026-03-03T10:00:00+01:00")
        XCTAssertTrue(json.out.contains(#""pendingFixNotGivenYet" : true"#) || json.out.contains(#""pendingFixNotGivenYet":true"#), json.out)
        let r = try cli.run(["applied", "-m", "did it"], at: "2026-03-03T10:01:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains(named), "status named \(named); applied marked: \(r.out)")
        let after = try cli.run(["status"], at: "2026-03-03T10:02:00+01:00")
        XCTAssertTrue(after.out.contains("No pending fix.") && !after.out.contains("not opened yet"), after.out)
    }

    func test_badInput_secondOutcomeForTheSameFix() throws {
        let cli = try onboarded()
        XCTAssertEqual(try cli.run(["failed"], at: "2026-03-02T10:00:00+01:00").status, 0)
        try assertRefused(cli, ["applied"], at: "2026-03-02T11:00:00+01:00", mentions: "already marked failed")
    }

    /// A reflection written in $EDITOR while another terminal logs a crash (a quick fix now comes
    /// first): the outcome is refused, and the text is kept where it was written and named (it was
    /// deleted, and existed nowhere else). The refusal names the fix that is pending now.
    /// `-e` with no editor named and no terminal (a script, cron, a pipe) is refused before vi
    /// runs: vi wrote its screen codes into the output and exited 1. Nothing is recorded.
    func test_badInput_editWithoutATerminalOrAnEditorIsRefusedBeforeVi() throws {
        let cli = try onboarded()
        let r = try cli.run(["applied", "-e"], at: "2026-03-02T12:00:00+01:00", stdin: "")
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("-e opens vi, and standard input is not a terminal."), r.err)
        XCTAssertFalse(r.out.contains("\u{1B}"), r.out)
        let status = try cli.run(["status"], at: "2026-03-02T12:01:00+01:00")
        XCTAssertTrue(status.out.contains("PENDING"), "nothing was marked: \(status.out)")
    }

    func test_badInput_editorTextIsKeptWhenTheOutcomeIsRefused() throws {
        let cli = try onboarded()
        let editor = cli.workdir + "/editor.sh"
        let script = "#!/bin/sh\nprintf 'Held my tongue at lunch.' > \"$1\"\n\"$EGOFIX\" crash --store \"$STORE\" --now 2026-03-02T12:01:00+01:00 >/dev/null\n"
        _ = FileManager.default.createFile(atPath: editor, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let r = try cli.run(["applied", "-e"], at: "2026-03-02T12:00:00+01:00",
                            env: ["EDITOR": editor, "EGOFIX": CLI.binary.path, "STORE": cli.store])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("the fix to mark changed while the reflection was written: it is FIX #"), r.err)
        let path = try XCTUnwrap(r.err.range(of: #"kept in (\S+)\.\n"#, options: .regularExpression).map { String(r.err[$0].dropFirst(8).dropLast(2)) }, r.err)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "Held my tongue at lunch.")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        try FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        // Stored, it is removed, with its folder (the harness's TMPDIR is the test's folder).
        let ok = try cli.run(["applied", "-e"], at: "2026-03-02T12:05:00+01:00", env: ["EDITOR": "sh -c 'echo Later. > \"$1\"' sh"])
        XCTAssertEqual(ok.status, 0, ok.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cli.workdir).filter { $0.hasPrefix("egofix-") }, [])
    }

    /// `-e`: text the editor saved in another encoding is refused and kept (it was stored with
    /// U+FFFD in place of each letter); nothing saved records nothing (the outcome was marked, for
    /// good, with no reflection); an empty VISUAL falls back to EDITOR (it ran the file itself).
    /// The file is made in a folder only this user can enter, under a name nobody can guess.
    func test_badInput_editorTextIsCheckedAndItsFileIsPrivate() throws {
        let cli = try onboarded()
        func editor(_ name: String, _ body: String) throws -> String {
            let path = cli.workdir + "/" + name
            try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            XCTAssertEqual(chmod(path, 0o755), 0)
            return path
        }
        let latin = try cli.run(["applied", "-e"], at: "2026-03-02T12:00:00+01:00", env: ["EDITOR": try editor("latin.sh", #"printf 'Caf\351' > "$1""#)])
        XCTAssertEqual(latin.status, 1, latin.err)
        XCTAssertTrue(latin.err.contains("not UTF-8 text"), latin.err)
        let kept = try XCTUnwrap(latin.err.range(of: #"kept in (\S+)\.\n"#, options: .regularExpression).map { String(latin.err[$0].dropFirst(8).dropLast(2)) }, latin.err)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: (kept as NSString).deletingLastPathComponent)[.posixPermissions] as? Int, 0o700)
        XCTAssertFalse(kept.contains("\(getpid())") || kept.hasSuffix("-reflection.md"), kept)
        try FileManager.default.removeItem(atPath: (kept as NSString).deletingLastPathComponent)
        // An editor that is not installed is said so, with what to do ("exited with 127").
        let missing = try cli.run(["applied", "-e"], at: "2026-03-02T12:00:30+01:00", env: ["EDITOR": "no-such-editor-here"])
        XCTAssertEqual(missing.status, 1, missing.err)
        XCTAssertTrue(missing.err.contains("egofix: no-such-editor-here was not found (exit 127): set VISUAL or EDITOR to an editor that is installed, "
                                            + "or leave out -e. Nothing recorded."), missing.err)
        let empty = try cli.run(["applied", "-e"], at: "2026-03-02T12:01:00+01:00", env: ["EDITOR": try editor("empty.sh", #": > "$1""#)])
        XCTAssertEqual(empty.status, 1, empty.err)
        XCTAssertTrue(empty.err.contains("left empty in the editor. Nothing recorded"), empty.err)
        let ok = try cli.run(["applied", "-e"], at: "2026-03-02T12:02:00+01:00",
                             env: ["VISUAL": "", "EDITOR": try editor("ok.sh", #"printf 'Said less.' > "$1""#)])
        XCTAssertEqual(ok.status, 0, ok.err)
        XCTAssertTrue(String(decoding: try cli.export(), as: UTF8.self).contains("\"Said less.\""))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cli.workdir).filter { $0.hasPrefix("egofix-") }, [],
                       "nothing left in TMPDIR")
    }

    /// A context that is not one is refused before the crash log asks anything.
    func test_badInput_anUnknownContextIsRefusedBeforeTheQuestions() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try onboarded()
        let r = try cli.runInTerminal(["crash", "--context", "wrk"], at: "2026-03-02T12:00:00+01:00", input: "")
        XCTAssertTrue(r.out.contains("unknown context 'wrk'"), r.out)
        XCTAssertFalse(r.out.contains("What resurfaced?"), r.out)
    }

    /// Standard input closed (as some daemons and scripts run commands): no stdin, not a trap.
    func test_badInput_closedStandardInputIsNoInput() throws {
        let cli = try onboarded()
        let r = try cli.run(["-c", "exec \"$0\" applied --store \"$1\" --now 2026-03-02T10:00:00+01:00 <&-", CLI.binary.path, cli.store],
                            env: [:], executable: "/bin/sh")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.err.contains("Fatal error"), r.err)
        XCTAssertTrue(r.out.hasPrefix("FIX APPLIED"), r.out)
    }

    /// A command run in a folder that was removed under the shell: one line, nothing written. A
    /// build wrote the private site into /site (Foundation answers "/" for the lost folder).
    func test_badInput_aRemovedWorkingFolderIsRefused() throws {
        let cli = try onboarded()
        let gone = cli.workdir + "/gone"
        let r = try cli.run(["-c", "mkdir \"$2\" && cd \"$2\" && rmdir \"$2\" && exec \"$0\" build --store \"$1\"", CLI.binary.path, cli.store, gone],
                            env: [:], executable: "/bin/sh")
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.hasPrefix("egofix: the current folder no longer exists"), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertEqual(r.out, "")
    }

    /// A store file truncated to 0 bytes is refused, and stays as it is: SQLite took it for a new
    /// database, so `check` said "integrity: ok" and `build` made an empty site.
    func test_badInput_anEmptyStoreFileIsRefused() throws {
        let cli = try CLI()
        let empty = cli.workdir + "/empty.sqlite"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        for args in [["check"], ["status"], ["build", "--out", cli.workdir + "/site"], ["applied"]] {
            let r = try cli.run(args + ["--store", empty], at: "2026-03-02T10:00:00+01:00")
            XCTAssertEqual(r.status, 1, "\(args): \(r.out)")
            XCTAssertTrue(r.err.contains("is empty (0 bytes): nothing is stored in it. A first `egofix init` cut short leaves one; `egofix init` starts"), r.err)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int, 0, "\(args)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/site"))
        // A refused import leaves the empty file as it was (it was deleted), and a link to one a link.
        let link = cli.workdir + "/link.sqlite"
        XCTAssertEqual(symlink(empty, link), 0)
        let bad = cli.workdir + "/bad.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: bad))
        for path in [empty, link] {
            XCTAssertEqual(try cli.run(["import", bad, "--store", path], at: "2026-03-02T10:00:00+01:00").status, 1)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int, 0, path)
        }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), empty)
        // init makes a store there.
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress", "--store", empty], at: "2026-03-02T10:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["check", "--store", empty]).status, 0)
    }

    /// Bytes that are not UTF-8, in a path or a piped note: refused in one line. The path was read
    /// with U+FFFD in place of the byte (an existing store "not there", a build into another
    /// folder), and the note stored changed.
    func test_badInput_bytesThatAreNotUTF8AreRefused() throws {
        let cli = try onboarded()
        let path = try cli.run(["-c", "exec \"$0\" status --store \"$(printf 'no\\377tes/s.sqlite')\"", CLI.binary.path], env: [:], executable: "/bin/sh")
        XCTAssertEqual(path.status, 64, path.err)
        XCTAssertTrue(path.err.contains("is not UTF-8 text"), path.err)
        XCTAssertEqual(path.err.split(separator: "\n").count, 1, path.err)
        let before = try cli.export()
        let note = try cli.run(["-c", "printf 'caf\\351' | \"$0\" crash --store \"$1\" --now 2026-03-02T10:00:00+01:00", CLI.binary.path, cli.store],
                               env: [:], executable: "/bin/sh")
        XCTAssertEqual(note.status, 1, note.err)
        XCTAssertTrue(note.err.contains("the note on standard input is not UTF-8 text"), note.err)
        XCTAssertEqual(try cli.export(), before, "nothing recorded")
    }

    func test_badInput_reflectionOverTheCap() throws {
        let cli = try onboarded()
        let big = String(repeating: "é", count: 40_000) // 80,000 bytes
        try assertRefused(cli, ["applied"], at: "2026-03-02T10:00:00+01:00", stdin: big, mentions: "limit is 64 KiB (65536 bytes)")
    }

    func test_badInput_malformedAndTruncatedImport() throws {
        let cli = try onboarded()
        XCTAssertEqual(try cli.run(["applied", "-m", "fine"], at: "2026-03-02T10:00:00+01:00").status, 0)
        let good = try cli.export()
        let target = try CLI()
        let truncated = target.workdir + "/truncated.json"
        _ = FileManager.default.createFile(atPath: truncated, contents: good.prefix(good.count / 2))
        var r = try target.run(["import", truncated])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        // The JSON reader's reason reads as a clause of the sentence (it read "(Unexpected end of
        // file during JSON parse.).").
        XCTAssertFalse(r.err.contains(".)") || r.err.contains("(Unexpected"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.store), "a refused import left a store")
        let malformed = target.workdir + "/malformed.json"
        var text = String(decoding: good, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"applied\"", with: "\"maybe\"")
        _ = FileManager.default.createFile(atPath: malformed, contents: Data(text.utf8))
        r = try target.run(["import", malformed])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.store), "a refused import left a store")
    }

    func test_badInput_storePathIsNotADatabase() throws {
        let cli = try CLI()
        let notDB = cli.workdir + "/notes.txt"
        _ = FileManager.default.createFile(atPath: notDB, contents: Data(String(repeating: "just some notes\n", count: 200).utf8))
        let r = try cli.run(["status", "--store", notDB])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertTrue(r.err.contains("not an EgoFix database"), r.err)
        XCTAssertEqual(FileManager.default.contents(atPath: notDB), Data(String(repeating: "just some notes\n", count: 200).utf8))
    }

    func test_badInput_badClockAndNoProfile() throws {
        let cli = try CLI()
        var r = try cli.run(["status", "--now", "yesterday"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("ISO 8601"), r.err)
        r = try cli.run(["today"], at: "2026-03-02T08:00:00+01:00")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("egofix init"), r.err)
    }
    /// A mistyped `--store` is an error, not a new, empty store that seems to work: `check`
    /// printing "integrity: ok" or `export` writing an empty practice would hide the typo.
    func test_badInput_missingStoreIsRefusedAndNotMade() throws {
        let cli = try CLI()
        let typo = cli.workdir + "/typo/egofix.sqlite"
        let now = "2026-03-05T10:00:00+01:00"
        for args in [["status"], ["today"], ["check"], ["export", cli.workdir + "/out.json"], ["history"], ["diagnostic", "--skip"],
                     ["crash", "need-to-be-right"], ["applied", "-m", "x"], ["bug", "activate", "need-to-be-liked"], ["share"]] {
            let r = try cli.run(args + ["--store", typo], at: now)
            XCTAssertNotEqual(r.status, 0, "accepted: \(args)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            XCTAssertTrue(r.err.contains("no store at \(typo)") && r.err.contains("egofix init"), r.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: typo), "\(args) made the store")
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/typo"), "\(args) made its folder")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/out.json"))
    }

    /// `egofix bugs` lists the bugs to choose from before `init`, and leaves no store behind.
    func test_bugs_listsTheLibraryBeforeInitWithoutMakingAStore() throws {
        let cli = try CLI()
        let r = try cli.run(["bugs"], at: "2026-03-05T10:00:00+01:00")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("need-to-be-right") && r.out.contains("inactive"), r.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.store))
        // A deactivated primary bug reads as deactivated, apart from the word primary.
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-05T10:00:00+01:00").status, 0)
        XCTAssertEqual(try cli.run(["bug", "deactivate", "need-to-be-right"], at: "2026-03-05T10:01:00+01:00").status, 0)
        let after = try cli.run(["bugs"], at: "2026-03-05T10:02:00+01:00").out
        let line = after.split(separator: "\n").first { $0.hasPrefix("need-to-be-right") }.map(String.init) ?? ""
        XCTAssertTrue(line.range(of: #"^need-to-be-right +deactivated +primary$"#, options: .regularExpression) != nil, line)
    }

    /// A store named by one character, relative to the working folder, is a store like any other
    /// (Foundation's path splitting trapped on it, and every command died with SIGILL).
    func test_badInput_aOneCharacterStoreNameWorks() throws {
        let cli = try CLI()
        for args in [["init", "--bug", "need-to-be-right"], ["status"], ["sync", "t"], ["export", "e.json"]] {
            let r = try cli.run(args + ["--store", "s"], at: "2026-03-05T10:00:00+01:00")
            XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/s"))
    }

    /// An init that starts nothing (no bug chosen, an unknown slug) leaves no store behind.
    func test_badInput_refusedInitLeavesNoNewStore() throws {
        let cli = try CLI()
        for args in [["init"], ["init", "--bug", "need-to-be-rite"]] {
            let r = try cli.run(args, at: "2026-03-05T10:00:00+01:00")
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.store), "\(args) left a store")
        }
    }

    /// An import took any bug slug and any catalogue text: a slug is a class in style.css, and
    /// `x){}*{display:none}.y(` left every page blank; U+202E in a bug's title turned the rest of
    /// a page's line around; a NUL cut a prompt short. Each is refused, naming the record.
    func test_badInput_importRefusesASlugOrTextThatBreaksAPage() throws {
        let source = try onboarded()
        let export = source.workdir + "/good.json"
        XCTAssertEqual(try source.run(["export", export]).status, 0)
        let good = try String(contentsOfFile: export, encoding: .utf8)
        for (from, to, says) in [("\"slug\" : \"need-to-be-right\"", "\"slug\" : \"x){}*{display:none}.y(\"", "'x){}*{display:none}.y(' is not lowercase words joined by '-'"),
                                 ("\"title\" : \"Need to be right\"", "\"title\" : \"Need to be \\u202Eright\"", "holds the direction control U+202E"),
                                 ("\"title\" : \"Need to be right\"", "\"title\" : \"Need to\\u0000 be right\"", "holds the control character U+0000")] {
            XCTAssertTrue(good.contains(from), from)
            let bad = source.workdir + "/bad.json"
            try good.replacingOccurrences(of: from, with: to).write(toFile: bad, atomically: true, encoding: .utf8)
            let target = try CLI()
            let r = try target.run(["import", bad])
            XCTAssertEqual(r.status, 1, to)
            XCTAssertTrue(r.err.contains(says), r.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.store), "the refused import left a store")
        }
        // The text of a fix's configuration (a quiz's options) reaches the pages as its prompt does.
        var doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(good.utf8)) as? [String: Any])
        var fixes = try XCTUnwrap(doc["fixes"] as? [[String: Any]])
        let quiz = try XCTUnwrap(fixes.firstIndex { ($0["configurationData"] as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self).contains("\"") } ?? false })
        let config = String(decoding: try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(fixes[quiz]["configurationData"] as? String))), as: UTF8.self)
        let changed = try XCTUnwrap(config.range(of: "\":\"").map { config.replacingCharacters(in: $0, with: "\":\"\\u202e") }, config)
        fixes[quiz]["configurationData"] = Data(changed.utf8).base64EncodedString()
        doc["fixes"] = fixes
        let bad = source.workdir + "/bad-config.json"
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: bad))
        let target = try CLI()
        let r = try target.run(["import", bad])
        XCTAssertEqual(r.status, 1, changed)
        XCTAssertTrue(r.err.contains("configurationData") && r.err.contains("holds the direction control U+202E"), r.err)
    }

    /// A refused import into a store that was not there leaves nothing: it says "Nothing was
    /// changed", and it names only options that exist.
    func test_badInput_refusedImportLeavesNoNewStore() throws {
        let cli = try CLI()
        let bad = cli.workdir + "/bad.json"
        _ = FileManager.default.createFile(atPath: bad, contents: Data("{}".utf8))
        let r = try cli.run(["import", bad], at: "2026-03-05T10:00:00+01:00")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("Nothing was changed"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.store), "the refused import left a store")

        let source = try onboarded()
        let export = cli.workdir + "/good.json"
        XCTAssertEqual(try source.run(["export", export]).status, 0)
        XCTAssertEqual(try cli.run(["import", export]).status, 0)
        let again = try cli.run(["import", export])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.err.contains("--replace"), again.err)
        for option in again.err.split(separator: " ").filter({ $0.hasPrefix("--") }) {
            let name = option.prefix { $0 == "-" || $0.isLetter }
            XCTAssertTrue(["--replace"].contains(String(name)), "names \(name), which import does not take: \(again.err)")
        }
    }

    /// The store holds private reflections: a new one, and the folder made for it, are the user's alone.
    func test_store_newStoreIsPrivateToItsOwner() throws {
        let cli = try CLI()
        let path = cli.workdir + "/data/egofix/egofix.sqlite"
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress", "--store", path], at: "2026-03-02T08:00:00+01:00").status, 0)
        let file = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(file, 0o600)
        for folder in [cli.workdir + "/data/egofix", cli.workdir + "/data"] {
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int, 0o700, folder)
        }
    }

    /// A command line the parser refuses is one line like every other error, naming where to look,
    /// with the usual usage exit code.
    func test_BadInput_usageErrorsAreOneLine() throws {
        let cli = try CLI()
        for (args, says) in [(["history", "--days", "abc"], "the value 'abc' is invalid for '--days <n>'. See 'egofix history --help'"),
                             (["applied", "--bogus"], "unknown option '--bogus'. See 'egofix applied --help'"),
                             (["crash", "--note"], "missing value for '--note <text>'. See 'egofix crash --help'"),
                             // The parser showed the overview for a command that is not there, with exit 0.
                             (["help", "frobnicate"], "no command 'frobnicate'. See 'egofix --help'"),
                             (["help", "bug", "nope"], "no command 'bug nope'. See 'egofix bug --help' for its commands."),
                             // A slug where the subcommand goes: the parser said "2 unexpected arguments".
                             (["bug", "need-to-be-right", "activate"], "the subcommand comes first: `egofix bug activate need-to-be-right --store "),
                             (["bug", "list"], "no command 'bug list'. See 'egofix bug --help' for its commands."),
                             (["bug", "need-to-be-right", "--now", "2026-03-02T09:00:00Z", "primary"],
                              "the subcommand comes first: `egofix bug primary need-to-be-right --now 2026-03-02T09:00:00Z --store "),
                             // Put in order, a line that still does not parse says what else is wrong.
                             (["bug", "need-to-be-right", "activate", "--now"],
                              "the subcommand comes first (`egofix bug activate need-to-be-right --now --store "),
                             (["bug", "actvate", "need-to-be-right"], "no command 'bug actvate' (bug activate?). See 'egofix bug --help' for its commands."),
                             // The parser named the option it could not place ("unknown option '-m'").
                             (["aplied", "-m", "x"], "no command 'aplied' (applied?). See 'egofix --help'"),
                             // As near to bug as to bugs: the first is named, as before.
                             (["bugz"], "no command 'bugz' (bug?). See 'egofix --help'")] {
            let r = try cli.run(args)
            XCTAssertEqual(r.status, 64, "\(args)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
            XCTAssertTrue(r.err.hasPrefix("egofix: " + says), r.err)
        }
        for args in [["help", "bug", "activate"], ["help"]] {
            XCTAssertEqual(try cli.run(args).status, 0, "\(args)")
        }
    }

    /// `build --years` or `--seed` without `--demo`: refused, where the build from the store took
    /// them and dropped them without a word.
    func test_badInput_demoOptionsWithoutDemoAreRefused() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        for (args, named) in [(["--years", "3"], "--years"), (["--seed", "9"], "--seed"), (["--years", "3", "--seed", "9"], "--years")] {
            let r = try cli.run(["build", "--out", cli.workdir + "/site"] + args, at: "2026-03-02T09:00:00+01:00")
            XCTAssertEqual(r.status, 64)
            XCTAssertEqual(r.err, "egofix: \(named) sets the demo history: add --demo to build it, or leave it out to build from the store. Nothing was built.\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/site"))
        }
        XCTAssertEqual(try cli.run(["build", "--out", cli.workdir + "/site"], at: "2026-03-02T09:00:00+01:00").status, 0)
    }

    /// A crash note refused as typed at the prompt (an arrow key pressed to mend a typo sends an
    /// escape) is asked for again, the bug kept: the whole crash was refused, the bug chosen and
    /// the note typed gone. And Backspace over an "é" erases the whole letter (IUTF8).
    func test_badInput_aCrashNoteRefusedAtThePromptIsAskedAgain() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00").status, 0)
        let r = try cli.runInTerminal(["crash"], at: "2026-03-02T12:00:00+01:00", input: "2\nI said it\u{1B}[D twice\n",
                                      later: "Said it twice at caf\u{E9}\u{7F}e.\n", after: 1.5)
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains("holds the control character U+001B (an arrow or another special key sends one) at character 10; "
                                     + "remove it (tabs and line breaks are fine). Type it again, or enter for none."), r.out)
        XCTAssertTrue(r.out.contains("CRASH LOGGED"), r.out)
        let doc = try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any]
        let crashes = (doc?["crashes"] as? [[String: Any]]) ?? []
        XCTAssertEqual(crashes.count, 1, "\(crashes)")
        XCTAssertEqual(crashes.first?["note"] as? String, "Said it twice at cafe.")
    }
}

/// Issue 31 (data): a file far larger than any export is refused before it is read.
final class ImportSizeTests: XCTestCase {
    func test_import_aFileLargerThanAnyExportIsRefusedUnread() throws {
        let cli = try CLI()
        let path = cli.workdir + "/huge.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(SQLiteStore.maxImportBytes) + 1)  // sparse: no disk used
        try handle.close()
        let r = try cli.run(["import", path], at: "2026-03-02T10:00:00+01:00")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("over the 1 GiB an import reads"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.store), "a refused import left a store")
    }
}

/// Issue 31 (lifetime): an outcome before `today` that is refused gives out nothing.
final class RefusedOutcomeTests: XCTestCase {
    /// After the reminder, `applied` before `today` gives today's fix and marks it; refused (a
    /// reflection over the cap), it gave the fix anyway and left it pending, "Nothing recorded."
    /// notwithstanding: the store is as before.
    func test_badInput_aRefusedOutcomeBeforeTodayGivesNoFix() throws {
        let cli = try CLI(zone: "UTC")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try cli.run(["skipped"], at: "2026-03-02T08:05:00Z").status, 0)
        let before = try cli.export()
        let long = String(repeating: "x", count: 70_000)
        let r = try cli.run(["applied"], at: "2026-03-03T10:00:00Z", stdin: long)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("the limit is"), r.err)
        XCTAssertEqual(try cli.export(), before, "a refused outcome changed the store")
        let status = try cli.run(["status"], at: "2026-03-03T10:01:00Z")
        XCTAssertTrue(status.out.contains("// Today's, not opened yet"), "not given: \(status.out)")
        // And the same command, with a reflection that fits, gives and marks today's fix.
        let ok = try cli.run(["applied", "-m", "fits"], at: "2026-03-03T10:02:00Z")
        XCTAssertEqual(ok.status, 0, ok.err)
        XCTAssertTrue(ok.out.hasPrefix("FIX APPLIED"), ok.out)
    }
}

/// TZ as every other program on the machine reads it.
final class POSIXTimeZoneTests: XCTestCase {
    /// TZ in POSIX's own form is read as the C library reads it, so egofix's day is the one `date`
    /// shows: `UTC+3` is three hours behind UTC, `JST-9` nine ahead. Foundation alone read `UTC+3`
    /// as three hours ahead and took `TZ=GMT-5` for New York's offset, six or ten hours from
    /// every other program on the machine. A zone file of that shape (`EST5EDT`) is still the
    /// zone file, as for the C library; a POSIX rule with daylight saving is refused in one line.
    func test_badInput_aPOSIXTimeZoneIsReadAsTheCLibraryReadsIt() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00Z").status, 0)
        func day(_ tz: String, at now: String) throws -> String {
            let r = try cli.run(["today"], at: now, env: ["TZ": tz])
            XCTAssertEqual(r.status, 0, r.err)
            return r.out.range(of: #"TODAY // \d{4}-\d{2}-\d{2}"#, options: .regularExpression).map { String(r.out[$0].suffix(10)) } ?? r.out
        }
        XCTAssertEqual(try day("UTC+3", at: "2026-03-02T23:30:00Z"), "2026-03-02")
        XCTAssertEqual(try day("GMT-5", at: "2026-03-03T20:00:00Z"), "2026-03-04")
        XCTAssertEqual(try day("<+0530>-5:30", at: "2026-03-04T18:45:00Z"), "2026-03-05")
        XCTAssertEqual(try day("EST5EDT", at: "2026-07-02T03:30:00Z"), "2026-07-01")
        XCTAssertEqual(try day(":UTC+3", at: "2026-07-02T02:30:00Z"), "2026-07-01")
        let before = try cli.export()
        let r = try cli.run(["today"], at: "2026-07-03T10:00:00Z", env: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        XCTAssertTrue(r.err.contains("daylight saving") && r.err.contains("the zone's name, Europe/Berlin,"), r.err)
        // The name given is the rule's own zone, not Berlin for every rule.
        let us = try cli.run(["today"], at: "2026-07-03T10:00:00Z", env: ["TZ": "EST5EDT,M3.2.0,M11.1.0"])
        XCTAssertTrue(us.err.contains("the zone's name, America/New_York,"), us.err)
        let other = try cli.run(["today"], at: "2026-07-03T10:00:00Z", env: ["TZ": "XYZ3XYD,M3.2.0,M11.1.0"])
        XCTAssertTrue(other.err.contains("such as Europe/Berlin or America/New_York"), other.err)
        XCTAssertEqual(try cli.export(), before)
    }

    func test_badInput_POSIXTimeZoneForms() {
        XCTAssertEqual(POSIXTimeZone.parse("UTC+3"), .fixed(secondsEast: -3 * 3600))
        XCTAssertEqual(POSIXTimeZone.parse("JST-9"), .fixed(secondsEast: 9 * 3600))
        XCTAssertEqual(POSIXTimeZone.parse("<+0545>-5:45"), .fixed(secondsEast: 5 * 3600 + 45 * 60))
        XCTAssertEqual(POSIXTimeZone.parse("UTC0"), .fixed(secondsEast: 0))
        XCTAssertEqual(POSIXTimeZone.parse("CET-1CEST,M3.5.0,M10.5.0/3"), .withDaylightSaving)
        XCTAssertEqual(POSIXTimeZone.parse("EST5EDT"), .withDaylightSaving)
        for name in ["UTC", "Europe/Berlin", "Etc/GMT-3", "GMT+25", "UT+3", "<+03-3", "UTC+3:60"] {
            XCTAssertNil(POSIXTimeZone.parse(name), name)
        }
        XCTAssertEqual(POSIXTimeZone.zone(secondsEast: -3 * 3600)?.identifier, "Etc/GMT+3")
        XCTAssertEqual(POSIXTimeZone.zone(secondsEast: 5 * 3600 + 45 * 60)?.secondsFromGMT(), 5 * 3600 + 45 * 60)
    }
}

extension BadInputTests {
    /// A crash note or a reflection that reads like a crisis gets the help block first, in the
    /// words of the site's (read from the same template), and no tidbit, insight or quick-fix
    /// card after it: the crash was answered with a quip about sending a short apology. The
    /// records are as for any other text; the quick fix is queued and `today` shows it.
    func test_badInput_textThatReadsLikeACrisisIsAnsweredWithTheHelpBlockFirst() throws {
        let cli = try onboarded()
        let template = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Templates/partials/help.mustache").path, encoding: .utf8)
        let words = try XCTUnwrap(template.range(of: "<p>").map { template[$0.upperBound...].prefix { $0 != "<" } })
        func helpFirst(_ out: String) -> Bool {
            out.hasPrefix("BEFORE ANYTHING ELSE\n\n") && out.split(separator: "\n").prefix(9).joined(separator: " ").contains(words)
        }
        let crash = try cli.run(["crash", "-m", "Some days I want to kill myself over this."], at: "2026-03-02T10:00:00+01:00")
        XCTAssertEqual(crash.status, 0, crash.err)
        XCTAssertTrue(helpFirst(crash.out), crash.out)
        XCTAssertTrue(crash.out.contains("CRASH LOGGED") && crash.out.contains("A quick fix is queued, for later: `egofix today` shows it."), crash.out)
        XCTAssertFalse(crash.out.contains("QUICK FIX //") || crash.out.contains("Severity:"), crash.out)
        let today = try cli.run(["today"], at: "2026-03-02T10:05:00+01:00")
        XCTAssertTrue(today.out.contains("QUICK FIX // after the crash, first"), today.out)
        let applied = try cli.run(["applied", "-m", "I want to disappear."], at: "2026-03-02T10:10:00+01:00")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(helpFirst(applied.out), applied.out)
        XCTAssertTrue(applied.out.contains("FIX APPLIED") && applied.out.contains("Reflection saved."), applied.out)
        // Only what was recorded after the block: no quip about the outcome, no version line.
        XCTAssertTrue(applied.out.contains("\nMarked applied.\n"), applied.out)
        XCTAssertFalse(applied.out.contains("No fanfare") || applied.out.contains("fixes applied since"), applied.out)
        XCTAssertFalse(template.contains("not a bug"), "the help block makes no joke of it")
        // Other text: no block.
        let calm = try cli.run(["crash", "-m", "Corrected a colleague's slide in the meeting."], at: "2026-03-02T12:00:00+01:00")
        XCTAssertTrue(calm.out.hasPrefix("CRASH LOGGED") && calm.out.contains("QUICK FIX // shown next"), calm.out)
    }
}

/// The refusal audit (helper 103): text lost before the store was opened, options given twice,
/// and refusals that were untrue or gave no way on.
extension BadInputTests {
    /// A heredoc's text, refused before the store was opened (a mistyped --store or --now, a
    /// line that does not parse), is kept and named, as every refused text is: it was dropped.
    func test_badInput_aHeredocRefusedBeforeTheStoreIsOpenedIsKept() throws {
        let cli = try onboarded()
        let text = "I said the hard thing to my sister and then apologised for it.\n"
        let heredoc = cli.workdir + "/heredoc.txt"
        try text.write(toFile: heredoc, atomically: true, encoding: .utf8)
        // As a shell runs `egofix applied ... <<EOF`: standard input holds the text from the start.
        let shell = ["/bin/sh", "-c", "exec \"$@\" < '\(heredoc)'", "sh"]
        for (args, what) in [(["applied", "--store", cli.workdir + "/typo.sqlite"], "reflection"),
                             (["applied", "--now", "2026-03-02"], "reflection"),
                             (["applied", "--count", "abc"], "reflection"),
                             (["aplied"], "text"),
                             (["crash", "--now", "tomorrow"], "note")] {
            let r = try cli.run(args, wrapper: shell, namingTheStore: args.contains("--store") ? false : true)
            XCTAssertNotEqual(r.status, 0, "\(args)")
            let said = try XCTUnwrap(r.err.range(of: #"The \#(what) is kept in (\S+)\.\n$"#, options: .regularExpression).map { String(r.err[$0]) }, "\(args): \(r.err)")
            let path = String(said.dropFirst("The \(what) is kept in ".count).dropLast(2))
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text, "\(args)")
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        }
        // Nothing piped: nothing said.
        let plain = try cli.run(["applied", "--now", "2026-03-02"])
        XCTAssertFalse(plain.err.contains("is kept in"), plain.err)
    }

    /// An option given twice was taken as the last one, the first dropped without a word
    /// (`-m first -m second` stored "second"; `init --bug a --bug b` started b).
    func test_badInput_anOptionGivenTwiceIsRefused() throws {
        let cli = try onboarded()
        let twice = try cli.run(["applied", "-m", "first-q7", "-m", "second-q7"], at: "2026-03-02T19:00:00+01:00")
        XCTAssertEqual(twice.status, 64, twice.err)
        XCTAssertEqual(twice.err, "egofix: -m is given twice, and only one can count. Give it once. Nothing recorded.\n")
        let mixed = try cli.run(["applied", "--now=2026-03-02T18:00:00+01:00"], at: "2026-03-02T19:00:00+01:00")
        XCTAssertEqual(mixed.status, 64, mixed.err)
        XCTAssertTrue(mixed.err.hasPrefix("egofix: --now is given twice"), mixed.err)
        // The same value twice, or a flag twice, changes nothing and passes.
        XCTAssertEqual(try cli.run(["status", "--json", "--json", "--now", "2026-03-02T19:00:00+01:00"], at: "2026-03-02T19:00:00+01:00").status, 0)
        XCTAssertFalse(try cli.export().contains(Data("second-q7".utf8)))
        // --rate takes one a bug.
        let rated = try cli.run(["diagnostic", "--rate", "need-to-impress=quiet", "--rate", "need-to-be-right=quiet"], at: "2026-03-08T19:00:00+01:00")
        XCTAssertFalse(rated.err.contains("given twice"), rated.err)
        XCTAssertTrue(rated.err.contains("need-to-be-right"), "refused for the inactive bug: \(rated.err)")
    }

    /// Smaller untruths: an empty file filled by `init` kept its 0644; `bugs` with a mistyped
    /// --store showed every bug inactive as if it were the practice; empty paths echoed as
    /// nothing; `timer` said "no pending fix to mark"; --now out of range quoted a local date
    /// against a range in UTC; an empty export was "not valid JSON, it may be truncated".
    func test_badInput_refusalsThatWereUntrueSayWhatIs() throws {
        let cli = try CLI()
        let empty = cli.workdir + "/e.sqlite"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data(), attributes: [.posixPermissions: 0o644]))
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right", "--store", empty], at: "2026-03-02T08:00:00Z", namingTheStore: false).status, 0)
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: empty)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, String(mode, radix: 8))
        let bugs = try cli.run(["bugs", "--store", cli.workdir + "/typo.sqlite"], namingTheStore: false)
        XCTAssertEqual(bugs.status, 0)
        XCTAssertTrue(bugs.err.contains("egofix: warning: no store at \(cli.workdir)/typo.sqlite, named by --store; this is the catalogue alone"), bugs.err)
        XCTAssertEqual(try cli.run(["bugs"], namingTheStore: false).err, "", "the default store, not named: no warning")
        XCTAssertTrue(try cli.run(["export", ""]).err.contains("the export's path is empty."))
        XCTAssertTrue(try cli.run(["import", ""]).err.contains("the export's path is empty."))
        XCTAssertTrue(try cli.run(["sync", ""]).err.contains("the folder's path is empty."))
        let blank = cli.workdir + "/blank.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: blank, contents: Data()))
        XCTAssertTrue(try cli.run(["import", blank]).err.contains("it is empty (0 bytes)."), "an empty export")
        let late = try cli.run(["status", "--now", "2099-12-31T23:59:59-12:00"])
        XCTAssertTrue(late.err.contains("'2099-12-31T23:59:59-12:00' (2100-01-01T11:59:59Z in UTC) is after 2099-12-31"), late.err)
        let store = try CLI()
        XCTAssertEqual(try store.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z").status, 0)
        XCTAssertEqual(try store.mark("applied", at: "2026-03-02T09:00:00Z").status, 0)
        let timer = try store.run(["timer"], at: "2026-03-03T07:00:00Z")
        XCTAssertFalse(timer.err.contains("to mark"), timer.err)
        // `amend --fix` with a number no fix has ("FIX #999 has no mark today").
        let none = try store.run(["amend", "--fix", "999"], at: "2026-03-02T09:10:00Z")
        XCTAssertTrue(none.err.hasPrefix("egofix: no FIX #999 in the catalogue."), none.err)
        // `share` names it the same way (it said "no fix '999'").
        XCTAssertTrue(try store.run(["share", "999"], at: "2026-03-02T09:10:00Z").err.hasPrefix("egofix: no FIX #999 in the catalogue."))
        // A store in a folder that was not there: the folder made is said (a typo became a folder).
        let deep = cli.workdir + "/new/deeper/s.sqlite"
        let made = try cli.run(["init", "--bug", "need-to-be-right", "--store", deep], at: "2026-03-02T08:00:00Z", namingTheStore: false)
        XCTAssertTrue(made.out.contains("// Store: \(deep) (folder \(cli.workdir)/new made for it)"), made.out)
        // A store that is a link to nothing: `status` said `init` starts one there; init refuses it.
        let link = cli.workdir + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: cli.workdir + "/nowhere.sqlite")
        for args in [["status"], ["init", "--bug", "need-to-be-right"]] {
            let r = try cli.run(args + ["--store", link], namingTheStore: false)
            XCTAssertTrue(r.err.contains("it is a symbolic link to \(cli.workdir)/nowhere.sqlite, which does not exist."), "\(args): \(r.err)")
        }
        // --out a file: a sentence with a way on.
        let file = cli.workdir + "/afile"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let out = try store.run(["build", "--out", file], at: "2026-03-03T08:00:00Z")
        XCTAssertEqual(out.err, "egofix: \(file): it is a file, and the output must be a folder. Give a folder's path, such as ./site. Nothing was changed.\n")
    }
}
