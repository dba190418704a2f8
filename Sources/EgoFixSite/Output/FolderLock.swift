import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `renameat2`, looked up at run time: Glibc declares it only with _GNU_SOURCE, which Swift's
/// Glibc module does not set.
enum Exchange {
    typealias Function = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
    static let renameExchange: UInt32 = 1 << 1  // RENAME_EXCHANGE

    static let function: Function? = {
        #if os(Linux)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
        #else
        return nil
        #endif
    }()
}

/// An exclusive `flock` on the output's parent folder for the length of a build.
final class FolderLock: @unchecked Sendable {
    private var fd: Int32

    convenience init(_ folder: URL, output: URL) throws {
        try self.init(path: folder.path, output: output.path)
    }

    init(path folder: String, output: String) throws {
        fd = open(folder, O_RDONLY)
        guard fd >= 0 else {
            throw SiteWriterError.io(path: folder, reason: String(cString: strerror(errno)))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            fd = -1
            throw SiteWriterError.busy(output)
        }
    }

    func release() {
        guard fd >= 0 else { return }
        _ = flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
