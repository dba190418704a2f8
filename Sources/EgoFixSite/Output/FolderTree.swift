import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder tree on disk as the site writer reads and removes it: its files, and its removal
/// (no links followed).
enum FolderTree {
    /// Relative paths of the files under a folder (none if it does not exist), sorted: regular
    /// files, and links to anything but a folder.
    static func files(_ folder: URL) -> [String] {
        var out: [String] = []
        walk(folder.path, "", removing: false, into: &out)
        return PathOrder.sorted(out)
    }

    /// Removes a folder and everything in it (no links followed), its second-level folders on
    /// every core, and returns the relative paths of the files it held (a link to anything but a
    /// folder counts as a file, as `files` counts them), sorted. Nothing there: none.
    static func removeListingFiles(_ path: String) -> [String] {
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
            walk(subtree.full, subtree.relative + "/", removing: true, into: &found)
            return found
        }
        for folder in topFolders { rmdir(folder) }
        rmdir(path)
        return PathOrder.sorted(files + listed.flatMap { $0 })
    }

    /// The files under `folder` (their paths after `prefix`) into `found`; with `removing`, each
    /// entry is removed once listed, and the folder after them.
    private static func walk(_ folder: String, _ prefix: String, removing: Bool, into found: inout [String]) {
        for entry in entries(of: folder) {
            let full = folder + "/" + entry.name
            if entry.isFolder {
                walk(full, prefix + entry.name + "/", removing: removing, into: &found)
            } else {
                if countsAsFile(full, entry.type) { found.append(prefix + entry.name) }
                if removing { unlink(full) }
            }
        }
        if removing { rmdir(folder) }
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
