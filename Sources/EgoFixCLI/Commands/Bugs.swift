import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Bugs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bugs", abstract: "The bug library.")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        let s = try Session.open(options, ifMissing: .inMemory)
        try s.ensureCatalogue()
        let user = try await s.repos.users.get()
        // As the rules have them now, as `status` shows them: a bug stable by time alone read as
        // active here until a command that writes saved it, for weeks on a quiet practice.
        let bugs = try await (user == nil ? s.repos.bugs.getAll() : LifecycleService(repos: s.repos, calendar: s.calendar).current(at: s.now))
            .sorted { $0.slug < $1.slug }
        var out: [String] = []
        for b in bugs {
            let state = b.stateWords
            let primary = b.id == user?.primaryBugId
            out.append(s.style.paint(pad(b.slug, 20), b.color) + " " + (primary ? pad(state, 19) + " " + s.style.dim("primary") : state))
            out += Text.wrap(b.description, indent: "  ").map { s.style.dim($0) }
        }
        out += ["", s.style.dim("// egofix bug activate SLUG | egofix bug deactivate SLUG")]
        s.print(out)
    }
}
