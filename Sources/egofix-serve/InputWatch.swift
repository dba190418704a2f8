import Foundation
import EgoFixSite

/// What `egofix serve` polls a few times a second: the store file's identity (and its write-ahead
/// log's), egofix.toml, and the listings of content/, Templates/, Assets/ and Seeds/ with each
/// entry's size and times. Cheap: stat calls, no file is read.
enum InputWatch {
    static func fingerprint(store: String?, workspace: String, contentFolder: String, day: String) -> String {
        var parts = ["day \(day)"]
        if let store {
            for suffix in ["", "-wal", "-journal"] { parts.append(identity(store + suffix)) }
        }
        parts.append(identity(workspace + "/egofix.toml"))
        for folder in InputFolders.all(content: contentFolder) {
            let path = folder.hasPrefix("/") ? folder : workspace + "/" + folder
            parts.append("folder \(folder)")
            list(path, depth: 0, into: &parts)
        }
        return parts.joined(separator: "\n")
    }

    static func identity(_ path: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return "\(path) -" }
        return "\(path) \(st.st_ino) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) \(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
    }

    private static func list(_ folder: String, depth: Int, into parts: inout [String]) {
        guard depth < 16, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() {
            let path = folder + "/" + name
            parts.append(identity(path))
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                list(path, depth: depth + 1, into: &parts)
            }
        }
    }
}
