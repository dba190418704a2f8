import Foundation

/// Work spread over the machine's cores, results in input order (so output never depends on
/// which thread finished first).
public enum Parallel {
    /// The cores this process may use: Foundation's count of active processors (which on Linux
    /// also honours a cgroup CPU quota), at least one.
    public static let cores: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// `transform` applied to every element, on up to `cores` threads.
    /// Elements are handed out in order to whichever thread is free, so put the slow ones first.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
        let n = items.count
        guard n > 1 else { return items.map(transform) }
        let workers = min(n, cores)
        if workers == 1 { return items.map(transform) }
        let slots = Slots<R>(count: n)
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let i = next.take()
                guard i < n else { break }
                slots.set(i, transform(items[i]))
            }
        }
        return slots.values()
    }

    /// Lets go of `object` on another thread, so that freeing a large graph of values (a build's
    /// page context) happens beside whatever this thread does next rather than before it.
    public static func releaseInBackground<T: AnyObject & Sendable>(_ object: T) {
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(object) {} }
    }

    /// One result per index, each written by exactly one thread.
    final class Slots<R>: @unchecked Sendable {
        private let buffer: UnsafeMutablePointer<R?>
        private let count: Int

        init(count: Int) {
            self.count = count
            buffer = UnsafeMutablePointer<R?>.allocate(capacity: count)
            buffer.initialize(repeating: nil, count: count)
        }

        deinit {
            buffer.deinitialize(count: count)
            buffer.deallocate()
        }

        func set(_ i: Int, _ value: R) { buffer[i] = value }

        /// Every slot, after the workers are done (all are set).
        func values() -> [R] {
            var out: [R] = []
            out.reserveCapacity(count)
            for i in 0..<count { if let v = buffer[i] { out.append(v) } }
            return out
        }
    }

    /// A value computed on another thread while this one does something else. If no thread has
    /// begun it by the time it is waited for (the cores were busy with other work), the waiting
    /// thread computes it itself rather than idle until one is free.
    public final class Background<T: Sendable>: @unchecked Sendable {
        private let group = DispatchGroup()
        private let lock = NSLock()
        private var started = false
        private var value: T?
        private let work: @Sendable () -> T

        public init(_ work: @escaping @Sendable () -> T) {
            self.work = work
            group.enter()
            DispatchQueue.global().async {
                guard self.claim() else { return }
                self.finish(work())
            }
        }

        /// True for the one thread that gets to compute the value.
        private func claim() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if started { return false }
            started = true
            return true
        }

        private func finish(_ v: T) {
            lock.lock()
            value = v
            lock.unlock()
            group.leave()
        }

        /// The value, once computed.
        public func wait() -> T {
            if claim() {
                let v = work()
                finish(v)
                return v
            }
            group.wait()
            lock.lock()
            defer { lock.unlock() }
            return value ?? work()
        }
    }

    /// Hands out indexes 0, 1, 2, ... to whichever thread asks next.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func take() -> Int {
            lock.lock()
            defer { lock.unlock() }
            let v = value
            value += 1
            return v
        }
    }
}
