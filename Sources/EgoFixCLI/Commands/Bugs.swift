import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Bugs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bugs", abstract: "The bug library.")
    @OptionGroup var options: StoreOptions
    @Flag(help: "Print JSON instead: each bug's slug, title, description, status, isActive and isPrimary, its dates and colour.") var json = false

    /// One bug in `--json`, the words `status --json` uses for them.
    struct BugJSON: Encodable {
        let slug: String
        let title: String
        let description: String
        let status: BugStatus
        let isActive: Bool
        let isPrimary: Bool
        let activatedAt: Date?
        let stableSince: Date?
        let resolvedAt: Date?
        let color: String
    }

    func run() async throws {
        let s = try Session.open(options, ifMissing: .inMemory)
        try await s.ensureCatalogue()
        let user = try await s.repos.users.get()
        // As the rules have them now, as `status` shows them: a bug stable by time alone read as
        // active here until a command that writes saved it, for weeks on a quiet practice.
        let bugs = try await (user == nil ? s.repos.bugs.getAll() : LifecycleService(repos: s.repos, calendar: s.calendar).current(at: s.now))
            .sorted { $0.slug < $1.slug }
        if json {
            let list = bugs.map { BugJSON(slug: $0.slug, title: $0.title, description: $0.description, status: $0.status, isActive: $0.isActive,
                                          isPrimary: $0.id == user?.primaryBugId, activatedAt: $0.activatedAt, stableSince: $0.stableSince,
                                          resolvedAt: $0.resolvedAt, color: $0.color) }
            Swift.print(try JSONOut.encode(["bugs": list]))
            return
        }
        var out: [String] = []
        for b in bugs {
            let state = b.stateWords
            let primary = b.id == user?.primaryBugId
            if 20 + 1 + 19 + 1 + 7 <= Text.lineWidth {
                out.append(s.style.paint(pad(b.slug, 20), b.color) + " " + (primary ? pad(state, 19) + " " + s.style.dim("primary") : state))
            } else {
                // A narrow terminal: the state under the slug (the line ran to 48 columns).
                out += [s.style.paint(b.slug, b.color), "  " + state + (primary ? "  " + s.style.dim("primary") : "")]
            }
            out += Text.wrap(b.description, indent: "  ").map { s.style.dim($0) }
        }
        out += [""] + Text.wrapComment("`egofix bug activate SLUG`, `egofix bug deactivate SLUG`").map { s.style.dim($0) }
        s.print(out)
    }
}
