import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The user's editor on a file (`-e`), run as a shell would run it: in this process's group, so
/// that it owns the terminal, and with Ctrl-C going to it while egofix waits (as system(3) does).
/// Foundation's `Process` starts a child in a group of its own, which the terminal stops at its
/// first read: a terminal editor never showed, and the command waited for it for ever.
enum Editor {
    /// Runs `/bin/sh -c 'EDITOR "$1"' sh FILE` and waits: the exit status (128 + the signal when
    /// it was killed by one), or nil when it could not be started.
    static func run(_ editor: String, file: String) -> Int32? {
        let argv = ["/bin/sh", "-c", editor + " \"$1\"", "sh", file]
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The editor gets Ctrl-C and Ctrl-\ as usual, unless egofix was started ignoring them
        // (`nohup`, a background job): then they stay ignored, as system(3) leaves them. egofix
        // ignores them until the editor returns.
        // (Saved and put back whole with sigaction: the handler may be libdispatch's, `InterruptWatch`.)
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var previousInt = sigaction(), previousQuit = sigaction()
        sigaction(SIGINT, &ignore, &previousInt)
        sigaction(SIGQUIT, &ignore, &previousQuit)
        defer {
            sigaction(SIGINT, &previousInt, nil)
            sigaction(SIGQUIT, &previousQuit, nil)
        }
        // SIGPIPE and SIGXFSZ are ignored by the Swift runtime, not by the user: the editor gets them back.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGXFSZ)
        if !isIgnore(previousInt) { sigaddset(&defaults, SIGINT) }
        if !isIgnore(previousQuit) { sigaddset(&defaults, SIGQUIT) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let cArgs = argv.map { strdup($0) }
        defer { cArgs.forEach { free($0) } }
        var pid = pid_t()
        let started = (cArgs + [nil]).withUnsafeBufferPointer { args -> Int32 in
            guard let base = args.baseAddress else { return EINVAL }
            return posix_spawn(&pid, "/bin/sh", nil, &attributes, UnsafeMutablePointer(mutating: base), environ)
        }
        guard started == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }

    private static func isIgnore(_ action: sigaction) -> Bool {
        guard action.sa_flags & SA_SIGINFO == 0, let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
