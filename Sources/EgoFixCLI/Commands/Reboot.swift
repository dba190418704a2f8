import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Reboot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reboot", abstract: "Start fresh after a crash. Closes every open crash.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let s = try Session.open(options)
        let (closed, user) = try await s.store.transaction { () -> ([Crash], UserProfile) in
            try s.ensureCatalogue()
            let closed = try await CrashService(repos: s.repos, calendar: s.calendar).reboot(at: s.now)
            return (closed, try await s.profile())
        }
        s.print(["REBOOT", "", "Closed \(Text.plural(closed.count, "crash", "crashes")). Still v\(user.currentVersion).",
                 s.style.dim("// A reboot is not a reset. The log keeps everything.")])
    }
}
