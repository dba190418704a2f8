import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT) handed to a handler instead of ending the process, until `cancel()`; then it
/// ends the process again, as it would have. One signal source serves the whole process:
/// libdispatch installs its SIGINT handler with the first source only, so a second source, made
/// after the first was cancelled (the timer's questions after its countdown), never fired, and
/// Ctrl-C there was swallowed.
final class InterruptWatch: Sendable {
    private let id: Int

    init(_ handler: @escaping @Sendable () -> Void) {
        id = InterruptWatch.relay.push(handler)
    }

    func cancel() { InterruptWatch.relay.remove(id) }

    private static let relay = Relay()

    /// The process's one source, and the handlers watching, the newest first to be called.
    private final class Relay: @unchecked Sendable {
        private let lock = NSLock()
        private var handlers: [(id: Int, run: @Sendable () -> Void)] = []
        private var next = 0
        private var source: DispatchSourceSignal?

        func push(_ handler: @escaping @Sendable () -> Void) -> Int {
            lock.lock()
            defer { lock.unlock() }
            next += 1
            handlers.append((next, handler))
            if source == nil {
                // The default action goes (the source is told instead), and stays gone: with no
                // handler watching, the source ends the process as the default action would.
                signal(SIGINT, SIG_IGN)
                let made = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
                made.setEventHandler { [weak self] in self?.fire() }
                made.resume()
                source = made
            }
            return next
        }

        func remove(_ id: Int) {
            lock.lock()
            handlers.removeAll { $0.id == id }
            lock.unlock()
        }

        private func fire() {
            lock.lock()
            let handler = handlers.last?.run
            lock.unlock()
            if let handler { return handler() }
            // As if nothing watched: the default action, on this thread (which, as a dispatch
            // worker, blocks signals: raised without unblocking it, the signal stayed pending and
            // Ctrl-C did nothing).
            signal(SIGINT, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, SIGINT)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(SIGINT)
        }
    }
}
