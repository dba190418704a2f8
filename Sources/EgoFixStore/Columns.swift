import Foundation
import GRDB
import GRDBSQLite
import EgoFixCore

// How values sit in SQLite:
// - UUIDs as uppercase text (uuidString), so the file reads well in the sqlite3 shell.
// - Instants as REAL seconds since 2001-01-01 (Date's own Double, bit for bit): full precision,
//   and ordering / range queries compare exactly as `Date` does in memory.
// - Booleans as 0 / 1, enums as their raw text, arrays as canonical JSON text, Data as BLOB.
enum Col {
    static func uuid(_ u: UUID) -> DatabaseValue { u.uuidString.databaseValue }
    static func uuid(_ u: UUID?) -> DatabaseValue { u.map(uuid) ?? .null }
    static func date(_ d: Date) -> DatabaseValue { d.timeIntervalSinceReferenceDate.databaseValue }
    static func date(_ d: Date?) -> DatabaseValue { d.map(date) ?? .null }
    static func text(_ s: String) -> DatabaseValue { s.databaseValue }
    static func text(_ s: String?) -> DatabaseValue { s?.databaseValue ?? .null }
    static func int(_ i: Int) -> DatabaseValue { Int64(i).databaseValue }
    static func int(_ i: Int?) -> DatabaseValue { i.map(int) ?? .null }
    static func bool(_ b: Bool) -> DatabaseValue { (b ? Int64(1) : Int64(0)).databaseValue }
    static func real(_ x: Double) -> DatabaseValue { x.databaseValue }
    static func blob(_ d: Data?) -> DatabaseValue { d?.databaseValue ?? .null }
    static func raw<E: RawRepresentable>(_ e: E) -> DatabaseValue where E.RawValue == String { e.rawValue.databaseValue }
    static func raw<E: RawRepresentable>(_ e: E?) -> DatabaseValue where E.RawValue == String { e.map { $0.rawValue.databaseValue } ?? .null }

    /// Canonical JSON text (sorted keys) for array columns.
    static func json<T: Encodable>(_ value: T) throws -> DatabaseValue {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try e.encode(value), as: UTF8.self).databaseValue
    }
}

/// Reads typed fields from a row, failing with the table, row id and field instead of crashing.
struct RowReader {
    let row: Row
    let table: String
    /// The statement's column names, read once per statement, and the statement the row is read
    /// from (the row is its current one); without them a name is looked up through GRDB per read.
    var columns: [String]? = nil
    var statement: SQLiteStatement? = nil

    private var rowId: String {
        if case .string(let s)? = (row["id"] as DatabaseValue?)?.storage { return s }
        return "?"
    }

    private func fail(_ field: String, _ reason: String) -> StoreError {
        .unreadableRow(table: table, id: rowId, field: field, reason: reason)
    }

    private func value(_ col: String) -> DatabaseValue {
        // A dozen short names: comparing them beats hashing the one asked for.
        if let columns, let statement, let i = columns.firstIndex(of: col) {
            return DatabaseValue(sqliteStatement: statement, index: CInt(i))
        }
        return (row[col] as DatabaseValue?) ?? .null
    }

    func stringOpt(_ col: String) throws -> String? {
        switch value(col).storage {
        case .null: return nil
        case .string(let s): return s
        default: throw fail(col, "expected text")
        }
    }

    func string(_ col: String) throws -> String {
        guard let s = try stringOpt(col) else { throw fail(col, "missing") }
        return s
    }

    func uuidOpt(_ col: String) throws -> UUID? {
        // The usual case, a UUID's text as `uuidString` writes it, is parsed from SQLite's bytes
        // in place (no String is made for it); anything else goes the long way, for its error.
        if let columns, let statement, let i = columns.firstIndex(of: col) {
            let index = CInt(i)
            switch sqlite3_column_type(statement, index) {
            case SQLITE_NULL: return nil
            case SQLITE_TEXT:
                if let text = sqlite3_column_text(statement, index),
                   let u = UUIDText.parse(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index)))) {
                    return u
                }
            default: break
            }
        }
        guard let s = try stringOpt(col) else { return nil }
        guard let u = UUIDText.parse(s) ?? UUID(uuidString: s) else { throw fail(col, "not a UUID: \(s)") }
        return u
    }

    func uuid(_ col: String) throws -> UUID {
        guard let u = try uuidOpt(col) else { throw fail(col, "missing") }
        return u
    }

    func doubleOpt(_ col: String) throws -> Double? {
        switch value(col).storage {
        case .null: return nil
        case .double(let d): return d
        case .int64(let i): return Double(i)
        default: throw fail(col, "expected a number")
        }
    }

    func double(_ col: String) throws -> Double {
        guard let d = try doubleOpt(col) else { throw fail(col, "missing") }
        return d
    }

    func dateOpt(_ col: String) throws -> Date? {
        try doubleOpt(col).map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    func date(_ col: String) throws -> Date {
        guard let d = try dateOpt(col) else { throw fail(col, "missing") }
        return d
    }

    func intOpt(_ col: String) throws -> Int? {
        switch value(col).storage {
        case .null: return nil
        case .int64(let i):
            guard let v = Int(exactly: i) else { throw fail(col, "out of range") }
            return v
        default: throw fail(col, "expected an integer")
        }
    }

    func int(_ col: String) throws -> Int {
        guard let i = try intOpt(col) else { throw fail(col, "missing") }
        return i
    }

    func bool(_ col: String) throws -> Bool { try int(col) != 0 }

    func data(_ col: String) throws -> Data? {
        switch value(col).storage {
        case .null: return nil
        case .blob(let d): return d
        case .string(let s): return Data(s.utf8)
        default: throw fail(col, "expected bytes")
        }
    }

    func raw<E: RawRepresentable>(_ col: String, _ type: E.Type = E.self) throws -> E where E.RawValue == String {
        let s = try string(col)
        guard let e = E(rawValue: s) else { throw fail(col, "unknown value \(s)") }
        return e
    }

    func rawOpt<E: RawRepresentable>(_ col: String, _ type: E.Type = E.self) throws -> E? where E.RawValue == String {
        guard let s = try stringOpt(col) else { return nil }
        guard let e = E(rawValue: s) else { throw fail(col, "unknown value \(s)") }
        return e
    }

    func json<T: Decodable>(_ col: String, _ type: T.Type) throws -> T {
        let s = try string(col)
        do { return try JSONDecoder().decode(T.self, from: Data(s.utf8)) } catch {
            throw fail(col, "not the expected JSON")
        }
    }
}
