import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Check the store file: SQLite's integrity check, its settings, and that an export of it imports again.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let s = try Session.open(options)
        let result = try s.store.integrityCheck()
        var out = ["store: \(Terminal.visible(s.storePath))", "integrity: \(result)"]
        for (k, v) in try s.store.settings() { out.append("\(k): " + Check.shown(k, v)) }
        if let line = Check.access(s.storePath) { out.append(line) }
        let export = result == "ok" ? s.store.exportProblem() : nil
        out.append("export: " + (result != "ok" ? "not tried"
            : export.map { $0.unreadable ? "cannot be made: " + Terminal.visible($0.reason) : "would not import again (\(Terminal.visible($0.reason)))" }
              ?? "imports again"))
        s.print(out)
        if result != "ok" {
            throw CLIError("the store failed SQLite's integrity check. Export what it still holds (`egofix export FILE`) before restoring a backup, "
                           + "which may be older than your last days.")
        }
        if let export, export.unreadable {
            throw CLIError("the store's records cannot all be read (above), so the commands that read them fail too. Keep a copy of the store file "
                           + "as it is, then restore your last backup or export (`egofix import --replace FILE`).")
        }
        if export != nil {
            throw CLIError("an export of this store would be refused by `egofix import` (the reason is above). The store still works, "
                           + "but its export is no backup: keep a copy of the store file itself.")
        }
    }

    /// Who can read the store: "access: yours alone (0600)", or what to do when other accounts
    /// can (egofix makes it 0600; a copy, a restore or a umask can make it 0644, and every
    /// reflection is in it). Nil when the file cannot be looked at.
    static func access(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let mode = Int(st.st_mode & 0o777), octal = "0" + String(mode, radix: 8)
        let mend = "`chmod 600 \(Demo.shellWord(Terminal.visible(path)))` makes it yours alone"
        guard st.st_uid == getuid() else { return "access: \(octal), owned by another account (uid \(st.st_uid))" }
        guard mode & 0o077 != 0 else { return "access: yours alone (\(octal))" }
        let open = [mode & 0o044 != 0 ? "read" : nil, mode & 0o022 != 0 ? "written" : nil].compactMap { $0 }.joined(separator: " and ")
        return "access: \(octal), can be \(open.isEmpty ? "opened" : open) by other accounts on this machine; " + mend
    }

    /// A setting as SQLite's documentation names its value: "FULL (2)", "ON (1)", "DELETE"
    /// (a bare 2 or 1 said nothing to whoever had not read it). A value it does not name stays
    /// as SQLite gave it.
    static func shown(_ pragma: String, _ value: String) -> String {
        let names: [String]
        switch pragma {
        case "synchronous": names = ["OFF", "NORMAL", "FULL", "EXTRA"]
        case "foreign_keys": names = ["OFF", "ON"]
        case "journal_mode": return value.uppercased()
        default: return value
        }
        guard let n = Int(value), names.indices.contains(n) else { return value }
        return "\(names[n]) (\(n))"
    }
}
