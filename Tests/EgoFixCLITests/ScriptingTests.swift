import Foundation
import XCTest

/// egofix in scripts and pipes: what a script can rely on, and what it must not lose.
final class ScriptingTests: XCTestCase {
    private func started(at now: String = "2026-03-02T07:00:00Z") throws -> CLI {
        let cli = try CLI(zone: "UTC")
        let r = try cli.run(["init", "--bug", "need-to-be-right"], at: now)
        XCTAssertEqual(r.status, 0, r.err)
        return cli
    }

    /// A reflection piped in (a heredoc exists nowhere else) was kept only when the refusal came
    /// inside the write. Refused at the first look, the most likely case (the fix already marked),
    /// it was lost without a word.
    func test_Scripting_aPipedReflectionRefusedAtTheFirstLookIsKept() throws {
        let cli = try started()
        XCTAssertEqual(try cli.run(["skipped", "-m", "First."], at: "2026-03-02T09:00:00Z").status, 0)
        let r = try cli.run(["failed"], at: "2026-03-02T09:05:00Z", stdin: "The second reflection, typed into a heredoc.\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("is already marked skipped"), r.err)
        let kept = try XCTUnwrap(r.err.range(of: "The reflection is kept in ").map { String(r.err[$0.upperBound...]) }, r.err)
        let path = String(kept.dropLast(2))  // ".\n"
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "The second reflection, typed into a heredoc.\n")
        // Kept where a reboot does not clear it (it was TMPDIR), readable by this user alone.
        XCTAssertTrue(path.hasPrefix(cli.workdir + "/.local/state/egofix/kept/reflection-"), path)
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o077, 0, String(mode, radix: 8))
        // Refused for what it holds (a control character, bytes that are not UTF-8), it is kept
        // as it came; it was lost.
        let escaped = try cli.run(["amend", "-m", "x"], at: "2026-03-02T09:05:30Z")
        XCTAssertEqual(escaped.status, 0, escaped.err)
        let control = try cli.run(["amend"], at: "2026-03-02T09:05:40Z", stdin: "A line\u{1B}[2J typed at a prompt.\n")
        XCTAssertEqual(control.status, 1)
        let keptControl = try XCTUnwrap(control.err.range(of: "The reflection is kept in ").map { String(control.err[$0.upperBound...].dropLast(2)) }, control.err)
        XCTAssertEqual(try String(contentsOfFile: keptControl, encoding: .utf8), "A line\u{1B}[2J typed at a prompt.\n")
        // Nothing piped: nothing to keep, and the refusal as it was.
        let plain = try cli.run(["failed"], at: "2026-03-02T09:06:00Z")
        XCTAssertFalse(plain.err.contains("kept in"), plain.err)
        // Over the cap, the refusal says that nothing was recorded, as the others do, and where
        // the text is kept (it was dropped).
        let long = try cli.run(["amend", "failed"], at: "2026-03-02T09:07:00Z", stdin: String(repeating: "a", count: 65_537))
        XCTAssertEqual(long.status, 1)
        XCTAssertTrue(long.err.contains("Shorten it and run the command again. Nothing recorded. The reflection is kept in "), long.err)
    }

    /// Sharing a fix shared already said "Shared." and recorded a second share, as if it were new.
    /// It says so now, records nothing, and still exits 0 (the fix is shared, as asked).
    func test_Scripting_sharingASharedFixAgainRecordsNothing() throws {
        let cli = try started()
        let first = try cli.run(["share", "37"], at: "2026-03-02T09:00:00Z")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.contains("// Shared. `egofix build`"), first.out)
        // What goes public is all said: the card names the fix's number and its bug too.
        XCTAssertTrue(first.out.replacingOccurrences(of: "\n// ", with: " ").contains("this text, FIX #037 and its bug, "), first.out)
        let again = try cli.run(["share", "FIX #037"], at: "2026-03-02T09:05:00Z")
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.contains("// Shared already; nothing was changed."), again.out)
        func shares() throws -> Int {
            let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: try cli.export()) as? [String: Any])
            return ((doc["events"] as? [[String: Any]]) ?? []).filter { $0["eventType"] as? String == "fixShared" && $0["deletedAt"] == nil }.count
        }
        XCTAssertEqual(try shares(), 1)
        XCTAssertEqual(try cli.run(["share", "--remove", "37"], at: "2026-03-02T09:10:00Z").out,
                       "FIX #037 unshared. The next `egofix build` removes its card from share/.\n")
        XCTAssertEqual(try shares(), 0)
        XCTAssertTrue(try cli.run(["share", "37"], at: "2026-03-02T09:15:00Z").out.contains("// Shared. `egofix build`"))
        XCTAssertEqual(try shares(), 1)
    }

    /// A `while read` loop's next line, read by `crash` as its note, was stored without a word.
    func test_Scripting_crashSaysItSavedANoteAndWhereItCameFrom() throws {
        let cli = try started()
        let piped = try cli.run(["crash", "need-to-be-right"], at: "2026-03-02T10:00:00Z", stdin: "need-to-be-right\n")
        XCTAssertEqual(piped.status, 0, piped.err)
        XCTAssertTrue(piped.out.contains("// Note saved, read from standard input."), piped.out)
        let given = try cli.run(["crash", "need-to-be-right", "--note", "Corrected a waiter."], at: "2026-03-02T10:05:00Z")
        XCTAssertTrue(given.out.contains("// Note saved. It stays in your store."), given.out)
        let none = try cli.run(["crash", "need-to-be-right"], at: "2026-03-02T10:10:00Z")
        XCTAssertFalse(none.out.contains("Note saved"), none.out)
    }

    /// A pipe left open (`ssh host egofix crash` without -t, a `while read` loop) held the command
    /// silent until it closed: after two seconds, standard error says what is awaited.
    func test_Scripting_aSilentPipeIsToldWhatItIsAwaited() throws {
        let cli = try started()
        let r = try cli.run(["-c", "(sleep 3; echo Late.) | \"$0\" crash need-to-be-right --store \"$1\" --now 2026-03-02T10:00:00Z",
                             CLI.binary.path, cli.store], env: [:], executable: "/bin/sh")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.err, "egofix: waiting for the note on standard input: end it with Ctrl-D, or give it with -m, or add </dev/null for none.\n")
        XCTAssertTrue(r.out.contains("// Note saved, read from standard input."), r.out)
        // Text already there is read at once, without the line.
        let quick = try cli.run(["crash", "need-to-be-right"], at: "2026-03-02T10:05:00Z", stdin: "At once.\n")
        XCTAssertEqual(quick.err, "")
    }

    /// `today --json` gave the day only as a count of days since 1970, and `status --json` the
    /// pending fix only as its label: a script matched them by parsing "FIX #042".
    func test_Scripting_jsonGivesTheDateAndTheFixNumber() throws {
        let cli = try started()
        let today = try JSONSerialization.jsonObject(with: Data(try cli.run(["today", "--json"], at: "2026-03-04T09:00:00Z").out.utf8)) as? [String: Any]
        XCTAssertEqual(today?["date"] as? String, "2026-03-04")
        let number = try XCTUnwrap((today?["fix"] as? [String: Any])?["number"] as? Int)
        let status = try JSONSerialization.jsonObject(with: Data(try cli.run(["status", "--json"], at: "2026-03-04T09:01:00Z").out.utf8)) as? [String: Any]
        XCTAssertEqual(status?["pendingFixNumber"] as? Int, number)
        XCTAssertEqual(status?["pendingFix"] as? String, String(format: "FIX #%03d", number))
    }

    /// `today --json`, which a status bar asks every minute, carries no reflection, as the card
    /// shows none (a status bar logs and shows what it is given); `history --json` does, as the
    /// README says.
    func test_Scripting_todaysJSONCarriesNoReflection() throws {
        let cli = try started()
        XCTAssertEqual(try cli.run(["applied", "-m", "About my sister, again."], at: "2026-03-04T09:00:00Z").status, 0)
        let today = try cli.run(["today", "--json"], at: "2026-03-04T09:05:00Z")
        XCTAssertEqual(today.status, 0, today.err)
        let doc = try JSONSerialization.jsonObject(with: Data(today.out.utf8)) as? [String: Any]
        XCTAssertEqual((doc?["completion"] as? [String: Any])?["outcome"] as? String, "applied")
        XCTAssertFalse(today.out.contains("sister"), today.out)
        XCTAssertTrue(try cli.run(["history", "--json"], at: "2026-03-04T09:05:00Z").out.contains("About my sister, again."))
    }

    /// `applied` typed at a terminal with neither -m nor -e asks for nothing, so it says how to add
    /// a reflection; not after -m, and not to a script.
    func test_Scripting_aMarkWithoutAReflectionAtATerminalSaysHowToAddOne() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
        let cli = try started()
        let typed = try cli.runInTerminal(["skipped"], at: "2026-03-04T09:00:00Z", input: "")
        XCTAssertTrue(typed.out.contains("FIX SKIPPED") && typed.out.contains("// No reflection. `egofix amend -e` adds one today."), typed.out)
        let scripted = try cli.run(["applied"], at: "2026-03-05T09:00:00Z")
        XCTAssertEqual(scripted.status, 0, scripted.err)
        XCTAssertFalse(scripted.out.contains("No reflection."), scripted.out)
    }

    /// A state that already holds is said with exit 0, as `bug activate` of an active bug always
    /// was: `reboot` with no open crash exited 1, so a scheduled reboot failed every quiet week.
    func test_Scripting_aRebootWithNothingOpenIsNoFailure() throws {
        let cli = try started()
        let r = try cli.run(["reboot"], at: "2026-03-02T09:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, "No crash waiting for a reboot. Nothing was changed.\n")
        XCTAssertEqual(r.err, "")
    }

    /// `export -` wrote to standard output, but `import -` was refused: a copy needed a file.
    func test_Scripting_anExportPipesIntoAnImport() throws {
        let cli = try started()
        XCTAssertEqual(try cli.run(["applied", "-m", "Piped along."], at: "2026-03-02T09:00:00Z").status, 0)
        let export = try cli.export()
        let copy = cli.workdir + "/copy.sqlite"
        let r = try cli.run(["import", "-", "--store", copy], at: "2026-03-02T10:00:00Z", stdin: String(decoding: export, as: UTF8.self))
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.hasPrefix("Imported standard input: 5 bugs,"), r.out)
        let again = try cli.run(["export", "--store", copy, "-"]).out
        XCTAssertEqual(again, String(decoding: export, as: UTF8.self))
        // A store file piped in is refused with what to do; nothing is made.
        let storeBytes = try String(decoding: Data(contentsOf: URL(fileURLWithPath: cli.store)), as: UTF8.self)
        let refused = try cli.run(["import", "-", "--store", cli.workdir + "/other.sqlite"], stdin: storeBytes)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("standard input holds a store file, not an export."), refused.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/other.sqlite"))
    }

    /// `bugs` had no --json, so a script listed the library by parsing padded columns.
    func test_Scripting_bugsListsTheLibraryAsJSON() throws {
        let cli = try started()
        let r = try cli.run(["bugs", "--json"], at: "2026-03-02T08:00:00Z")
        XCTAssertEqual(r.status, 0, r.err)
        let bugs = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])?["bugs"] as? [[String: Any]])
        XCTAssertEqual(bugs.count, 5)
        let primary = bugs.filter { $0["isPrimary"] as? Bool == true }
        XCTAssertEqual(primary.map { $0["slug"] as? String }, ["need-to-be-right"])
        XCTAssertEqual(primary.first?["status"] as? String, "active")
        XCTAssertEqual(bugs.filter { $0["isActive"] as? Bool == true }.count, 1)
        // Before init, the library to choose from, none active.
        let fresh = try CLI(zone: "UTC").run(["bugs", "--json"])
        XCTAssertEqual(fresh.status, 0, fresh.err)
        XCTAssertFalse(fresh.out.contains("\"isActive\" : true"), fresh.out)
    }

    /// `egofix apply`, the likeliest slip, got no suggestion: it is three edits from `applied`.
    /// A command that begins as the word does, for four letters or more, is suggested.
    func test_Scripting_aCommandBegunAsAnotherIsSuggested() throws {
        let cli = try started()
        for (typed, meant) in [("apply", "applied"), ("skip", "skipped"), ("diag", "diagnostic")] {
            let r = try cli.run([typed])
            XCTAssertEqual(r.status, 64)
            XCTAssertEqual(r.err, "egofix: no command '\(typed)' (\(meant)?). See 'egofix --help' for the commands.\n")
        }
        // `--note`, crash's word, given to a command that takes a reflection: -m is named, not --now.
        let note = try cli.run(["applied", "--note", "x"])
        XCTAssertEqual(note.status, 64)
        XCTAssertEqual(note.err, "egofix: unknown option '--note'. The reflection is -m TEXT (or piped in, or -e for the editor). "
                       + "See 'egofix applied --help' for more information.\n")
        // A second init names the store it refuses (the default store is unseen by a new user).
        let again = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00Z")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.err.hasPrefix("egofix: the store \(cli.store) already holds a practice (v1.0)."), again.err)
    }
}
