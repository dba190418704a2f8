import Foundation
import GRDB
import Synchronization
import EgoFixCore

extension SQLiteStore {
    /// Runs a command's read-decide-write as one write transaction: BEGIN IMMEDIATE takes the
    /// store's write lock first (waiting, up to the busy timeout, for another process to finish), so
    /// what `body` reads cannot change before what it writes is committed. Either everything `body`
    /// wrote is committed, or, when it throws, nothing is. Whatever a command acknowledges after
    /// this returns is in the store.
    ///
    /// Not reentrant: inside one, `body` just runs. Everything `body` does through the
    /// repositories, and the store's own bookkeeping, joins the transaction.
    public func transaction<T>(_ body: () async throws -> T) async throws -> T {
        try await enclosed(begin: "BEGIN IMMEDIATE TRANSACTION", operation: "locking the store", body)
    }

    /// Runs `body`'s reads as one read transaction: SQLite's shared lock is taken at once and held
    /// to the end, so no other process commits in between and every table is read as of one moment
    /// (read one transaction each, a build beside `egofix applied` in another terminal could see
    /// the new version entry without the outcome that made it). Joins a command's transaction
    /// when one is open. For reads only: a write inside would not wait for the write lock.
    func snapshot<T>(_ body: () async throws -> T) async throws -> T {
        try await enclosed(begin: "BEGIN DEFERRED TRANSACTION; SELECT count(*) FROM sqlite_master", operation: "reading", body)
    }

    private func enclosed<T>(begin: String, operation: String, _ body: () async throws -> T) async throws -> T {
        guard !access.command.isOpen else { return try await body() }
        do {
            try await queue.writeWithoutTransaction { db in try db.execute(sql: begin) }
        } catch {
            try? await queue.writeWithoutTransaction { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
            throw SQLiteStore.map(error, path: path, operation: operation)
        }
        access.command.set(true)
        let result: T
        do {
            result = try await body()
        } catch {
            access.command.set(false)
            try? await queue.writeWithoutTransaction { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
            throw error
        }
        access.command.set(false)
        do {
            try await queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        } catch {
            try? await queue.writeWithoutTransaction { db in if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") } }
            throw SQLiteStore.map(error, path: path, operation: "committing")
        }
        return result
    }
}

/// `rolledBack`'s way out of its transaction.
private struct LookAheadDone: Error {}

extension SQLiteStore {
    /// Runs `body` in a write transaction that is then rolled back, whatever it wrote: what a
    /// command would do, seen before the user is asked for more (a reflection in an editor) or
    /// the command is refused. Nothing it writes stays.
    public func rolledBack<T>(_ body: () async throws -> T) async throws -> T {
        var value: T?
        do {
            _ = try await transaction { () -> Void in
                value = try await body()
                throw LookAheadDone()
            }
        } catch is LookAheadDone {}
        guard let value else { throw StoreError.database(operation: "looking ahead", reason: "no result") }
        return value
    }

    /// The meta key that says the store came from before schema v3, whose regressions are undated.
    static let undatedRegressionsKey = "regressions-undated"

    /// Dates the regressions an egofix from before schema v3 recorded without a date, once: each
    /// active bug gets the instant it last came back, replayed from the records
    /// (`RegressionDetector.undatedRegressions`), so its stability counts only the ratings after
    /// it, as for a bug that regressed since (an upgraded store's bug went stable again on the
    /// quiet ratings from before its regression). Answers how many bugs were dated.
    @discardableResult
    public func dateEarlierRegressions(now: Date, calendar: Calendar) async throws -> Int {
        guard try meta(SQLiteStore.undatedRegressionsKey) != nil else { return 0 }
        let practice = try await readPractice()
        let dates = RegressionDetector.undatedRegressions(practice, now: now, calendar: calendar)
        for var bug in practice.bugs {
            guard let at = dates[bug.id] else { continue }
            bug.regressedAt = at
            try await repositories.bugs.save(bug)
        }
        try setMeta(SQLiteStore.undatedRegressionsKey, nil)
        return dates.count
    }

    /// A bookkeeping value stored with the data (e.g. the fingerprint of the catalogue loaded last), or nil.
    /// Not part of the export; an import clears every value, since it replaces what they described.
    public func meta(_ key: String) throws -> String? {
        do {
            return try access.readNow { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "reading \(key)")
        }
    }

    /// Sets a bookkeeping value; nil removes it.
    public func setMeta(_ key: String, _ value: String?) throws {
        do {
            try access.writeNow { db in
                if let value {
                    try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                                   arguments: [key, value])
                } else {
                    try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
                }
            }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "writing \(key)")
        }
    }
}
