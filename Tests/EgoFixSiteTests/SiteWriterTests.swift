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

    private func inode(_ url: URL) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    private func mtime(_ url: URL) throws -> Date {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return attributes[.modificationDate] as? Date ?? .distantPast
    }

    /// Sets a file's modification time into the past, so a rewrite would be visible.
    private func age(_ url: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: url.path)
    }

    private func files(_ pairs: [(String, String)]) -> [(path: String, data: Data)] {
        pairs.map { ($0.0, Data($0.1.utf8)) }
    }

    private func tree(_ url: URL) -> [String: String] {
        var out: [String: String] = [:]
        for path in SiteBuild.filesUnder(url) {
            out[path] = (try? String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)) ?? "?"
        }
        return out
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

    /// The manifest a build leaves for the next one reads back as it was written, and a manifest
    /// from another version (or a damaged one) reads as none, so the next build does all the work.
    func test_manifest_roundTripsAndRejectsWhatItDidNotWrite() throws {
        typealias Stamp = SiteManifest.Stamp
        let m = SiteManifest(key: "abc123",
                             files: ["index.html": Stamp(size: 120, seconds: 1_763_000_000, nanoseconds: 5, inode: 42),
                                     "weeks/2026-W47/a page.html": Stamp(size: 0, seconds: -3, nanoseconds: 999_999_999, inode: UInt64.max)],
                             cardKeys: ["share/fix-037/card.png": "k1-k2"],
                             folders: ["": Stamp(size: 4096, seconds: 1, nanoseconds: 2, inode: 3),
                                       "weeks/2026-W47": Stamp(size: 60, seconds: 4, nanoseconds: 5, inode: 6)])
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try m.write(to: url)
        XCTAssertEqual(SiteManifest.read(url), m)
        for text in ["egofix site manifest 1\nk abc\n", "egofix site manifest 2\nk abc\nf 1 2 3 x\n", "egofix site manifest 2\nk abc\nz what\n", "",
                     "egofix site manifest 2\nk abc\nf 1 2 3 18446744073709551616 x\n", "egofix site manifest 2\nk abc\nf 1 2 3 99999999999999999999 x\n",
                     "egofix site manifest 2\nk abc\nf 1 -9223372036854775808 3 4 x\n"] {
            try Data(text.utf8).write(to: url)
            XCTAssertNil(SiteManifest.read(url), text)
        }
    }


    /// The manifest's numbers read back whatever their length, from one digit to twenty, signed or
    /// not, also in the file's last bytes; a number too long for 64 bits, one run into a letter, a
    /// lone minus sign or a line without its path makes it no manifest.
    func test_manifest_readsNumbersOfEveryLength() throws {
        typealias Stamp = SiteManifest.Stamp
        var files: [String: Stamp] = [:]
        var n: UInt64 = 0
        for digits in 1...19 {
            n = n * 10 + UInt64(digits % 10)
            let signed = Int64(truncatingIfNeeded: n)
            files[String(format: "p%02d.html", digits)] = Stamp(size: signed, seconds: -signed, nanoseconds: Int64(digits), inode: n)
        }
        files["q.html"] = Stamp(size: 12_345_678, seconds: 123_456_789, nanoseconds: 99_999_999, inode: UInt64.max)
        files["z"] = Stamp(size: 0, seconds: 1, nanoseconds: 9, inode: 7)  // the last line: its numbers are in the file's last bytes
        let m = SiteManifest(key: "k", files: files, cardKeys: [:], folders: ["": Stamp(size: 1, seconds: 2, nanoseconds: 3, inode: 4)])
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try m.write(to: url)
        XCTAssertEqual(SiteManifest.read(url), m)
        let head = "egofix site manifest 2\nk abc\n"
        for line in ["f 12345678x 2 3 4 p", "f 123456789012345678901 2 3 4 p", "f - 2 3 4 p", "f 1 2 3 4", "f 1 2 3 123456789", "f 1 2 3 12345678a p"] {
            try Data((head + line + "\n").utf8).write(to: url)
            XCTAssertNil(SiteManifest.read(url), line)
        }
    }

    /// A manifest made from the build's sorted list of files writes its lines in the same order
    /// as one made from the same files listed any other way, also after files are added to it.
    func test_manifest_linesDoNotDependOnTheOrderTheFilesCameIn() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        var paths = ["404.html", "a.b/x.html", "a/y.html", "a/z/index.html", "bugs/one/index.html", "index.html",
                     "share-x/card.png", "share/fix-1/index.html", "weeks/2026-W47/index.html", "weeks/2026-W48/index.html"]
        for path in paths {
            let url = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }
        paths.sort()
        let sorted = SiteManifest(key: "k", folder: site, files: paths, cardKeys: ["share-x/card.png": "c"])
        let shuffled = SiteManifest(key: "k", folder: site, files: [paths[3], paths[9], paths[0], paths[5], paths[1], paths[8], paths[2],
                                                                    paths[7], paths[4], paths[6]], cardKeys: ["share-x/card.png": "c"])
        XCTAssertEqual(sorted, shuffled)
        XCTAssertEqual(sorted.encoded(), shuffled.encoded())
        let lines = String(decoding: sorted.encoded(), as: UTF8.self).split(separator: "\n").map(String.init)
        let folders = lines.filter { $0.hasPrefix("d ") }.map { String($0.split(separator: " ").last ?? "") }
        XCTAssertEqual(folders, [".", "a", "a.b", "a/z", "bugs", "bugs/one", "share", "share-x", "share/fix-1", "weeks", "weeks/2026-W47",
                                 "weeks/2026-W48"])
        var grown = sorted, grownShuffled = shuffled
        let stamp = SiteManifest.Stamp(size: 1, seconds: 2, nanoseconds: 3, inode: 4)
        grown.files["aa.html"] = stamp
        grownShuffled.files["aa.html"] = stamp
        grown.folders["b"] = stamp
        grownShuffled.folders["b"] = stamp
        XCTAssertEqual(grown.encoded(), grownShuffled.encoded())
        XCTAssertTrue(String(decoding: grown.encoded(), as: UTF8.self).contains("aa.html"))
    }

    /// The manifest a build joins up from the lines it wrote as it went (each file's as it was put,
    /// each folder's as its last entry was made) has the bytes of the manifest made the long way,
    /// from every file and folder looked up after the build: for a first build, and for a rebuild
    /// that keeps some files (hard links) and writes others. There is none before the commit or
    /// for a build abandoned; for paths not reserved in order the build takes the long way itself.
    func test_manifest_writtenFromTheBuildsListsIsTheSameManifest() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        let writer = SiteWriter(output: site)
        let paths = PathOrder.sorted(["404.html", "a.b/x.html", "a/y.html", "a/z/index.html", "bugs/one/index.html", "index.html",
                                      "share-x/card.png", "share/fix-1/index.html", "weeks/2026-W47/index.html", "weeks/2026-W48/index.html"])
        let cards = ["share-x/card.png": "c", "share/fix-1/card.png": "d"]
        for round in 0..<2 {
            let build = try writer.begin()
            try build.reserve(paths)
            // The second round changes every other file and keeps the rest from the first.
            for (i, path) in paths.enumerated().reversed() { _ = try build.put(path, Data((path + (round == 1 && i % 2 == 0 ? "!" : "")).utf8)) }
            XCTAssertNil(build.manifest(key: "k", cardKeys: cards), "before the commit")
            let stamps = build.fileStamps, folderStamps = build.folderStamps
            let report = try build.commit()
            XCTAssertEqual(report.unchanged.count, round == 0 ? 0 : paths.count / 2)
            let long = SiteManifest(key: "k", folder: site, files: paths, cardKeys: cards).encoded()
            XCTAssertEqual(SiteManifest(key: "k", folder: site, files: paths, cardKeys: cards, known: stamps, knownFolders: folderStamps).encoded(),
                           long)
            let joined = try XCTUnwrap(build.manifest(key: "k", cardKeys: cards))
            XCTAssertEqual(String(decoding: joined, as: UTF8.self), String(decoding: long, as: UTF8.self))
            let text = String(decoding: joined, as: UTF8.self)
            XCTAssertTrue(text.contains(" weeks/2026-W48\n") && text.contains(" .\n") && text.contains("c d share/fix-1/card.png\n"), text)
        }
        let reversed = try writer.begin()
        try reversed.reserve(paths.reversed())
        for path in paths { _ = try reversed.put(path, Data(path.utf8)) }
        try reversed.commit()
        XCTAssertNil(reversed.joinedManifest(key: "k", cardKeys: cards))
        XCTAssertEqual(reversed.manifest(key: "k", cardKeys: cards), SiteManifest(key: "k", folder: site, files: paths.reversed(), cardKeys: cards).encoded())
        let abandoned = try writer.begin()
        try abandoned.reserve(paths)
        for path in paths { _ = try abandoned.put(path, Data(path.utf8)) }
        abandoned.abandon()
        XCTAssertNil(abandoned.manifest(key: "k", cardKeys: cards))
    }

    /// A rebuild with nothing changed checks every folder and file the manifest lists, straight
    /// from the manifest's bytes, across both cores: it answers with the files (or their number)
    /// when all match, each file once even when the manifest lists them out of order or twice, and
    /// with nothing (a full build) when a page late in the list was touched, a file was added to a
    /// folder, or the manifest holds a byte it never writes. A manifest missing its last newline
    /// reads as the same manifest.
    func test_unchanged_checksEveryListedPathFromTheManifestBytes() throws {
        let dir = try TempDir()
        let site = dir.url.appendingPathComponent("site")
        var pages: [(String, String)] = [("index.html", "i"), ("a page.html", "space")]
        for w in 1...52 { pages.append(("weeks/2026-W\(w < 10 ? "0" : "")\(w)/index.html", "week \(w)")) }
        for n in 1...40 { pages.append(("share/fix-\(n)/index.html", "fix \(n)")) }
        let writer = SiteWriter(output: site)
        _ = try writer.write(files(pages))
        let paths = PathOrder.sorted(pages.map(\.0))
        let manifestURL = dir.url.appendingPathComponent("m.manifest")
        try SiteManifest(key: "k", folder: site, files: paths, cardKeys: ["share/fix-1/card.png": "c1"]).write(to: manifestURL)
        let listing = try XCTUnwrap(SiteManifest.Listing.read(manifestURL))
        XCTAssertGreaterThan(listing.files.count + listing.folders.count, 2 * 64)  // three chunks of the check
        XCTAssertEqual(try writer.unchanged(as: listing), SiteWriteReport(unchanged: paths))
        XCTAssertEqual(try writer.unchangedCount(as: listing), paths.count)

        // The same bytes without the last newline; with a NUL in a path.
        let bytes = try Data(contentsOf: manifestURL)
        // The file lines out of order, one listed twice: still one count and one report per file.
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let fileLines = lines.filter { $0.hasPrefix("f ") }
        let shuffled = lines.filter { !$0.hasPrefix("f ") } + fileLines.reversed() + [fileLines[1]]
        try Data((shuffled.joined(separator: "\n") + "\n").utf8).write(to: manifestURL)
        let unordered = try XCTUnwrap(SiteManifest.Listing.read(manifestURL))
        XCTAssertEqual(unordered.files.count, paths.count + 1)
        XCTAssertEqual(try writer.unchangedCount(as: unordered), paths.count)
        XCTAssertEqual(try writer.unchanged(as: unordered), SiteWriteReport(unchanged: paths))
        try bytes.dropLast().write(to: manifestURL)
        XCTAssertEqual(SiteManifest.read(manifestURL), SiteManifest(listing))
        XCTAssertEqual(try writer.unchanged(as: try XCTUnwrap(SiteManifest.Listing.read(manifestURL))), SiteWriteReport(unchanged: paths))
        var damaged = bytes
        if let i = damaged.lastIndex(of: UInt8(ascii: "/")) { damaged[i] = 0 }
        try damaged.write(to: manifestURL)
        XCTAssertNil(SiteManifest.Listing.read(manifestURL))

        // A page near the end of the list with a new modification time; a file added to a folder.
        let late = site.appendingPathComponent("weeks/2026-W50/index.html")
        try age(late)
        XCTAssertNil(try writer.unchanged(as: listing))
        try SiteManifest(key: "k", folder: site, files: paths, cardKeys: [:]).write(to: manifestURL)
        let fresh = try XCTUnwrap(SiteManifest.Listing.read(manifestURL))
        XCTAssertNotNil(try writer.unchanged(as: fresh))
        try Data("stray".utf8).write(to: site.appendingPathComponent("share/fix-40/notes.txt"))
        XCTAssertNil(try writer.unchanged(as: fresh))
        XCTAssertNil(try writer.unchangedCount(as: fresh))
    }
}
