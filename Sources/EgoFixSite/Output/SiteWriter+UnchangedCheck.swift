import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SiteWriter {
    /// When the output folder holds exactly what `manifest` says the last build left (the same
    /// files, none touched since, none added), a report of all of them unchanged; else nil.
    public func unchanged(as manifest: SiteManifest.Listing) throws -> SiteWriteReport? {
        guard try unchangedCount(as: manifest) != nil else { return nil }
        // The manifest lists its files sorted; the report keeps that order (sorting again when
        // the file says otherwise) and names each file once.
        var files = manifest.files.map(\.path).filter { $0 != SiteWriter.markerName }
        if !PathOrder.isSortedAndUnique(files) { files = PathOrder.sorted(Set(files)) }
        return SiteWriteReport(unchanged: files)
    }

    /// The same check, answered with the number of files the site has (nil when something
    /// changed) and without making a string for each: all a rebuild with nothing to do reports.
    /// Holds the build lock while it looks, so it never sees another build half done.
    public func unchangedCount(as manifest: SiteManifest.Listing) throws -> Int? {
        var st = stat()
        // The output folder is there (else nothing matches), so its parent is: the build lock's
        // folder. No swap was left half done, and the folder is egofix's.
        guard stat(root, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, let slash = root.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            return nil
        }
        let parentPath = slash == root.utf8.startIndex ? "/" : String(root[..<slash])
        let lock = try FolderLock(path: parentPath, output: root)
        defer { lock.release() }
        let oldPath = String(root[..<slash]) + "/." + String(root[root.utf8.index(after: slash)...]) + ".egofix-old"
        guard stat(oldPath, &st) != 0, stat(root + "/" + SiteWriter.markerName, &st) == 0 else { return nil }
        // Every folder as the build left it (so nothing was added or removed), then every file:
        // each path handed to the system from the manifest's own bytes.
        guard manifest.folderLines.contains(where: { $0.count == 1 && manifest.text[Int($0.start)] == UInt8(ascii: ".") }) else { return nil }
        let dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return nil }
        defer { close(dir) }
        let folders = manifest.folderLines.count, total = folders + manifest.fileLines.count
        let chunk = 64
        let matches = Parallel.map(Array(stride(from: 0, to: total, by: chunk))) { first -> Bool in
            manifest.text.withUnsafeBufferPointer { text in
                guard let base = text.baseAddress else { return false }
                var st = stat()
                for i in first..<min(first + chunk, total) {
                    let (line, kind) = i < folders ? (manifest.folderLines[i], S_IFDIR) : (manifest.fileLines[i - folders], S_IFREG)
                    let matched = base.advanced(by: Int(line.start)).withMemoryRebound(to: CChar.self, capacity: Int(line.count) + 1) {
                        fstatat(dir, $0, &st, AT_SYMLINK_NOFOLLOW) == 0
                    }
                    guard matched, (st.st_mode & S_IFMT) == kind, SiteManifest.Stamp(st) == line.stamp else { return false }
                }
                return true
            }
        }
        guard !matches.contains(false) else { return nil }
        return manifest.fileCount(without: SiteWriter.markerName)
    }
}
