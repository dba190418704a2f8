import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a whole store from an export. Validates everything before writing anything; backs the store up first.")
    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The export file; - reads it from standard input (`egofix export - | egofix import - --store new.sqlite`).", valueName: "file")) var file: String
    @Flag(help: "Replace a store that already holds a practice (a backup is kept).") var replace = false

    func run() async throws {
        if file.isEmpty { throw CLIError("the export's path is empty. Give the file `egofix export` wrote, or - for standard input. Nothing was changed.", code: 64) }
        let data = file == "-" ? try standardInput() : try fileData()
        try await importing(data, named: file == "-" ? "standard input" : file)
    }

    /// An export piped in, as `export -` writes one: read to its end, up to the import's limit.
    private func standardInput() throws -> Data {
        guard isatty(STDIN_FILENO) == 0 else {
            throw CLIError("import - reads an export from standard input, and it is a terminal. Pipe one in: `egofix export - | egofix import - --store new.sqlite`. Nothing was changed.")
        }
        // The one reader of piped text, with the import's limit (and its word when it waits).
        guard let input = try ReflectionInput.pipedInput(what: "export", cap: SQLiteStore.maxImportBytes) else { return Data() }
        if input.total > SQLiteStore.maxImportBytes {
            throw CLIError("cannot import standard input: it is over the \(SQLiteStore.maxImportBytes >> 30) GiB an import reads. Nothing was changed.")
        }
        return Data(input.bytes)
    }

    private func fileData() throws -> Data {
        // A FIFO or a device would be read forever or for nonsense.
        var st = stat()
        if stat(file, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            throw CLIError("cannot import \(file): it is not a regular file. Give the path of an export. Nothing was changed.")
        }
        // Read whole, a file takes several times its size in memory before it could be refused.
        if st.st_size > SQLiteStore.maxImportBytes {
            throw CLIError("cannot import \(file): it is \(st.st_size / 1_048_576) MiB, over the \(SQLiteStore.maxImportBytes >> 30) GiB an import reads "
                           + "(a century of daily reflections of a few KB is under 200 MiB). Nothing was changed.")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            // The system's reason: "Permission denied" sent nobody to check the path.
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            let reason = fd < 0 ? String(cString: strerror(errno)) : "it cannot be read"
            if fd >= 0 { close(fd) }
            throw CLIError("cannot read \(file) (\(reason)). Check the path and its permissions. Nothing was changed.")
        }
        return data
    }

    private func importing(_ data: Data, named name: String) async throws {
        let file = name
        // ("not valid JSON, it may be truncated", for a file of nothing.)
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw CLIError("cannot import \(file == "standard input" ? file : Terminal.visible(file)): it is empty"
                           + (data.isEmpty ? " (0 bytes)" : ", white space alone") + ". Give an export, as `egofix export` writes it. Nothing was changed.")
        }
        // A store file (the backup an import keeps, a copy of a store) is not an export: it said
        // "not valid JSON", and the way to restore it was nowhere.
        if data.starts(with: Array("SQLite format 3\u{0}".utf8)) {
            if file == "standard input" {
                throw CLIError("standard input holds a store file, not an export. Pipe in the store's export instead, "
                               + "which `egofix export --store FILE -` writes. Nothing was changed.")
            }
            let f = Terminal.visible(file)
            // The store in use itself: the way to restore it above would restore it over itself.
            if let config = try? Session.loadConfig(checkingTimeZone: false),
               let live = try? Session.storeLocation(flag: options.store, config: config, env: Session.environment()),
               SafeFile.isStore(file, store: live.path) {
                throw CLIError("\(f) is the store in use, not an export. Nothing was changed.")
            }
            throw CLIError("\(f) is a store file (an import's backup, or a copy of a store), not an export. To restore it: "
                           + "`egofix export --store \(f) restored.json`, then `egofix import restored.json --replace`. Nothing was changed.")
        }
        let s = try Session.open(options, ifMissing: .create)
        // A store this import made holds nothing to back up.
        var backup: String?
        if !s.createdStore {
            let stamp = ISO8601.format(s.now).replacingOccurrences(of: ":", with: "")
            var path = s.storePath + ".backup-" + stamp
            var n = 2
            while FileManager.default.fileExists(atPath: path) {
                path = s.storePath + ".backup-" + stamp + "-\(n)"
                n += 1
            }
            backup = path
        }
        let report: ImportReport
        do {
            report = try s.store.importJSON(data, replace: replace, backupPath: backup, now: s.now)
        } catch {
            // A refused import leaves no trace: not even the empty store opened for it.
            // (Only when no other process has it open and it still holds no practice.)
            s.discardMadeStore()
            throw error
        }
        s.print(["Imported \(Terminal.visible(file)): \(report.summary)."] + (backup.map { [s.style.dim("// Backup of the previous store: \(Terminal.visible($0))")] } ?? []))
    }
}
