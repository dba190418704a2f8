import EgoFixCore
import Foundation

/// Standard output and standard error, every write checked.
///
/// `print` goes through C's buffered standard output: a failed write there (a full disk, a closed
/// file) is remembered by the stream, and `finish()` reports it when the command ends, so output
/// that did not arrive is an error exit rather than a silent 0. Swift 6 does not let Swift name C's
/// `stdout` (shared mutable state), so the streams are flushed together with `fflush(nil)`.
package enum StandardStreams {
    /// Writes `data` to standard output after whatever `print` buffered, all of it, or throws.
    static func write(_ data: Data) throws {
        try finish()
        let failure = WholeWrite.write(data, to: STDOUT_FILENO)
        if failure != 0 { throw CLIError(message(failure)) }
    }

    /// Flushes standard output; throws when this or any earlier write to it failed.
    static func finish() throws {
        guard fflush(nil) != 0 else { return }
        throw CLIError(message(errno))
    }

    static func message(_ code: Int32) -> String {
        // Output comes after the command's transaction: whatever it recorded is stored (so a script
        // that runs it again is told the fix is already marked, not that it was lost).
        "cannot write to standard output (\(String(cString: strerror(code)))); what was printed is incomplete, "
            + "but anything the command recorded is stored. "
            + (code == ENOSPC || code == EDQUOT ? "Free space where it goes, or send it elsewhere." : "Send it somewhere it can go.")
    }

    /// Writes `text` to standard error, unbuffered. A failure there has nowhere to be reported, so
    /// it is ignored (never a crash).
    package static func error(_ text: String) {
        var text = text
        _ = text.withUTF8 { WholeWrite.write(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
    }
}
