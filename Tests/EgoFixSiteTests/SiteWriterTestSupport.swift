import EgoFixCore
@testable import EgoFixSite
import XCTest

/// Helpers the writer's and the manifest's tests share.
extension XCTestCase {
    func inode(_ url: URL) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    func mtime(_ url: URL) throws -> Date {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return attributes[.modificationDate] as? Date ?? .distantPast
    }

    /// Sets a file's modification time into the past, so a rewrite would be visible.
    func age(_ url: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: url.path)
    }

    func files(_ pairs: [(String, String)]) -> [(path: String, data: Data)] {
        pairs.map { ($0.0, Data($0.1.utf8)) }
    }

    /// The files under a folder as a reader of the site sees them, sorted: regular files and links
    /// to anything but a folder (read independently of the writer's own walk, through FileManager).
    func siteFiles(_ url: URL) -> [String] {
        guard let listing = FileManager.default.enumerator(atPath: url.path) else { return [] }
        var out: [String] = []
        while let relative = listing.nextObject() as? String {
            let path = url.path + "/" + relative
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFREG: out.append(relative)
            case S_IFLNK: if stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR { out.append(relative) }
            default: break
            }
        }
        return PathOrder.sorted(out)
    }

    func tree(_ url: URL) -> [String: String] {
        var out: [String: String] = [:]
        for path in siteFiles(url) {
            out[path] = (try? String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)) ?? "?"
        }
        return out
    }
}
