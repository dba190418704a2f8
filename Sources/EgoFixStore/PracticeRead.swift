import EgoFixCore
import Foundation
import GRDB

extension SQLiteStore {
    /// Every record (what a build and `egofix history` show), read as one moment of the store
    /// (`snapshot`). The events, the largest table (about half the reading), are read on a second,
    /// read-only connection on another core while this one reads the rest.
    public func readPractice(onShared: ((Fix, Bug) -> Void)? = nil) async throws -> Practice {
        try await snapshot {
            let repos = repositories
            let beside = path == ":memory:" ? nil : SQLiteStore.eventsBeside(path: path)
            return try await Practice.load(repos, onShared: onShared, events: {
                if let read = beside?.wait() { return read }
                return try await repos.events.getAll()
            })
        }
    }

    /// The live events read on a connection of their own, begun while this one holds its shared
    /// lock (inside `snapshot`), so both read the same moment. Nil when it cannot read at once: a
    /// process waiting to write keeps new readers out, and waiting for it would wait for the lock
    /// this connection holds. The events are then read on this connection.
    private static func eventsBeside(path: String) -> Parallel.Background<[AnalyticsEvent]?> {
        Parallel.Background {
            var c = Configuration()
            c.readonly = true
            c.busyMode = .immediateError
            c.label = "EgoFixStore.events"
            c.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 268435456") }
            guard let queue = try? DatabaseQueue(path: path, configuration: c) else { return nil }
            return try? queue.read { db in try TableOps.live(db, AnalyticsEvent.self) }
        }
    }
}
