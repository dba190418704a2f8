import Foundation
import Synchronization

/// Ctrl-C (or SIGTERM) during a build that writes: the build stops before its next step, removes
/// the half-made folder beside the site (private pages) and leaves the site as it was. A second
/// Ctrl-C ends the process at once (the next build clears what it leaves).
///
/// Installed only once a build knows it will write (a no-change rebuild never pays for it), with
/// `signal`, whose handler only sets a flag the steps read.
enum BuildInterrupt {
    private static let signalled = Atomic<Int32>(0)

    /// From now on SIGINT and SIGTERM are noted, not fatal (the first of them).
    static func watch() {
        _ = signalled.load(ordering: .relaxed)  // made before any signal can reach the handler
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { sig in
                if BuildInterrupt.signalled.exchange(sig, ordering: .relaxed) != 0 { _exit(128 + sig) }
            }
        }
    }

    /// The signal that arrived since `watch()`, if one did.
    static var received: Int32? {
        let sig = signalled.load(ordering: .relaxed)
        return sig == 0 ? nil : sig
    }

    /// Back to the default: a signal ends the process.
    static func stopWatching() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
