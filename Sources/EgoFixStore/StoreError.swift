import Foundation

/// Everything that can go wrong opening, loading, exporting or importing a store.
/// Each description is one line: what, where, and what to do.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The file exists but SQLite cannot read it as a database.
    case notADatabase(path: String, reason: String)
    /// A readable SQLite database that some other program made.
    case foreignDatabase(path: String, reason: String)
    /// A store whose schema was written by a newer EgoFix.
    case newerVersion(path: String, unknownMigrations: [String])
    /// The file or its folder cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The store path is a symbolic link to nothing (SQLite would make its target with everyone's
    /// read permission).
    case danglingLink(path: String, target: String)
    /// The store file is damaged.
    case damaged(path: String, reason: String)
    /// A stored row holds a value this version cannot read.
    case unreadableRow(table: String, id: String, field: String, reason: String)
    /// The catalogue could not be loaded (nothing was changed).
    case catalogue(String)
    /// The import file is not valid JSON at all (nothing was changed).
    case importNotJSON(reason: String)
    /// The import file decodes but breaks a rule; every problem found, first one shown (nothing was changed).
    case importInvalid([ImportIssue])
    /// The import file was written by a newer EgoFix.
    case importNewerFormat(found: Int, supported: Int)
    /// The store already holds a practice and `replace` was not given (nothing was changed).
    case importWouldOverwrite(path: String, what: String)
    /// The backup could not be written (nothing was changed).
    case backupFailed(path: String, reason: String)
    /// The store (or its folder, for the journal) cannot be written.
    case readOnly(path: String, operation: String, reason: String)
    /// The disk holding the store is full.
    case diskFull(path: String, operation: String)
    /// Any other SQLite failure, with the operation that hit it.
    case database(operation: String, reason: String)

    /// `cannotOpen`'s reason for a path that names a folder.
    static let folderReason = "it is a folder, not a file"

    public var description: String {
        switch self {
        case .notADatabase(let path, let reason):
            return "store \(path) is not an EgoFix database (\(reason)). Point --store at another file."
        case .foreignDatabase(let path, let reason):
            return "store \(path) is not an EgoFix database (\(reason)). Point --store at another file."
        case .newerVersion(let path, let unknown):
            return "store \(path) was written by a newer version of EgoFix (schema \(unknown.joined(separator: ", ")) is unknown here). "
                + "Update egofix, or point --store at another file."
        case .cannotOpen(let path, let reason) where reason == StoreError.folderReason:
            return "cannot open store \(path): it is a folder, not a file. A store is one file: point --store at it (or at a new name for `egofix init`)."
        case .cannotOpen(let path, let reason):
            return "cannot open store \(path) (\(reason)). Check the path and its permissions, or point --store at another file."
        case .danglingLink(let path, let target):
            return "cannot open store \(path): it is a symbolic link to \(target), which does not exist. Give the target's path, or remove the link."
        case .damaged(let path, let reason):
            return "store \(path) is damaged (\(reason)). Restore it from a backup or an export, or point --store at another file."
        case .unreadableRow(let table, let id, let field, let reason):
            return "store row \(table) \(id): field \(field) cannot be read (\(reason)). Export what you can and report this."
        case .catalogue(let why):
            return "catalogue not loaded: \(why). Nothing was changed."
        case .importNotJSON(let reason):
            return "import refused: the file is not valid JSON, it may be truncated or not an EgoFix export (\(reason)). Nothing was changed."
        case .importInvalid(let issues):
            guard let first = issues.first else { return "import refused. Nothing was changed." }
            let more = issues.count > 1 ? " (and \(issues.count - 1) more problem\(issues.count == 2 ? "" : "s"))" : ""
            return "import refused: \(first)\(more). Nothing was changed."
        case .importNewerFormat(let found, let supported):
            return "import refused: the file has formatVersion \(found) but this EgoFix reads up to \(supported). Update egofix. Nothing was changed."
        case .importWouldOverwrite(let path, let what):
            return "import refused: store \(path) already holds \(what). Pass --replace to overwrite it (the store is backed up first). Nothing was changed."
        case .backupFailed(let path, let reason):
            return "backup to \(path) failed (\(reason)). Check that its folder is writable and has space. Nothing was changed."
        case .readOnly(let path, let operation, let reason):
            // ("cannot write store X while writing" said it twice.)
            let during = operation == "writing" ? "" : " while \(operation)"
            return "cannot write store \(path)\(during) (\(reason)): the file or its folder is read-only. Check their permissions and mount, "
                + "or point --store at another file. Nothing was changed."
        case .diskFull(let path, let operation):
            return "the disk holding store \(path) is full (while \(operation)). Free some space and run the command again. Nothing was changed."
        case .database(let operation, let reason):
            return "store error while \(operation) (\(reason))."
        }
    }
}
