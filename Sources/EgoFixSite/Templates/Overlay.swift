import EgoFixResources
import EgoFixCore
import Foundation

/// A file from the built-in set or from the user's folder of the same name, which overrides the
/// built-in file with the same relative path.
public struct OverlayFile: Sendable, Equatable {
    /// Relative path inside the folder, with "/" separators ("partials/header.mustache").
    public let path: String
    public let data: Data
    /// Where it came from, for messages: "Templates/layout.mustache (built-in)" or the user file's path.
    public let origin: String
    public let isBuiltIn: Bool
}

enum Overlay {
    /// Merges built-in files with the files under `folder` (if it exists), file by file.
    /// Hidden files and folders (names starting with ".") are ignored. Sorted by path.
    /// A file under `folder` may be a symbolic link only to somewhere inside `workspace` or
    /// `folder` itself, and must be a regular file: the files are published (assets as they are).
    static func merge(builtIn: [(path: String, data: Data)], builtInFolder: String,
                      folder: URL?, workspace: URL?) throws -> [OverlayFile] {
        try mergeNamingHidden(builtIn: builtIn, builtInFolder: builtInFolder, folder: folder, workspace: workspace).files
    }

    /// `merge`, and the hidden files and folders under `folder` that it left out (their paths,
    /// the outermost hidden name of each), sorted.
    static func mergeNamingHidden(builtIn: [(path: String, data: Data)], builtInFolder: String,
                                  folder: URL?, workspace: URL?) throws -> (files: [OverlayFile], hidden: [String]) {
        var byPath: [String: OverlayFile] = [:]
        for file in builtIn where !isHidden(file.path) {
            byPath[file.path] = OverlayFile(path: file.path, data: file.data,
                                            origin: "\(builtInFolder)/\(file.path) (built-in)", isBuiltIn: true)
        }
        var hidden: [String] = []
        if let folder {
            let read = try readFolder(folder, workspace: workspace)
            // A folder with a built-in file's name overrides nothing: said, not skipped without a word.
            if let path = read.folders.first(where: { byPath[$0] != nil }) {
                throw TemplateError.refused(path: folder.appendingPathComponent(path).path,
                                            reason: "a folder with the name of the built-in file it would override; overrides are files. Rename or remove the folder")
            }
            for file in read.files {
                byPath[file.path] = file
            }
            hidden = read.hidden
        }
        return (byPath.keys.sorted().compactMap { byPath[$0] }, hidden)
    }

    /// Every file under `folder` (following symbolic links to files inside `workspace` or
    /// `folder`), sorted by path, with the hidden names it left out and the folders in it (not
    /// hidden), sorted. A missing folder is empty.
    static func readFolder(_ folder: URL, workspace: URL?) throws -> (files: [OverlayFile], hidden: [String], folders: [String]) {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: folder.path, isDirectory: &isDir) else { return ([], [], []) }
        guard isDir.boolValue else {
            throw TemplateError.unreadable(path: folder.path, reason: "it is a file, not a folder")
        }
        // The folder itself a link (Templates -> ../theme/Templates): not followed, as no link to
        // a folder is, and said (its files were left out without a word).
        var own = stat()
        if lstat(folder.path, &own) == 0, (own.st_mode & S_IFMT) == S_IFLNK {
            throw TemplateError.refused(path: folder.path, reason: "a symbolic link to a folder, which is not followed. Make it a folder, or link its files one by one")
        }
        guard let enumerator = fm.enumerator(atPath: folder.path) else {
            throw TemplateError.unreadable(path: folder.path, reason: "cannot list the folder")
        }
        var paths: [String] = [], hidden: [String] = [], folders: [String] = []
        while let next = enumerator.nextObject() as? String {
            if isHidden(next) {
                hidden.append(next)
                var d: ObjCBool = false
                if fm.fileExists(atPath: folder.appendingPathComponent(next).path, isDirectory: &d), d.boolValue {
                    enumerator.skipDescendants()
                }
                continue
            }
            var d: ObjCBool = false
            let full = folder.appendingPathComponent(next).path
            guard fm.fileExists(atPath: full, isDirectory: &d) else {
                // A link to nothing (its file moved or renamed) used to leave the built-in file in
                // place of the override without a word.
                var st = stat()
                if lstat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK {
                    let target = (try? fm.destinationOfSymbolicLink(atPath: full)) ?? "?"
                    throw TemplateError.refused(path: full, reason: "a symbolic link to \(target), which is not there. Point it at the file, or remove it")
                }
                // A name that is not UTF-8 comes back with U+FFFD in it, a path that is not there:
                // it was skipped without a word.
                if next.unicodeScalars.contains("\u{FFFD}") {
                    throw TemplateError.refused(path: full, reason: "a name that is not UTF-8 text (shown here with \u{FFFD}), which no page or path on the site can hold. Rename it")
                }
                continue
            }
            if !d.boolValue {
                paths.append(next)
                continue
            }
            // A link to a folder is not followed: said, not skipped without a word.
            var st = stat()
            if lstat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK {
                let target = RealPath.of(full) ?? full
                let inside = [workspace?.path, folder.path].compactMap { $0 }.compactMap { RealPath.of($0) }
                    .contains { target == $0 || target.hasPrefix($0 + "/") }
                throw TemplateError.refused(path: full, reason: inside
                    ? "a symbolic link to a folder, which is not followed. Move the folder in, or link its files"
                    : "a symbolic link to \(target), outside the workspace; it would be published. Copy the files in, or remove the link")
            }
            folders.append(next)
        }
        paths.sort()
        let published = PublishedFileCheck(folders: [workspace?.path, folder.path])
        let files = try paths.map { relative in
            let url = folder.appendingPathComponent(relative)
            let target: String
            switch published.check(url.path) {
            case .success(let t): target = t
            case .failure(.unreadable): throw TemplateError.unreadable(path: url.path, reason: "it cannot be resolved")
            case .failure(.linkOutside(let t)):
                throw TemplateError.refused(path: url.path, reason: "a symbolic link to \(t), outside the workspace; it would be published. Copy the file in, or remove the link")
            case .failure(.notAFile):
                throw TemplateError.refused(path: url.path, reason: "not a regular file; overrides are files, read and published as they are")
            }
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: target))
                return OverlayFile(path: relative, data: data, origin: url.path, isBuiltIn: false)
            } catch {
                throw TemplateError.unreadable(path: url.path, reason: error.localizedDescription)
            }
        }
        return (files, hidden.sorted(), folders.sorted())
    }

    static func isHidden(_ relativePath: String) -> Bool {
        relativePath.split(separator: "/").contains { $0.hasPrefix(".") }
    }
}
