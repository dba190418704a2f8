import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Merge this store with your other machines through a folder you already sync.",
        discussion: """
        Writes this machine's records into DIR/egofix-device-<ID>.json (no other machine writes that \
        file) and merges every other machine's file found in DIR into this store. Run it on each \
        machine; Syncthing, Dropbox, a network share or a git checkout moves the files. A store with \
        no practice joins the one in DIR: `egofix sync DIR` on a new store, or `egofix init --from DIR`. \
        A file egofix cannot read, from a newer egofix or from another practice is skipped with one \
        warning line. docs/sync.md has the rules.
        """)

    @OptionGroup var options: StoreOptions

    /// `sync ""` and `init --from ""` ("egofix:  is not a folder.").
    static let emptyFolder = CLIError("the folder's path is empty. Give the folder your sync tool shares (Syncthing, Dropbox, a git checkout); nothing was changed.", code: 64)

    @Argument(help: ArgumentHelp("The shared folder.", valueName: "dir"))
    var dir: String

    func run() async throws {
        if dir.isEmpty { throw SyncCommand.emptyFolder }
        let s = try Session.open(options, ifMissing: .create)
        try await SyncCommand.sync(s, dir: dir, requireEmpty: false)
    }

    /// Runs the sync and prints what it did; warnings go to standard error, one line each.
    static func sync(_ s: Session, dir: String, requireEmpty: Bool) async throws {
        let report: SyncReport
        do {
            report = try await s.store.sync(folder: dir, calendar: s.calendar, now: s.now, requireEmpty: requireEmpty) {
                try await s.ensureCatalogue()
            }
        } catch {
            // A store made for a join that did not happen is not left behind.
            // (Only when no other process has it open and it still holds no practice.)
            s.discardMadeStore()
            if let e = error as? SyncError { throw CLIError(e.description) }
            throw error
        }
        for line in report.warnings {
            StandardStreams.error("egofix: warning: " + Terminal.visible(line) + "\n")
        }
        var out: [String] = []
        // A folder that was not there may be a new shared folder or a mistyped path: said, either way.
        if report.madeFolder { out.append("Made \(dir): it was not there. No other machine has written to it yet.") }
        let files = report.merged.count
        // A file skipped is said beside the count: "no other machine's file changed" under the
        // warning that one had (half written, from a newer egofix) told a reader of this line alone
        // that the other machine had nothing new.
        let skipped = report.warnings.filter { $0.hasPrefix("skipped ") }.count
        var parts: [String] = []
        if files > 0 { parts.append("\(files) other machine\(files == 1 ? "'s file" : "s' files") merged") }
        if skipped > 0 { parts.append("\(skipped) file\(skipped == 1 ? "" : "s") skipped (the warning\(skipped == 1 ? "" : "s") above say\(skipped == 1 ? "s" : "") why)") }
        let read = parts.isEmpty ? "no other machine's file changed" : parts.joined(separator: ", ")
        if report.joined {
            let user = try await s.profile()
            out.append("Joined the practice in \(dir): v\(user.currentVersion), \(report.recordsChanged) records.")
        } else {
            out.append("Synced with \(dir): \(read), \(report.recordsChanged) record\(report.recordsChanged == 1 ? "" : "s") changed here.")
        }
        out.append(s.style.dim("// This machine writes \(report.ownFile)" + (report.wroteOwnFile ? "." : " (unchanged).")))
        s.print(out)
    }
}
