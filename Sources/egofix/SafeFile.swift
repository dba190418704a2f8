import Foundation

/// Writing a file the user named, without ever replacing something that is not a file.
enum SafeFile {
    /// What is at `path` when it is there and is not a regular file ("a FIFO", "a folder", ...).
    static func notARegularFile(_ path: String) -> String? {
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

    /// Writes `data` to `path`, a regular file or a new path: into a temporary file beside it
    /// (mode `mode`), synced, then renamed over it, so a reader sees the old file or the new
    /// one whole. Anything else at `path` (a FIFO, a device, a folder, a link) is refused.
    static func replace(_ path: String, with data: Data, mode: mode_t) throws {
        if let what = notARegularFile(path) {
            throw CLIError("refused to write \(path): it is \(what), not a regular file. Give a new path or a regular file. Nothing was written.")
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let tmp = (folder == "/" ? "" : folder) + "/." + name + ".egofix-tmp-\(getpid())"
        func fail(_ code: Int32) -> CLIError {
            CLIError("cannot write \(path) (\(String(cString: strerror(code)))). Check that its folder exists, is writable and has space. Nothing was written.")
        }
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw fail(errno) }
        let failure = data.withUnsafeBytes { raw -> Int32 in
            if let base = raw.baseAddress {
                var done = 0
                while done < raw.count {
                    let n = write(fd, base + done, raw.count - done)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { return n < 0 ? errno : EIO }
                    done += n
                }
            }
            if fchmod(fd, mode) != 0 { return errno }
            return fsync(fd) == 0 ? 0 : errno
        }
        let closed = close(fd) == 0 ? 0 : errno
        if failure != 0 || closed != 0 {
            unlink(tmp)
            throw fail(failure != 0 ? failure : closed)
        }
        // Checked again just before the rename: the window for a swap is this one line.
        if let what = notARegularFile(path) {
            unlink(tmp)
            throw CLIError("refused to write \(path): it is \(what), not a regular file. Give a new path or a regular file. Nothing was written.")
        }
        guard rename(tmp, path) == 0 else {
            let code = errno
            unlink(tmp)
            throw fail(code)
        }
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }
}
