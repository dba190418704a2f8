import EgoFixCore
import Foundation

/// Writing a whole file so that a reader (or a file-sync tool) sees the old file or the new one,
/// never a part: a temporary name beside the target (`.NAME.PID.tmp`), written, fsynced, renamed
/// over the target, and the folder fsynced; what a killed write left beside it is removed by the
/// next. Used by `egofix export` and by `egofix sync` for its device file.
public enum AtomicFile {
    public enum Failure: Error, Equatable {
        /// Something other than a regular file is at the path ("a FIFO", "a folder", ...).
        case notARegularFile(String)
        /// A system call failed with this errno.
        case system(Int32)

        /// The reason in words.
        public var reason: String {
            switch self {
            case .notARegularFile(let what): return "it is \(what), not a regular file"
            case .system(let code): return String(cString: strerror(code))
            }
        }
    }

    /// What is at `path` when it is there and is not a regular file ("a FIFO", "a folder", ...).
    public static func notARegularFile(_ path: String) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    /// The temporary name `write` uses for `name` in this process.
    static func temporaryName(_ name: String) -> String { "." + name + ".\(getpid()).tmp" }

    /// Removes what a write of `name` killed midway left (`.NAME.PID.tmp` of a process that is no
    /// more): a whole private copy (an export holds every reflection), out of sight, one more per
    /// interrupted write. A temporary of a live process is left to it.
    static func removeStaleTemporaries(of name: String, in folder: String) {
        let prefix = "." + name + ".", suffix = ".tmp"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for n in names where n.hasPrefix(prefix) && n.hasSuffix(suffix) && n.count > prefix.count + suffix.count {
            let digits = n.dropFirst(prefix.count).dropLast(suffix.count)
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(digits), pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { unlink((folder == "/" ? "" : folder) + "/" + n) }
        }
    }

    /// Writes `data` to `path` with permissions `mode`. A regular file or a new path only: anything
    /// else at `path` (a FIFO, a device, a folder, a link) is refused before and again just before
    /// the rename.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws(Failure) {
        if let what = notARegularFile(path) { throw .notARegularFile(what) }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let tmp = (folder == "/" ? "" : folder) + "/" + temporaryName(name)
        unlink(tmp)
        removeStaleTemporaries(of: name, in: folder)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .system(errno) }
        var failure = WholeWrite.write(data, to: fd)
        if failure == 0 && fchmod(fd, mode) != 0 { failure = errno }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        let closed = close(fd) == 0 ? 0 : errno
        if failure != 0 || closed != 0 {
            unlink(tmp)
            throw .system(failure != 0 ? failure : closed)
        }
        // Checked again just before the rename: the window for a swap is this one line.
        if let what = notARegularFile(path) {
            unlink(tmp)
            throw .notARegularFile(what)
        }
        guard rename(tmp, path) == 0 else {
            let code = errno
            unlink(tmp)
            throw .system(code)
        }
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }
}
