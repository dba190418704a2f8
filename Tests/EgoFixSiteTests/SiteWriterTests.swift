import EgoFixCore
@testable import EgoFixSite
import XCTest

final class SiteWriterTests: XCTestCase {
    /// Paths sorted by bytes come out in the order String's `<` gives, and text that is not all
    /// ASCII is sorted as Strings.
    func test_pathOrder_sortsAsStringsDo() {
        let ascii = ["weeks/2020-W10/index.html", "weeks/2020-W1/index.html", "weeks/2020-W01/index.html", "Weeks/x", "",
                     "a", "a/", "a/b", "a-b", "a.b", "a b", "A", "z", "share/fix-006/card.png", "share/fix-006/card.svg",
                     "share/fix-006/index.html", "share/index.html", "share/share.css", "404.html", "index.html", "~", "a\u{7f}"]
        XCTAssertEqual(PathOrder.sorted(ascii), ascii.sorted())
        XCTAssertEqual(PathOrder.sorted(ascii.reversed()), ascii.sorted())
        let mixed = ascii + ["pages/caf\u{e9}/index.html", "pages/cafe\u{301}/index.html", "pages/cafe/index.html", "\u{1F600}", "\u{e9}"]
        XCTAssertEqual(PathOrder.sorted(mixed), mixed.sorted())
        let set = Set(ascii)
        XCTAssertEqual(PathOrder.sorted(set), set.sorted())
    }

    /// A symbolic link to the output folder is followed, however the path is written: the site
    /// is written and swapped where it really is and the link stays a link. A folder not made yet
    /// keeps the path as given.
    func test_write_followsALinkToTheOutputFolder() throws {
        let dir = try TempDir()
        let real = dir.url.appendingPathComponent("real"), link = dir.url.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real")
        let resolvedDir = try XCTUnwrap(realpath(dir.url.path, nil).map { p in defer { free(p) }; return String(cString: p) })
        for given in [link.path, link.path + "/", dir.url.path + "/real/../link", dir.url.path + "//link"] {
            XCTAssertEqual(SiteWriter(output: URL(fileURLWithPath: given)).output.path, resolvedDir + "/real", given)
        }
        XCTAssertEqual(SiteWriter(output: URL(fileURLWithPath: dir.url.path + "/new")).output.path, dir.url.path + "/new")
        try SiteWriter(output: link).write(files([("index.html", "i")]))
        try SiteWriter(output: link).write(files([("index.html", "j")]))
        XCTAssertEqual(tree(real), ["index.html": "j", SiteWriter.markerName: SiteWriter.markerText])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "real")
    }

    func test_pathName_plainAbsolutePaths() {
        for plain in ["/a", "/a/b", "/a/b/", "/a/.b/c..d", "/a/.../b"] { XCTAssertTrue(PathName.isPlainAbsolute(plain), plain) }
        for other in ["", "/", "a/b", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "//a", "/a//"] {
            XCTAssertFalse(PathName.isPlainAbsolute(other), other)
        }
    }

    func test_write_firstBuildWritesEverythingAndMarksTheFolder() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let report = try SiteWriter(output: site).write(files([("index.html", "i"), ("share/fix-001.svg", "s")]))
        XCTAssertEqual(report, SiteWriteReport(written: ["index.html", "share/fix-001.svg"]))
        XCTAssertEqual(tree(site), ["index.html": "i", "share/fix-001.svg": "s",
                                    SiteWriter.markerName: SiteWriter.markerText])
        // Nothing left next to the output.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path), ["site"])
    }

    func test_write_unchangedFilesKeepInodeAndMtime_changedChange_removedDisappear() throws {
        #if os(Linux)
        XCTAssertNotNil(Exchange.function, "renameat2 not found: the one-step swap is not in use")
        #endif
        for strategy in [SiteWriter.SwapStrategy.exchange, .renamePair] {
            let dir = try TempDir()
            let site = dir.url.appendingPathComponent("site")
            let writer = SiteWriter(output: site, swapStrategy: strategy)
            try writer.write(files([("index.html", "same"), ("week/2026-W47.html", "old"), ("gone.html", "x"),
                                    ("old/deep/file.css", "y")]))
            let same = site.appendingPathComponent("index.html")
            let changed = site.appendingPathComponent("week/2026-W47.html")
            try age(same)
            try age(changed)
            let sameInode = try inode(same), sameMtime = try mtime(same)
            let changedInode = try inode(changed), changedMtime = try mtime(changed)

            let report = try writer.write(files([("week/2026-W47.html", "new"), ("index.html", "same"),
                                                 ("added.html", "a")]))
            XCTAssertEqual(report, SiteWriteReport(written: ["added.html", "week/2026-W47.html"],
                                                   unchanged: ["index.html"],
                                                   removed: ["gone.html", "old/deep/file.css"]), "\(strategy)")
            XCTAssertEqual(try inode(same), sameInode)
            XCTAssertEqual(try mtime(same), sameMtime)
            XCTAssertNotEqual(try inode(changed), changedInode)
            XCTAssertNotEqual(try mtime(changed), changedMtime)
            XCTAssertEqual(tree(site), ["index.html": "same", "week/2026-W47.html": "new", "added.html": "a",
                                        SiteWriter.markerName: SiteWriter.markerText])
            XCTAssertFalse(FileManager.default.fileExists(atPath: site.appendingPathComponent("old").path),
                           "empty folders of the previous site remain")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path), ["site"])
        }
    }

    func test_write_sameInputTwiceRewritesNothing() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let input = files([("a.html", "a"), ("b/c.html", "c")])
        try SiteWriter(output: site).write(input)
        let report = try SiteWriter(output: site).write(input)
        XCTAssertEqual(report, SiteWriteReport(unchanged: ["a.html", "b/c.html"]))
        XCTAssertEqual(report.summary, "0 written, 2 unchanged, 0 removed")
    }

    func test_build_failureMidBuildLeavesTheOldTreeIntact() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let writer = SiteWriter(output: site)
        try writer.write(files([("index.html", "v1"), ("week.html", "w1")]))
        let before = tree(site)
        let inodeBefore = try inode(site.appendingPathComponent("index.html"))

        // A page fails half-way: the build throws before commit.
        struct PageFailed: Error {}
        XCTAssertThrowsError(try {
            let build = try writer.begin()
            try build.add("index.html", Data("v2".utf8))
            try build.add("new.html", Data("n".utf8))
            throw PageFailed()
        }())
        XCTAssertEqual(tree(site), before)
        XCTAssertEqual(try inode(site.appendingPathComponent("index.html")), inodeBefore)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path), ["site"])

        // An invalid file aborts `write` the same way.
        XCTAssertThrowsError(try writer.write(files([("index.html", "v3"), ("../escape.html", "x")])))
        XCTAssertEqual(tree(site), before)
    }

    func test_build_interruptedProcessLeavesOldTreeAndNextBuildRecovers() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let writer = SiteWriter(output: site)
        try writer.write(files([("index.html", "v1")]))
        // What a killed build leaves behind: a half-written build folder.
        try dir.write(".site.egofix-build/index.html", "half")
        XCTAssertEqual(tree(site)["index.html"], "v1")
        let report = try writer.write(files([("index.html", "v2")]))
        XCTAssertEqual(report.written, ["index.html"])
        XCTAssertEqual(tree(site)["index.html"], "v2")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.url.path), ["site"])
    }

    func test_build_killedBetweenTheTwoRenamesRestoresThePreviousSite() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let writer = SiteWriter(output: site, swapStrategy: .renamePair)
        try writer.write(files([("index.html", "v1")]))
        // The fallback swap died after moving the old site aside.
        try FileManager.default.moveItem(at: site, to: dir.url.appendingPathComponent(".site.egofix-old"))
        let build = try writer.begin()
        XCTAssertEqual(tree(site)["index.html"], "v1", "previous site restored before building")
        build.abandon()
        XCTAssertEqual(tree(site)["index.html"], "v1")
    }

    func test_write_throughASymlinkedOutputReplacesTheRealFolderAndKeepsTheLink() throws {
        let dir = try TempDir()
        let real = dir.url.appendingPathComponent("real-site")
        let link = dir.url.appendingPathComponent("site")
        try SiteWriter(output: real).write(files([("a.html", "1")]))
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let report = try SiteWriter(output: link).write(files([("a.html", "1"), ("b.html", "2")]))
        XCTAssertEqual(report, SiteWriteReport(written: ["b.html"], unchanged: ["a.html"]))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), real.path)
        XCTAssertEqual(tree(real)["b.html"], "2")
    }

    func test_begin_refusesAFolderEgoFixDidNotMake() throws {
        let dir = try TempDir()
        try dir.write("home/notes.txt", "precious")
        let home = dir.url.appendingPathComponent("home")
        XCTAssertThrowsError(try SiteWriter(output: home).write(files([("index.html", "x")]))) { error in
            XCTAssertEqual(error as? SiteWriterError, .notASiteFolder(home.path))
        }
        XCTAssertEqual(tree(home), ["notes.txt": "precious"])
    }

    func test_begin_acceptsAnEmptyFolderOrALoneGitkeep() throws {
        let dir = try TempDir()
        try dir.write("site/.gitkeep", "")
        let report = try SiteWriter(output: dir.url.appendingPathComponent("site")).write(files([("a", "a")]))
        XCTAssertEqual(report.removed, [".gitkeep"])
    }

    func test_begin_secondConcurrentBuildIsRefused() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let first = try SiteWriter(output: site).begin()
        XCTAssertThrowsError(try SiteWriter(output: site).begin()) { error in
            XCTAssertEqual(error as? SiteWriterError, .busy(site.path))
        }
        first.abandon()
        XCTAssertNoThrow(try SiteWriter(output: site).begin().abandon())
    }

    func test_add_rejectsBadDuplicateAndConflictingPaths() throws {
        let dir = try TempDir()
        let build = try SiteWriter(output: dir.url.appendingPathComponent("site")).begin()
        defer { build.abandon() }
        for bad in ["", "/etc/passwd", "a/../b", "./a", "a//b", "a\u{0}b", SiteWriter.markerName] {
            XCTAssertThrowsError(try build.add(bad, Data()), bad)
        }
        try build.add("a/b.html", Data())
        XCTAssertThrowsError(try build.add("a/b.html", Data())) { XCTAssertEqual($0 as? SiteWriterError, .duplicatePath("a/b.html")) }
        XCTAssertThrowsError(try build.add("a", Data()))
        XCTAssertThrowsError(try build.add("a/b.html/c", Data()))
    }

    /// Each bad path is refused for its first fault, checked in a fixed order: empty, absolute,
    /// control character or backslash, bad segment, reserved name.
    func test_reserve_saysWhatIsWrongWithAPath() throws {
        let dir = try TempDir()
        let build = try SiteWriter(output: dir.url.appendingPathComponent("site")).begin()
        defer { build.abandon() }
        let segment = "empty, '.' or '..' segment", control = "control character or backslash in the path"
        let cases: [(String, String)] = [
            ("", "empty path"), ("/etc/passwd", "absolute path"), ("/a\u{0}", "absolute path"), ("a\u{0}b", control),
            ("a\\b", control), ("a\u{1f}/../b", control), ("a/\u{7}", control), ("a/../b", segment), ("./a", segment),
            ("a//b", segment), ("a/", segment), ("..", segment), (".", segment), ("a/b/..", segment),
            ("/\u{301}x", segment), (SiteWriter.markerName, "reserved name"),
        ]
        for (bad, reason) in cases {
            XCTAssertThrowsError(try build.reserve([bad]), bad.debugDescription) {
                XCTAssertEqual($0 as? SiteWriterError, .invalidPath(bad, reason: reason), bad.debugDescription)
            }
        }
        try build.reserve(["...", "a/.b", "a/..c/x..", "caf\u{e9}/\u{301}x/index.html", "a/b"])
        XCTAssertThrowsError(try build.reserve(["a/b/c"])) { XCTAssertEqual($0 as? SiteWriterError, .pathConflict("a/b/c", with: "a/b")) }
        XCTAssertThrowsError(try build.reserve(["caf\u{e9}"])) {
            XCTAssertEqual($0 as? SiteWriterError, .pathConflict("caf\u{e9}", with: "caf\u{e9}/..."))
        }
    }

    /// Within one list a file and a folder of the same name conflict whichever comes first, also
    /// when the paths around them share their folders.
    func test_reserve_findsConflictsBesidePathsThatShareFolders() throws {
        let cases: [([String], SiteWriterError)] = [
            (["a/b", "a/b/c"], .pathConflict("a/b/c", with: "a/b")),
            (["x/y/1.html", "x/y/2.html", "x/y"], .pathConflict("x/y", with: "x/y/...")),
            (["q/r/s.html", "q/r.html", "q/r/t.html", "q/r"], .pathConflict("q/r", with: "q/r/...")),
            (["m/n.html", "m/n.html/o"], .pathConflict("m/n.html/o", with: "m/n.html")),
            (["p/q/r/s", "p/q/r/t", "p/q"], .pathConflict("p/q", with: "p/q/...")),
        ]
        for (paths, error) in cases {
            let dir = try TempDir()
            let build = try SiteWriter(output: dir.url.appendingPathComponent("site")).begin()
            defer { build.abandon() }
            XCTAssertThrowsError(try build.reserve(paths), paths.description) { XCTAssertEqual($0 as? SiteWriterError, error, paths.description) }
            // All or none: after the refusal the good paths can still be reserved.
            try build.reserve(Array(paths.dropLast()))
        }
    }

    /// Pages are written by the threads that render them: every reserved file lands once, in its
    /// own folder, with the stamp the next build's no-change check will compare against.
    func test_put_fromManyThreadsWritesEveryReservedFileWithItsStamp() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let writer = SiteWriter(output: site)
        try writer.write(files([("weeks/2026-W01/index.html", "same")]))
        let paths = (1...200).map { String(format: "weeks/2026-W%02d/index.html", ($0 % 52) + 1) + ($0 > 52 ? ".\($0)" : "") }
        let build = try writer.begin()
        try build.reserve(paths)
        let outcomes = Parallel.map(Array(paths.enumerated())) { i, path in
            Result { try build.put(path, Data((path == "weeks/2026-W01/index.html" ? "same" : "page \(i)").utf8)) }
        }
        for outcome in outcomes { XCTAssertNoThrow(try outcome.get()) }
        XCTAssertThrowsError(try build.put(paths[0], Data())) { XCTAssertEqual($0 as? SiteWriterError, .duplicatePath(paths[0])) }
        XCTAssertThrowsError(try build.put("not/reserved.html", Data()))
        let stamps = build.fileStamps
        let folderStamps = build.folderStamps
        let report = try build.commit()
        XCTAssertEqual(report.unchanged, ["weeks/2026-W01/index.html"])
        XCTAssertEqual(report.written.count, paths.count - 1)
        XCTAssertEqual(Set(tree(site).keys), Set(paths + [SiteWriter.markerName]))
        for path in paths {
            XCTAssertEqual(stamps[path], SiteManifest.stamp(site.appendingPathComponent(path).path), path)
        }
        // Each folder below the top was stamped when its last entry was made, and that is how it stayed.
        let folders = Set(paths.map { SiteBuild.parent($0) }).union(["weeks"])
        XCTAssertEqual(Set(folderStamps.keys), folders)
        for folder in folders {
            XCTAssertEqual(folderStamps[folder], SiteManifest.stamp(site.appendingPathComponent(folder).path, folder: true), folder)
        }
    }

    /// Paths are split at the byte "/", as the file system splits them, even where a combining
    /// mark after the slash would make "/" part of a larger Character.
    func test_paths_splitAtTheSlashByteEvenBeforeACombiningMark() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let path = "pages/\u{301}note/index.html"
        try SiteWriter(output: site).write(files([(path, "x"), ("pages/plain/index.html", "y")]))
        XCTAssertEqual(tree(site)[path], "x")
        XCTAssertEqual(SiteBuild.parent(path), "pages/\u{301}note")
        XCTAssertEqual(SiteBuild.parent("index.html"), "")
        let build = try SiteWriter(output: site).begin()
        XCTAssertThrowsError(try build.reserve([path, "pages/\u{301}note"])) {
            XCTAssertEqual($0 as? SiteWriterError, .pathConflict("pages/\u{301}note", with: "pages/\u{301}note/..."))
        }
        build.abandon()
    }

    /// A path reserved but never written fails the build instead of leaving a hole in the site.
    func test_commit_withAReservedFileMissingFailsAndKeepsThePreviousSite() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let writer = SiteWriter(output: site)
        try writer.write(files([("index.html", "v1")]))
        let build = try writer.begin()
        try build.reserve(["index.html", "week.html"])
        try build.put("index.html", Data("v2".utf8))
        XCTAssertThrowsError(try build.commit()) {
            XCTAssertEqual($0 as? SiteWriterError, .invalidPath("week.html", reason: "reserved but never written"))
        }
        XCTAssertEqual(tree(site)["index.html"], "v1")
        XCTAssertNil(tree(site)["week.html"])
        // A bad path anywhere in a reservation reserves none of it.
        let again = try writer.begin()
        XCTAssertThrowsError(try again.reserve(["a.html", "../b.html"]))
        XCTAssertNoThrow(try again.reserve(["a.html"]))
        again.abandon()
    }

    func test_commit_twiceIsAnError() throws {
        let dir = try TempDir()
        let build = try SiteWriter(output: dir.url.appendingPathComponent("site")).begin()
        try build.commit()
        XCTAssertThrowsError(try build.commit())
        XCTAssertThrowsError(try build.add("x", Data()))
    }

    /// An output folder that is a mount point cannot be swapped by a rename: the error says what
    /// to do ("Device or resource busy" said nothing more).
    func test_swapIntoAMountPointSaysWhatToDo() {
        let writer = SiteWriter(outputPath: "/mnt/share")
        XCTAssertEqual(writer.swapReason(EBUSY), "Device or resource busy: it is a mount point, and a build replaces its output folder whole. "
                       + "Build into a folder inside it, such as /mnt/share/site. The previous site is kept.")
        XCTAssertEqual(writer.swapReason(EACCES), "Permission denied. The previous site is kept.")
    }
}
