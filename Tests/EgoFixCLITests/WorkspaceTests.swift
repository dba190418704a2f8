import Foundation
import XCTest

/// Where a command finds its store and its workspace, run from wherever a person happens to be:
/// a subfolder of the workspace, the home folder, a script with an unset variable.
final class WorkspaceTests: XCTestCase {
    /// A workspace whose egofix.toml names a store of its own, with a practice begun in it.
    private func workspace(_ cli: CLI) throws -> String {
        let ws = cli.workdir + "/practice"
        try FileManager.default.createDirectory(atPath: ws + "/notes/deep", withIntermediateDirectories: true)
        try "time_zone = \"Europe/Berlin\"\nstore = \"data/practice.sqlite\"\n".write(toFile: ws + "/egofix.toml", atomically: true, encoding: .utf8)
        let r = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-16T08:00:00Z", in: ws, namingTheStore: false)
        XCTAssertEqual(r.status, 0, r.err)
        return ws
    }

    /// From a subfolder, egofix read no egofix.toml: it said "no store" at the default path, and
    /// the `init` it suggested started a second practice beside the workspace's. The workspace is
    /// now found as git finds a repository: the nearest egofix.toml from here up.
    func test_Workspace_aSubfolderUsesTheWorkspacesStoreAndSite() throws {
        let cli = try CLI()
        let ws = try workspace(cli)
        let deep = ws + "/notes/deep"
        let applied = try cli.run(["applied", "-m", "From a subfolder."], at: "2026-11-16T09:00:00Z", in: deep, namingTheStore: false)
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.out.contains("FIX APPLIED"), applied.out)
        let status = try cli.run(["status", "--json"], at: "2026-11-16T09:01:00Z", in: ws, namingTheStore: false)
        XCTAssertTrue(status.out.contains("\"streak\" : 1"), status.out)
        let again = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-16T09:02:00Z", in: deep, namingTheStore: false)
        XCTAssertEqual(again.status, 1, "a second practice was started from a subfolder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/.local/share/egofix/egofix.sqlite"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: deep + "/data"), "the workspace's relative store was read from the subfolder")

        // The site goes into the workspace's site/, named in full since it is not under this folder.
        let built = try cli.run(["build"], at: "2026-11-16T09:03:00Z", in: deep, namingTheStore: false)
        XCTAssertEqual(built.status, 0, built.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ws + "/site/index.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: deep + "/site"))
        XCTAssertTrue(built.out.contains("Open \(ws)/site/index.html"), built.out)
        // --out is the current folder's; it may not be the folder the build runs in (the check
        // looked at the workspace only, and `--out .` in a subfolder replaced the subfolder).
        let here = try cli.run(["build", "--out", "."], at: "2026-11-16T09:03:00Z", in: deep, namingTheStore: false)
        XCTAssertEqual(here.status, 1)
        XCTAssertTrue(here.err.contains("holds the folder you build in"), here.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: deep))
        let inSite = try cli.run(["build"], at: "2026-11-16T09:03:00Z", in: ws + "/site", namingTheStore: false)
        XCTAssertEqual(inSite.status, 1, "a build started inside the site replaced it: \(inSite.out)")
        XCTAssertTrue(inSite.err.contains("Run it from outside the output folder, or give another --out."), inSite.err)
        XCTAssertEqual(try cli.run(["build", "--out", ""], in: deep, namingTheStore: false).err, "egofix: --out is empty. Give a folder, or leave --out out for egofix.toml's output or site.\n")
        XCTAssertEqual(try cli.run(["build", "--out", "here"], at: "2026-11-16T09:03:00Z", in: deep, namingTheStore: false).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: deep + "/here/index.html"))

        // Outside the workspace, the default store is not there, and the refusal says what was
        // looked for and how a practice kept elsewhere is found, before offering a new one.
        let outside = try cli.run(["status"], at: "2026-11-16T09:04:00Z", in: cli.workdir, namingTheStore: false)
        XCTAssertEqual(outside.status, 1)
        XCTAssertTrue(outside.err.contains("the default: no --store, no EGOFIX_STORE, and no egofix.toml in this folder or above it names one. "
                                           + "A practice kept elsewhere is found from its workspace's folder, or named with --store or EGOFIX_STORE."), outside.err)
    }

    /// A missing store is refused saying where its path came from, so the place to put it right
    /// is named (an egofix.toml's store was refused with advice about --store).
    func test_Workspace_noStoreSaysWhereThePathCameFrom() throws {
        let cli = try CLI()
        let ws = cli.workdir + "/ws"
        try FileManager.default.createDirectory(atPath: ws, withIntermediateDirectories: true)
        try "store = \"gone.sqlite\"\n".write(toFile: ws + "/egofix.toml", atomically: true, encoding: .utf8)
        let toml = try cli.run(["today"], in: ws, namingTheStore: false)
        XCTAssertTrue(toml.err.hasPrefix("egofix: no store at gone.sqlite, named by `store` in \(ws)/egofix.toml. `egofix init --bug SLUG` starts one there"), toml.err)
        let env = try cli.run(["today"], env: ["EGOFIX_STORE": ws + "/e.sqlite"], in: ws, namingTheStore: false)
        XCTAssertTrue(env.err.hasPrefix("egofix: no store at \(ws)/e.sqlite, named by EGOFIX_STORE. Check the path;"), env.err)
        let flag = try cli.run(["today", "--store", "f.sqlite"], in: ws)
        XCTAssertTrue(flag.err.hasPrefix("egofix: no store at f.sqlite, named by --store. Check the path;"), flag.err)
        let build = try cli.run(["build"], in: ws, namingTheStore: false)
        XCTAssertTrue(build.err.contains("named by `store` in \(ws)/egofix.toml") && build.err.contains("`egofix build --demo` builds the demo site."), build.err)
        for r in [toml, env, flag, build] { XCTAssertEqual(r.status, 1, r.err) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/gone.sqlite"))
        // A path ending in "/" names a folder: refused before anything is made (init made the
        // folder, failed on it, and left it behind).
        try "store = \"newdir/\"\n".write(toFile: ws + "/egofix.toml", atomically: true, encoding: .utf8)
        let folder = try cli.run(["init", "--bug", "need-to-be-right"], in: ws, namingTheStore: false)
        XCTAssertEqual(folder.status, 1)
        XCTAssertTrue(folder.err.contains("ends in /, which names a folder; a store is one file, such as newdir/egofix.sqlite."), folder.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ws + "/newdir"))
        // Another account's egofix.toml above is passed over, and the refusal names it ("no
        // egofix.toml ... names one" sent the reader to a file that is there).
        guard getuid() == 0 else { return }
        try "store = \"gone.sqlite\"\n".write(toFile: ws + "/egofix.toml", atomically: true, encoding: .utf8)
        XCTAssertEqual(chown(ws + "/egofix.toml", 65534, 65534), 0)
        try FileManager.default.createDirectory(atPath: ws + "/sub", withIntermediateDirectories: true)
        let passed = try cli.run(["today"], in: ws + "/sub", namingTheStore: false)
        XCTAssertEqual(passed.status, 1, passed.err)
        XCTAssertTrue(passed.err.contains(", the default: no --store, no EGOFIX_STORE, and no egofix.toml in this folder or above it names one "
                                          + "(\(ws)/egofix.toml is another account's, and egofix reads only yours). "), passed.err)
    }

    /// An empty store setting meant the default store: a script's `--store "$STORE"` with the
    /// variable unset wrote into the person's own practice, and `egofix demo --store ""` filled it
    /// with a made-up year.
    func test_Workspace_anEmptyStoreSettingIsNeverTheDefaultStore() throws {
        let cli = try CLI()
        let ws = try workspace(cli)
        for blank in ["", "   "] {
            let flag = try cli.run(["status", "--store", blank], in: ws)
            XCTAssertEqual(flag.status, 1)
            XCTAssertTrue(flag.err.hasPrefix("egofix: --store is empty."), flag.err)
            XCTAssertEqual(try cli.run(["status"], env: ["EGOFIX_STORE": blank], in: ws, namingTheStore: false).status, 0, "a blank EGOFIX_STORE is unset")
        }
        let demo = try cli.run(["demo", "--store", ""], in: cli.workdir)
        XCTAssertEqual(demo.status, 1)
        XCTAssertTrue(demo.err.hasPrefix("egofix: --store is empty."), demo.err)
        // An empty EGOFIX_STORE is unset: egofix.toml's store is the one read.
        let env = try cli.run(["status", "--json"], at: "2026-11-16T09:00:00Z", env: ["EGOFIX_STORE": ""], in: ws, namingTheStore: false)
        XCTAssertEqual(env.status, 0, env.err)
        try "store = \"\"\n".write(toFile: ws + "/egofix.toml", atomically: true, encoding: .utf8)
        let toml = try cli.run(["demo"], in: ws, namingTheStore: false)
        XCTAssertEqual(toml.status, 1)
        XCTAssertEqual(toml.err, "egofix: \(ws)/egofix.toml:1: 'store' is empty; give a path, or leave store out for the default store, $XDG_DATA_HOME/egofix/egofix.sqlite.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/.local/share/egofix"))
        // The default store named by its own path is the default store: demo leaves it alone,
        // also before it exists (it was filled, and `init` then found a practice there).
        let own = cli.workdir + "/.local/share/egofix/egofix.sqlite"
        for named in [["--store", own], ["--store", cli.workdir + "/.local/share/egofix/../egofix/egofix.sqlite"]] {
            let r = try cli.run(["demo"] + named, in: cli.workdir)
            XCTAssertEqual(r.status, 1, r.out)
            XCTAssertTrue(r.err.contains("it would go into your own store, \(own)."), r.err)
        }
        let byEnv = try cli.run(["demo"], env: ["EGOFIX_STORE": ".local/share/egofix/egofix.sqlite"], in: cli.workdir, namingTheStore: false)
        XCTAssertEqual(byEnv.status, 1, byEnv.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: own))
        try "store = \"~/.local/share/egofix/egofix.sqlite\"\n".write(toFile: ws + "/egofix.toml", atomically: true, encoding: .utf8)
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], in: ws, namingTheStore: false).status, 0)
        let named = try cli.run(["demo"], in: ws, namingTheStore: false)
        XCTAssertEqual(named.status, 1)
        XCTAssertTrue(named.err.contains("it would go into your own store, \(own)."), named.err)
    }

    /// "~/" reached egofix unexpanded from EGOFIX_STORE or `--store=~/...`, and `init` made a
    /// folder named "~" in whatever folder it ran in: one practice per folder.
    func test_Workspace_tildeIsTheHomeInEveryStoreSetting() throws {
        let cli = try CLI()
        let somewhere = cli.workdir + "/somewhere"
        try FileManager.default.createDirectory(atPath: somewhere, withIntermediateDirectories: true)
        let r = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-11-16T08:00:00Z", env: ["EGOFIX_STORE": "~/mine.sqlite"],
                            in: somewhere, namingTheStore: false)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/mine.sqlite"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: somewhere + "/~"))
        let flag = try cli.run(["status", "--store=~/mine.sqlite"], at: "2026-11-16T08:01:00Z", in: somewhere, namingTheStore: false)
        XCTAssertEqual(flag.status, 0, flag.err)
        // An output of "~/out" is under the home folder, not in a folder named "~".
        try "output = \"~/out\"\n".write(toFile: somewhere + "/egofix.toml", atomically: true, encoding: .utf8)
        let built = try cli.run(["build", "--store", cli.workdir + "/mine.sqlite"], at: "2026-11-16T08:02:00Z", in: somewhere)
        XCTAssertEqual(built.status, 0, built.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.workdir + "/out/index.html"))
    }

    /// A setting only a build reads (an empty title, a base_url with no host, an empty output or
    /// content), which an earlier egofix took, does not stop the day: `today` and `applied` work and
    /// say it on standard error; `build` stops on it, naming file and line.
    func test_Config_aSiteSettingProblemStopsOnlyTheBuild() throws {
        let cli = try CLI()
        try "title = \"\"\nbase_url = \"https://\"\n".write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        let start = try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-03-02T08:00:00+01:00")
        XCTAssertEqual(start.status, 0, start.err)
        XCTAssertTrue(start.err.contains("egofix: warning: \(cli.workdir)/egofix.toml:1: 'title' has nothing to show"), start.err)
        XCTAssertTrue(start.err.contains("egofix.toml:2: base_url needs a host"), start.err)
        XCTAssertTrue(start.err.contains("Only a build reads it, and stops on it until it is mended."), start.err)
        let applied = try cli.run(["applied", "-m", "Marked all the same."], at: "2026-03-02T19:00:00+01:00")
        XCTAssertEqual(applied.status, 0, applied.err)
        let json = try cli.run(["status", "--json"], at: "2026-03-02T19:05:00+01:00")
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(json.out.utf8)), "standard output stays JSON")
        let build = try cli.run(["build", "--out", cli.workdir + "/site"], at: "2026-03-02T19:10:00+01:00")
        XCTAssertEqual(build.status, 1)
        XCTAssertEqual(build.err, "egofix: \(cli.workdir)/egofix.toml:1: 'title' has nothing to show; give the site a name, or leave title out for \"EgoFix\".\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.workdir + "/site"))
        // Over a cap or holding a control character is the same kind of problem: it stopped every
        // command, the day's mark included.
        let long = String(repeating: "t", count: 201), url = "https://example.org/" + String(repeating: "a", count: 2048)
        try "title = \"\(long)\"\noutput = \"o\\u0007\"\nbase_url = \"\(url)\"\ncontent = \"c\\u001b[2J\"\n"
            .write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        let next = try cli.run(["applied", "-m", "Marked the next day too."], at: "2026-03-03T19:00:00+01:00")
        XCTAssertEqual(next.status, 0, next.err)
        for said in ["egofix.toml:1: 'title' is 201 characters long", "egofix.toml:2: 'output' holds the control character U+7",
                     "egofix.toml:3: 'base_url' is 2068 characters long", "egofix.toml:4: 'content' holds the control character U+1B"] {
            XCTAssertTrue(next.err.contains("egofix: warning: \(cli.workdir)/" + said), next.err)
        }
        let stopped = try cli.run(["build", "--out", cli.workdir + "/site"], at: "2026-03-03T19:10:00+01:00")
        XCTAssertEqual(stopped.status, 1)
        XCTAssertTrue(stopped.err.hasPrefix("egofix: \(cli.workdir)/egofix.toml:1: 'title' is 201 characters long, over the limit of 200"), stopped.err)
        // A value of the wrong type too (`title = 5` stopped `applied`).
        try "title = 5\nbase_url = 5\n".write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        let typed = try cli.run(["applied", "-m", "And the day after."], at: "2026-03-04T19:00:00+01:00")
        XCTAssertEqual(typed.status, 0, typed.err)
        XCTAssertTrue(typed.err.contains("egofix: warning: \(cli.workdir)/egofix.toml:1: 'title' must be a quoted string"), typed.err)
        XCTAssertTrue(typed.err.contains("egofix.toml:2: 'base_url' must be a quoted string"), typed.err)
        XCTAssertEqual(try cli.run(["build", "--out", cli.workdir + "/site"], at: "2026-03-04T19:10:00+01:00").status, 1)
    }

    /// "UTC+3" in egofix.toml was three hours ahead (Foundation's reading), in TZ three hours
    /// behind (the C library's): the same text gave days six hours apart, and `remind --install`
    /// wrote a timer systemd could not read. An offset is refused in egofix.toml, with the name to use.
    func test_Config_anOffsetTimeZoneIsRefusedWithTheNameToUse() throws {
        let cli = try CLI()
        try "time_zone = \"UTC+3\"\n".write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        let r = try cli.run(["bugs"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("egofix.toml:1: time_zone 'UTC+3' is an offset") && r.err.contains("Etc/GMT-3 for three hours ahead of UTC"), r.err)
        // An abbreviation is read as a place by egofix and as UTC by the C library and systemd.
        try "time_zone = \"PST\"\n".write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        let pst = try cli.run(["bugs"])
        XCTAssertEqual(pst.status, 1)
        XCTAssertTrue(pst.err.contains("time_zone 'PST' is an abbreviation, which the C library and systemd read as UTC; use the zone's name, such as America/Los_Angeles."), pst.err)
        try "time_zone = \"Etc/GMT-3\"\n".write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        XCTAssertEqual(try cli.run(["bugs"]).status, 0)
        let tz = try cli.run(["bugs"], env: ["TZ": "PST"])
        XCTAssertEqual(tz.status, 0, "egofix.toml's zone comes first: \(tz.err)")
        try FileManager.default.removeItem(atPath: cli.workdir + "/egofix.toml")
        let env = try cli.run(["bugs"], env: ["TZ": "PST"])
        XCTAssertEqual(env.status, 1)
        XCTAssertTrue(env.err.contains("TZ 'PST' is an abbreviation"), env.err)
        XCTAssertEqual(try cli.run(["bugs"], env: ["TZ": "EST"]).status, 0, "EST is a zone file as well")
    }
}
