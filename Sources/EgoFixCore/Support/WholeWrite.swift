import Foundation

/// Writing all of a buffer to a file descriptor: again after a short write or an interrupted call
/// (EINTR), until every byte is written or a call fails. Standard output and error, the atomic
/// writer of exports and device files, and the site's files all write through it.
public enum WholeWrite {
    /// 0 when every byte of `bytes` is written to `fd`, else the errno that stopped it (EIO for a
    /// write that wrote nothing).
    public static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, base + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n < 0 ? errno : EIO }
            done += n
        }
        return 0
    }

    /// `write(_:to:)` for `data`.
    public static func write(_ data: Data, to fd: Int32) -> Int32 {
        data.withUnsafeBytes { write($0, to: fd) }
    }
}
