import GRDB

extension SQLiteStore {
    /// `PRAGMA integrity_check`: "ok", or SQLite's list of problems.
    public func integrityCheck() throws -> String {
        try queue.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
        }
    }

    /// The pragmas a user might want to see: synchronous (2 = FULL), foreign_keys, journal_mode.
    public func settings() throws -> [(String, String)] {
        try queue.read { db in
            [("synchronous", try String.fetchOne(db, sql: "PRAGMA synchronous") ?? "?"),
             ("foreign_keys", try String.fetchOne(db, sql: "PRAGMA foreign_keys") ?? "?"),
             ("journal_mode", try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?")]
        }
    }
}
