import Foundation
import GRDB
import EgoFixCore

/// Statements shared by every table. All run inside a transaction the caller opened.
enum TableOps {
    /// Live rows (not soft-deleted) matching an optional condition, in the in-memory order.
    static func live<R: SQLRecord>(_ db: Database, _ type: R.Type, where condition: String? = nil,
                                   _ arguments: [DatabaseValue] = [], limit: Int? = nil) throws -> [R] {
        var sql = "SELECT * FROM \(R.table) WHERE deletedAt IS NULL"
        if let condition { sql += " AND (\(condition))" }
        sql += " ORDER BY \(R.orderBy)"
        if let limit { sql += " LIMIT \(limit)" }
        return try fetch(db, sql, arguments)
    }

    /// Every row, soft-deleted ones too (export), in the in-memory order.
    static func everything<R: SQLRecord>(_ db: Database, _ type: R.Type) throws -> [R] {
        try fetch(db, "SELECT * FROM \(R.table) ORDER BY \(R.orderBy)", [])
    }

    /// A live row by id.
    static func get<R: SQLRecord>(_ db: Database, _ type: R.Type, _ id: UUID) throws -> R? {
        try live(db, R.self, where: "id = ?", [Col.uuid(id)]).first
    }

    /// A row by id, deleted or not.
    static func anyRow<R: SQLRecord>(_ db: Database, _ type: R.Type, _ id: UUID) throws -> R? {
        let rows: [R] = try fetch(db, "SELECT * FROM \(R.table) WHERE id = ?", [Col.uuid(id)])
        return rows.first
    }

    static func exists(_ db: Database, table: String, id: UUID) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM \(table) WHERE id = ?)",
                          arguments: StatementArguments([Col.uuid(id)])) ?? false
    }

    static func count(_ db: Database, table: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }

    /// Insert or replace the whole row with this id (the record as given, no stamping).
    static func upsert<R: SQLRecord>(_ db: Database, _ record: R) throws {
        let cols = R.columns
        let placeholders = Array(repeating: "?", count: cols.count).joined(separator: ", ")
        let updates = cols.dropFirst().map { "\"\($0)\" = excluded.\"\($0)\"" }.joined(separator: ", ")
        let sql = "INSERT INTO \(R.table) (\(quoted(cols))) VALUES (\(placeholders)) "
            + "ON CONFLICT(id) DO UPDATE SET \(updates)"
        try db.execute(sql: sql, arguments: StatementArguments(try record.databaseValues()))
    }

    /// Plain insert, for import into emptied tables.
    static func insert<R: SQLRecord>(_ db: Database, _ record: R) throws {
        let cols = R.columns
        let placeholders = Array(repeating: "?", count: cols.count).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO \(R.table) (\(quoted(cols))) VALUES (\(placeholders))",
                       arguments: StatementArguments(try record.databaseValues()))
    }

    /// Soft delete exactly as the in-memory table does: deletedAt and (where the record has it) updatedAt
    /// become now (updatedAt after the stored stamp, `SyncRules.editStamp`), even when the row was deleted before; an unknown id throws `RepositoryError.notFound`.
    static func softDelete<R: SQLRecord>(_ db: Database, _ type: R.Type, _ id: UUID, now: Date) throws {
        guard var r = try anyRow(db, R.self, id) else {
            throw RepositoryError.notFound(String(describing: R.self), id)
        }
        let previous = r
        r.deletedAt = now
        r.stampEdit(previous: previous, now: now)
        try upsert(db, r)
    }

    private static func quoted(_ cols: [String]) -> String {
        cols.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    private static func fetch<R: SQLRecord>(_ db: Database, _ sql: String, _ arguments: [DatabaseValue]) throws -> [R] {
        // Rows are read in place as SQLite steps (no copy of each row), and the columns looked up
        // by name once per statement instead of once per field.
        let statement = try db.makeStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments))
        let columns = statement.columnNames
        var out: [R] = []
        while let row = try cursor.next() {
            out.append(try R(RowReader(row: row, table: R.table, columns: columns, statement: statement.sqliteStatement)))
        }
        return out
    }
}
