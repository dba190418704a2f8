import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Whole live tables as this process last read them, so a command that asks for the same table
/// several times (the lifecycle check, the daily fix and the pattern check all read the
/// completions) decodes it once. A remembered table is only returned while it is still true:
///
/// - a write through the repositories forgets the table it wrote;
/// - any other change by this connection (loading the catalogue, an import, a meta value) shows as
///   an unexpected `sqlite3_total_changes64` count and forgets every table;
/// - a commit by another process shows as a new `PRAGMA data_version` and forgets every table.
///
/// Every call happens inside a transaction on the store's one queue; the mutex only makes that
/// visible to the compiler.
final class TableCache: Sendable {
    private struct State {
        var dataVersion: Int64 = -1
        var totalChanges: Int64 = -1
        var tables: [String: any Sendable] = [:]
    }

    private let state = Mutex(State())

    /// The live rows of `R`'s table: remembered ones when nothing changed since they were read.
    func live<R: SQLRecord>(_ db: Database, _ type: R.Type) throws -> [R] {
        let version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        let changes = Self.totalChanges(db)
        let remembered: [R]? = state.withLock { s in
            if s.dataVersion != version || s.totalChanges != changes {
                s.tables.removeAll()
                s.dataVersion = version
                s.totalChanges = changes
                return nil
            }
            return s.tables[R.table] as? [R]
        }
        if let remembered { return remembered }
        let rows = try TableOps.live(db, R.self)
        state.withLock { s in
            if s.dataVersion == version && s.totalChanges == changes { s.tables[R.table] = rows }
        }
        return rows
    }

    /// Runs a write to `table` and forgets that table (or everything, when this connection changed
    /// something else since the last look).
    func writing<T>(_ db: Database, table: String, _ body: () throws -> T) rethrows -> T {
        let before = Self.totalChanges(db)
        let result = try body()
        let after = Self.totalChanges(db)
        state.withLock { s in
            if s.totalChanges == before {
                s.tables[table] = nil
                s.totalChanges = after
            } else {
                s.tables.removeAll()
                s.totalChanges = -1
            }
        }
        return result
    }

    static func totalChanges(_ db: Database) -> Int64 {
        guard let connection = db.sqliteConnection else { return -1 }
        return sqlite3_total_changes64(connection)
    }
}
