import Foundation
import Synchronization

/// Ctrl-C (or SIGTERM) during a build that writes: the build stops at its next file, removes the
/// half-made folder beside the site (private pages) and leaves the site as it was. A second Ctrl-C
/// ends the process at once (the next build clears what it leaves).
///
/// Installed only once a build knows it will write (a no-change rebuild never pays for it), with a
/// handler that only notes the signal for the build to read. A signal the process was started
/// ignoring (`nohup`, `trap '' INT`) stays ignored.
enum BuildInterrupt {
    private static let signalled = Atomic<Int32>(0)

    /// The handlers before `watch()`, to put back.
    struct Previous {
        fileprivate var actions: [(Int32, sigaction)] = []
    }

    /// From now on SIGINT and SIGTERM are noted, not fatal (the first of them), unless ignored.
    static func watch() -> Previous {
        _ = signalled.load(ordering: .relaxed)  // made before any signal can reach the handler
        var previous = Previous()
        for sig in [SIGINT, SIGTERM] {
            var old = sigaction()
            guard sigaction(sig, nil, &old) == 0, !isIgnored(old) else { continue }
            var new = sigaction()
            new.__sigaction_handler.sa_handler = { sig in
                if BuildInterrupt.signalled.exchange(sig, ordering: .relaxed) != 0 { _exit(128 + sig) }
            }
            sigemptyset(&new.sa_mask)
            if sigaction(sig, &new, nil) == 0 { previous.actions.append((sig, old)) }
        }
        return previous
    }

    /// The signal that arrived since `watch()`, if one did.
    static var received: Int32? {
        let sig = signalled.load(ordering: .relaxed)
        return sig == 0 ? nil : sig
    }

    /// The handlers as they were before `watch()`.
    static func stopWatching(_ previous: Previous) {
        for (sig, action) in previous.actions {
            var old = action
            _ = sigaction(sig, &old, nil)
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
