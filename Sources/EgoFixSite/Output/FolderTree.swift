import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder tree on disk as the site writer removes it: the previous site after the swap, or
/// what an interrupted build left (no links followed).
enum FolderTree {
    /// Removes a folder and everything in it (no links followed), its second-level folders on
    /// every core, and returns the relative paths of the files it held (a link to anything but a
    /// folder counts as a file), sorted. Nothing there: none.
    static func removeListingFiles(_ path: String) -> [String] {
        let files = removalPass(path)
        guard exists(path) else { return files }
        // A folder its owner cannot write keeps its entries (a published site "protected" with
        // `chmod -R a-w`): the tree is egofix's own leftover, so its folders are made writable
        // and the removal is made again. What still stays is for the caller to report.
        makeWritable(path)
        let all = PathOrder.sorted(files + removalPass(path))
        return all.enumerated().filter { $0.offset == 0 || all[$0.offset - 1] != $0.element }.map(\.element)
    }

    /// Whether anything is at `path` (a link is not followed).
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// Gives every folder in the tree at `path` (no links followed) its owner's read, write and
    /// search permission, each before it is read.
    private static func makeWritable(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return }
        if st.st_mode & S_IRWXU != S_IRWXU { _ = chmod(path, (st.st_mode & 0o7777) | S_IRWXU) }
        for entry in entries(of: path) where entry.isFolder { makeWritable(path + "/" + entry.name) }
    }

    /// One removal of the tree at `path`: the files listed (sorted) and removed where their
    /// folders allow, folders removed once empty.
    private static func removalPass(_ path: String) -> [String] {
        var files: [String] = []
        var subtrees: [(full: String, relative: String)] = []
        var topFolders: [String] = []
        for top in entries(of: path) {
            let full = path + "/" + top.name
            guard top.isFolder else {
                if countsAsFile(full, top.type) { files.append(top.name) }
                unlink(full)
                continue
            }
            topFolders.append(full)
            for child in entries(of: full) {
                let childPath = full + "/" + child.name, relative = top.name + "/" + child.name
                if child.isFolder {
                    subtrees.append((childPath, relative))
                } else {
                    if countsAsFile(childPath, child.type) { files.append(relative) }
                    unlink(childPath)
                }
            }
        }
        let listed = Parallel.map(subtrees) { subtree -> [String] in
            var found: [String] = []
            removeListing(subtree.full, subtree.relative + "/", into: &found)
            return found
        }
        for folder in topFolders { rmdir(folder) }
        rmdir(path)
        return PathOrder.sorted(files + listed.flatMap { $0 })
    }

    /// The files under `folder` (their paths after `prefix`) into `found`, each entry removed once
    /// listed, and the folder after them.
    private static func removeListing(_ folder: String, _ prefix: String, into found: inout [String]) {
        for entry in entries(of: folder) {
            let full = folder + "/" + entry.name
            if entry.isFolder {
                removeListing(full, prefix + entry.name + "/", into: &found)
            } else {
                if countsAsFile(full, entry.type) { found.append(prefix + entry.name) }
                unlink(full)
            }
        }
        rmdir(folder)
    }

    /// The entries of a folder (not "." or ".."), each with its type (looked up when the folder
    /// does not say) and whether it is a folder (a link to one is not). None when it cannot be read.
    private static func entries(of folder: String) -> [(name: String, type: UInt8, isFolder: Bool)] {
        guard let d = opendir(folder) else { return [] }
        defer { closedir(d) }
        var out: [(name: String, type: UInt8, isFolder: Bool)] = []
        while let entry = readdir(d) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var type = entry.pointee.d_type
            if type == UInt8(DT_UNKNOWN) {
                var st = stat()
                if lstat(folder + "/" + name, &st) == 0 {
                    switch st.st_mode & S_IFMT {
                    case S_IFDIR: type = UInt8(DT_DIR)
                    case S_IFREG: type = UInt8(DT_REG)
                    case S_IFLNK: type = UInt8(DT_LNK)
                    default: break
                    }
                }
            }
            out.append((name, type, type == UInt8(DT_DIR)))
        }
        return out
    }

    /// Whether an entry of this type counts as a file of the site: a regular file, or a link to
    /// anything but a folder.
    private static func countsAsFile(_ path: String, _ type: UInt8) -> Bool {
        if type == UInt8(DT_REG) { return true }
        guard type == UInt8(DT_LNK) else { return false }
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR
    }

    /// Removes a folder and everything in it (no links followed); a file or link at `path` is
    /// removed itself.
    static func remove(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            unlink(path)
            return
        }
        _ = removeListingFiles(path)
    }
}
