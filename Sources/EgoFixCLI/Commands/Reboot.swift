import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Reboot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reboot", abstract: "Start fresh after a crash. Closes every open crash.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let s = try Session.open(options)
        try await s.refuseAClockBeforeThePractice()
        let (closed, user): ([Crash], UserProfile)
        do {
            (closed, user) = try await s.store.transaction { () -> ([Crash], UserProfile) in
                try await s.ensureCatalogue()
                let closed = try await CrashService(repos: s.repos, calendar: s.calendar).reboot(at: s.now)
                return (closed, try await s.profile())
            }
        } catch PracticeError.nothingToReboot {
            // What was asked for already holds, as for `bug activate` of an active bug: said, and
            // exit 0 (a scheduled reboot failed every week without a crash).
            s.print(["No crash waiting for a reboot. Nothing was changed."])
            return
        }
        s.print(["REBOOT", "", "Closed \(Plural.of(closed.count, "crash", "crashes")). Still v\(user.currentVersion).",
                 s.style.dim("// A reboot is not a reset. The log keeps everything.")])
    }
}
