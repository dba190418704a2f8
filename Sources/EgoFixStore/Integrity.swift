import GRDB

extension SQLiteStore {
    /// `PRAGMA integrity_check`: "ok", or SQLite's list of problems.
    public func integrityCheck() throws -> String {
        do {
            return try queue.read { db in
                try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
            }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "checking integrity")
        }
    }

    /// The pragmas a user might want to see: synchronous (2 = FULL), foreign_keys, journal_mode.
    public func settings() throws -> [(String, String)] {
        do {
            return try queue.read { db in
                [("synchronous", try String.fetchOne(db, sql: "PRAGMA synchronous") ?? "?"),
                 ("foreign_keys", try String.fetchOne(db, sql: "PRAGMA foreign_keys") ?? "?"),
                 ("journal_mode", try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?")]
            }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "reading settings")
        }
    }
}
