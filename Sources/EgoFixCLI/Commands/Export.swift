import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write the whole store as canonical JSON.")
    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The file to write ('-' for standard output).", valueName: "file")) var file: String

    func run() async throws {
        // ("cannot write  (No such file or directory)", with nothing where the path goes.)
        if file.isEmpty { throw CLIError("the export's path is empty. Give a file, such as egofix-export.json, or - for standard output. Nothing was written.", code: 64) }
        let s = try Session.open(options)
        if file != "-", SafeFile.isStore(file, store: s.storePath) {
            throw CLIError("refused to write \(file): it is the store itself. Give another path for the export. Nothing was written.")
        }
        // The profile's streak and freeze as they stand at the clock, so the file does not carry a
        // streak that has since ended (the store is not written).
        let streak = StreakService(repos: s.repos, calendar: s.calendar)
        let now = s.now
        let data = try s.store.exportJSON(profile: { streak.settled($0, at: now) })
        if file == "-" {
            try StandardStreams.write(data)
            return
        }
        try SafeFile.replace(file, with: data, mode: 0o600)
        s.print(["Exported to \(Terminal.visible(file)) (\(data.count) bytes)."])
        // Written, and said: a file `import` refuses is no backup.
        if data.count > SQLiteStore.maxImportBytes {
            StandardStreams.error("egofix: warning: the export is \(data.count / 1_048_576) MiB, over the \(SQLiteStore.maxImportBytes >> 30) GiB "
                                  + "`egofix import` reads: it is no backup. Keep a copy of the store file itself.\n")
        }
    }
}
