import EgoFixCore
@testable import EgoFixSite
import XCTest

/// The manifest a build leaves for the next one, and the no-change check that reads it.
final class SiteManifestTests: XCTestCase {
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

    /// The notes a build said are kept after its lines and read back as they were, so a rebuild
    /// with nothing changed says them again.
    func test_manifest_keepsTheNotesABuildSaid() throws {
        let notes = ["content/weeks/2026-W11.md is not on the site.", "a \\ backslash, a \\n that is not a newline", "two\nlines"]
        var bytes = SiteManifest(key: "k1", files: [:], cardKeys: ["share/a.png": "x"]).encoded()
        bytes.append(SiteManifest.noteLines(notes))
        let listing = try XCTUnwrap(SiteManifest.parse(Array(bytes)))
        XCTAssertEqual(listing.key, "k1")
        XCTAssertEqual(listing.notes, notes)
        XCTAssertEqual(listing.cards.map(\.path), ["share/a.png"])
        XCTAssertEqual(SiteManifest.parse(Array(SiteManifest(key: "k1", files: [:], cardKeys: [:]).encoded()))?.notes, [])
    }
}
