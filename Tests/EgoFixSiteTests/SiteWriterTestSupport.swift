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

    func tree(_ url: URL) -> [String: String] {
        var out: [String: String] = [:]
        for path in FolderTree.files(url) {
            out[path] = (try? String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)) ?? "?"
        }
        return out
    }
}
