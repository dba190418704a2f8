import EgoFixCore
import Foundation
import EgoFixStore

/// Writing a file the user named, without ever replacing something that is not a file
/// (`AtomicFile`, with the command's own lines).
enum SafeFile {
    static func notARegularFile(_ path: String) -> String? { AtomicFile.notARegularFile(path) }

    /// Writes `data` to `path`, a regular file or a new path, whole (see `AtomicFile`). Anything
    /// else at `path` (a FIFO, a device, a folder, a link) is refused.
    static func replace(_ path: String, with data: Data, mode: mode_t) throws {
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(data, to: path, mode: mode)
        } catch .notARegularFile(let what) {
            throw CLIError("refused to write \(path): it is \(what), not a regular file. Give a new path or a regular file. Nothing was written.")
        } catch .system(let code) {
            throw CLIError("cannot write \(path) (\(String(cString: strerror(code)))). Check that its folder exists, is writable and has space. Nothing was written.")
        }
    }

    /// Whether writing `path` would replace the store at `store` or one of SQLite's files beside it
    /// (its journal, its write-ahead log and index): the same file, through any link or spelling.
    static func isStore(_ path: String, store: String) -> Bool {
        func real(_ p: String) -> String? {
            // Not there yet: its folder's real path and its name.
            let url = URL(fileURLWithPath: p)
            return RealPath.of(p) ?? RealPath.of(url.deletingLastPathComponent().path).map { $0 + "/" + url.lastPathComponent }
        }
        guard let target = real(path), let base = real(store) else { return false }
        return ["", "-journal", "-wal", "-shm"].contains { target == base + $0 }
    }
}
