import EgoFixCore
@testable import EgoFixSite
import XCTest

/// The writer removes the previous site with `FolderTree.removeListingFiles` (on every core) and
/// reports what it held. On random trees: the list is what a reader of the folder saw, the tree is
/// gone, and nothing a link in it points to is touched, inside or outside it.
final class FolderTreeTests: XCTestCase {
    func test_removeListingFiles_listsWhatFilesSawRemovesAllAndFollowsNoLink() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("egofix-tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        // Outside the tree: a folder and a file that links in the tree point to.
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("keep"), withIntermediateDirectories: true)
        let keptFile = outside.appendingPathComponent("keep/notes.txt")
        _ = FileManager.default.createFile(atPath: keptFile.path, contents: Data("mine".utf8))
        var rng = SplitMix64(seed: 31)
        for round in 0..<40 {
            let root = base.appendingPathComponent("site-\(round)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            var folders = [""]
            for _ in 0..<rng.below(60) {
                let parent = rng.pick(folders)
                let name = "n\(rng.below(1000))"
                let path = parent.isEmpty ? name : parent + "/" + name
                let url = root.appendingPathComponent(path)
                if FileManager.default.fileExists(atPath: url.path) { continue }
                switch rng.below(10) {
                case 0..<3:
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
                    folders.append(path)
                case 3:
                    try FileManager.default.createSymbolicLink(at: url, withDestinationURL: outside.appendingPathComponent("keep"))
                case 4:
                    try FileManager.default.createSymbolicLink(at: url, withDestinationURL: keptFile)
                case 5:
                    try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "missing-\(round)")
                default:
                    _ = FileManager.default.createFile(atPath: url.path, contents: Data(path.utf8))
                }
            }
            let seen = siteFiles(root)
            XCTAssertEqual(FolderTree.removeListingFiles(root.path), seen, "round \(round)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.path), "round \(round): the tree is still there")
            XCTAssertEqual(FileManager.default.contents(atPath: keptFile.path), Data("mine".utf8), "round \(round)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: outside.appendingPathComponent("keep").path), "round \(round)")
        }
        // Nothing there: nothing listed, nothing done.
        XCTAssertEqual(FolderTree.removeListingFiles(base.appendingPathComponent("none").path), [])
    }
}
