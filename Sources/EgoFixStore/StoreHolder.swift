import Foundation
import GRDB
import Synchronization
import EgoFixCore

/// A shared `flock` on the store file for as long as a process has it open, taken before SQLite
/// opens it: a command that made a store for nothing removes it only when it can take the lock
/// alone (`removeIfUnused`), so a store another process is writing is never removed under it. A
/// process that opened the file just as it was removed sees another file (or none) at the path
/// and stops before writing anything.
final class StoreHolder: Sendable {
    private let fd: Int32
    /// The file's device and inode, as opened.
    let identity: Identity

    /// Which file a path names.
    struct Identity: Equatable, Sendable {
        let device: UInt64, inode: UInt64

        init(_ st: stat) {
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }

        /// The file at `path` now, or nil.
        init?(path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            self.init(st)
        }
    }

    init(path: String) throws {
        // Without waiting: a FIFO in the store's place must not stall the command (SQLite refuses it next).
        let fd = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        var mine = stat()
        guard flock(fd, LOCK_SH) == 0, fstat(fd, &mine) == 0, Identity(path: path) == Identity(mine) else {
            close(fd)
            throw StoreError.cannotOpen(path: path, reason: "another egofix removed or replaced it while this one opened it; run the command again")
        }
        self.fd = fd
        identity = Identity(mine)
    }

    /// Whether this process alone has the file open (the lock taken exclusively, without waiting).
    func tryExclusive() -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    deinit { close(fd) }
}
