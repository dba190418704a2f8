import Foundation
import GRDB

extension SQLiteStore {
    /// The largest file `egofix import` reads, the largest device file a sync reads: a century of
    /// daily reflections of a few KB is under 200 MB, and 25 years of reflections at the 64 KiB cap
    /// exported 541 MB, which an import capped at 512 MB refused (helper 112). A larger file would
    /// take several times its size in memory to refuse.
    public static let maxImportBytes = 1 << 30

    /// Why an export of the store would not import again (`egofix check`), or nil when it would:
    /// the export is the way back from a lost or damaged store, so a store whose records break an
    /// import's rules (a reference to a fix that is not there, two profiles) is worth knowing about
    /// before it is needed.
    public func exportProblem() -> ExportProblem? {
        let data: Data
        do { data = try exportJSON() } catch { return ExportProblem(reason: "\(error)", unreadable: true) }
        if data.count > SQLiteStore.maxImportBytes {
            return ExportProblem(reason: "it is \(data.count / 1_048_576) MiB, over the \(SQLiteStore.maxImportBytes >> 30) GiB an import reads",
                                 unreadable: false)
        }
        do {
            _ = try ImportValidation.decodeAndValidate(data, checkingInstants: true)
            return nil
        } catch let StoreError.importInvalid(issues) {
            return ExportProblem(reason: issues.first.map { "\($0)" + (issues.count > 1 ? " (and \(issues.count - 1) more)" : "") } ?? "it does not validate",
                                 unreadable: false)
        } catch {
            return ExportProblem(reason: "\(error)", unreadable: false)
        }
    }

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

/// Why an export of a store would not import again (`SQLiteStore.exportProblem`).
public struct ExportProblem: Sendable, Equatable {
    public let reason: String
    /// The export could not be made: the store's records cannot all be read (a table missing or
    /// damaged), so the commands that read them fail too.
    public let unreadable: Bool
}
