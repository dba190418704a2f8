import EgoFixCore
import Foundation
import GRDB

extension SQLiteStore {
    /// Every record (what a build and `egofix history` show), read as one moment of the store
    /// (`snapshot`). The events, the largest table (about half the reading), are read on a second,
    /// read-only connection on another core while this one reads the rest. Inside a command's
    /// transaction, which sees its own writes before they are in the file, all of it is read here.
    public func readPractice(onShared: ((Fix, Bug) -> Void)? = nil) async throws -> Practice {
        let joined = access.command.isOpen
        return try await snapshot {
            let repos = repositories
            let beside = joined ? nil : fileIdentity.map { EventsBeside.read(path: path, file: $0) }
            do {
                return try await Practice.load(repos, onShared: onShared, events: {
                    if let read = beside?.wait() { return read }
                    return try await repos.events.getAll()
                })
            } catch {
                _ = beside?.wait()  // not left reading after the snapshot ends
                throw error
            }
        }
    }
}

/// The live events read on a connection of their own, inside `SQLiteStore.snapshot`. SQLite
/// keeps one lock per file per process: the second connection reads under the shared lock this
/// process already holds, so no other process can commit until both are done, and both read the
/// same moment. Nil, and the first connection reads them, when the file at the path is not the
/// one the store opened (replaced meanwhile: `mv backup.sqlite store.sqlite`), or the second
/// connection cannot read at once (a hot journal, or another connection of this process waiting
/// to commit: SQLite lets no new reader in then).
private enum EventsBeside {
    static func read(path: String, file: StoreHolder.Identity) -> Parallel.Background<[AnalyticsEvent]?> {
        Parallel.Background {
            guard StoreHolder.Identity(path: path) == file else { return nil }
            var c = Configuration()
            c.readonly = true
            c.busyMode = .immediateError
            c.label = "EgoFixStore.events"
            c.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 268435456") }
            guard let queue = try? DatabaseQueue(path: path, configuration: c),
                  let events = try? queue.read({ db in try TableOps.live(db, AnalyticsEvent.self) }),
                  StoreHolder.Identity(path: path) == file else { return nil }
            return events
        }
    }
}
