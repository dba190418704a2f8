import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct BugCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bug", abstract: "Activate or deactivate a bug, or make it your primary bug.",
                                                    subcommands: [Activate.self, Deactivate.self, Primary.self])

    /// The bug `slug` read, changed by `decide` (which saves what it changes and says what it did)
    /// and the line printed: one transaction.
    static func change(_ options: StoreOptions, slug: String,
                       _ decide: @escaping @Sendable (Session, Bug) async throws -> String) async throws {
        let s = try Session.open(options)
        try await s.refuseAClockBeforeThePractice()
        let out = try await s.store.transaction { () -> String in
            try await s.ensureCatalogue()
            _ = try await s.profile()
            // What time alone made due is saved first, as `today` does ("already active (stable)").
            try await LifecycleService(repos: s.repos, calendar: s.calendar).reconcile(at: s.now)
            return try await decide(s, try await s.bug(slug: slug))
        }
        s.print([out])
    }

    struct Activate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "activate", abstract: "Start getting fixes for a bug.")
        @OptionGroup var options: StoreOptions
        @Argument(help: ArgumentHelp("The bug's slug.", valueName: "slug")) var slug: String

        func run() async throws {
            try await BugCommand.change(options, slug: slug) { s, b in
                switch try await BugService(repos: s.repos).activate(b, at: s.now) {
                case .alreadyActive:
                    return "\(b.title) is already active" + (b.status == .active ? "" : " (\(b.status.rawValue))") + ". Nothing was changed."
                case .activated(let again):
                    return s.style.paint(b.title, b.color) + " activated. Its fixes join the rotation from the next fix given."
                        + (again ? "\n" + s.style.dim("// Activated again: its severity restarts at low.") : "")
                }
            }
        }
    }

    /// The primary bug picked at `init` could not be changed: a wrong pick stayed the crash
    /// default and first in the day's turn for good.
    struct Primary: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "primary", abstract: "Make a bug your primary bug: what a crash is about unless named, first in the day's turn.",
            discussion: "Activates it when it is not active. The earlier primary bug stays active.")
        @OptionGroup var options: StoreOptions
        @Argument(help: ArgumentHelp("The bug's slug.", valueName: "slug")) var slug: String

        func run() async throws {
            try await BugCommand.change(options, slug: slug) { s, b in
                let change = try await BugService(repos: s.repos).makePrimary(b, at: s.now)
                if change.unchanged { return "\(b.title) is already your primary bug. Nothing was changed." }
                // First in the day's turn only while active (a stable bug gets retests, not daily fixes).
                let turn = b.isActive && b.status != .active ? "" : "; it comes first in the day's turn"
                var lines = Text.wrap(b.title + " is your primary bug" + (change.before.map { $0.id == b.id ? "" : " (was \($0.title))" } ?? "")
                                      + ". A crash is about it unless you name another" + turn + ".")
                if case .activated(let again) = change.activation {
                    lines.append(s.style.dim("// Activated" + (again ? " again: its severity restarts at low." : ": its fixes join the rotation from the next fix given.")))
                }
                return lines.joined(separator: "\n")
            }
        }
    }

    struct Deactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "deactivate", abstract: "Stop getting fixes for a bug. Its history stays.")
        @OptionGroup var options: StoreOptions
        @Argument(help: ArgumentHelp("The bug's slug.", valueName: "slug")) var slug: String

        func run() async throws {
            try await BugCommand.change(options, slug: slug) { s, b in
                let service = BugService(repos: s.repos)
                guard try await service.deactivate(b, at: s.now) else { return "\(b.title) is not active. Nothing was changed." }
                // Still the bug a crash is about unless named: said, with the way to change it.
                let primary = try await service.isPrimary(b)
                // The last one: no fix comes until a bug is active again, said where it happened.
                let none = try await s.repos.bugs.getAll().allSatisfy { !$0.isActive || $0.deletedAt != nil }
                return b.title + " deactivated. The history stays; the fixes stop."
                    + (none ? "\n" + Text.wrapComment("No bug is active now, so no fix comes until one is: `egofix bug activate SLUG`.")
                        .map { s.style.dim($0) }.joined(separator: "\n") : "")
                    + (primary ? "\n" + Text.wrapComment("It is still your primary bug: a crash is about it unless you name another. `egofix bug primary SLUG` names another.")
                        .map { s.style.dim($0) }.joined(separator: "\n") : "")
            }
        }
    }
}
