import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start: pick your primary bug and see the first fix.",
        discussion: "With no --bug, asks which one when run in a terminal. With --from DIR, a new store joins the practice another machine keeps in the sync folder DIR instead (see `egofix sync`).")

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("Join the practice in this sync folder instead of starting one.", valueName: "dir"))
    var from: String?

    @Option(help: ArgumentHelp("The primary bug's slug (see `egofix bugs`).", valueName: "slug"))
    var bug: String?

    func run() async throws {
        let s = try Session.open(options, ifMissing: .create)
        do { try await start(s) } catch {
            // A store made for an init that did not happen (no bug chosen, a bad slug) is not left
            // behind (only when no other process has it open and it holds no practice).
            s.discardMadeStore()
            throw error
        }
    }

    /// The refusal, with the store named: "this store" was the default store, unseen by a new user.
    static func naming(_ e: OnboardingViewModel.OnboardingError, _ s: Session) -> CLIError {
        guard case .alreadyOnboarded = e else { return CLIError(e.description) }
        return CLIError(e.description.replacingOccurrences(of: "this store already", with: "the store \(Terminal.visible(s.storePath)) already"))
    }

    private func start(_ s: Session) async throws {
        if let from {
            if bug != nil { throw CLIError("--from joins a practice that already has its primary bug; pass --from or --bug, not both. Nothing was changed.", code: 64) }
            if from.isEmpty { throw SyncCommand.emptyFolder }
            return try await SyncCommand.sync(s, dir: from, requireEmpty: true)
        }
        var vm = OnboardingViewModel(repos: s.repos, calendar: s.calendar)
        try await s.store.transaction {
            try await s.ensureCatalogue()
            do { try await vm.load() } catch let e as OnboardingViewModel.OnboardingError { throw Init.naming(e, s) }
        }
        var slug = bug
        if slug == nil {
            guard Prompt.interactive else {
                throw CLIError("no bug chosen. Pass --bug SLUG, one of: \(vm.bugs.map(\.slug).sorted().joined(separator: ", ")).")
            }
            // Asked before the store is locked: the answer may take a while. Ctrl-C meanwhile
            // leaves no store made for it (it left one with no practice in it).
            let store = s.store, made = s.createdStore, wasEmpty = s.storeWasEmptyFile
            let interrupt = Prompt.onInterrupt(saying: "Nothing started.") { if made { store.removeIfUnused(keepingFile: wasEmpty) } }
            defer { interrupt.cancel() }
            s.print(Text.wrap("Pick the bug that runs the most in your legacy code.\nOthers can be activated later.") + [""])
            // Numbered as the crash log numbers them; enter is no answer here (there is no default).
            let menu = Session.inCatalogueOrder(vm.bugs)
            // Titles padded to one column, so the descriptions line up, each description wrapped
            // at its words within the terminal's line under its column (three of the five ran
            // past 80 columns, and broke mid-word on the first screen a person sees); on a
            // terminal too narrow for a column, under the title.
            let column = (menu.map(\.title.count).max() ?? 0) + 2
            let number = "  \(menu.count)  ".count
            let room = Text.lineWidth - number - column
            let choice = Prompt.choose("Primary bug:", menu.map { bug in
                let lines = Text.wrap(bug.description, width: (room >= 24 ? room : Text.lineWidth - number) - 3).map { s.style.dim("// " + $0) }
                guard room >= 24 else { return ([bug.title] + lines).joined(separator: "\n" + String(repeating: " ", count: number)) }
                return pad(bug.title, column) + lines.joined(separator: "\n" + String(repeating: " ", count: number + column))
            }, skip: nil)
            // Ctrl-D leaves, as Ctrl-C does, with nothing started (and no store made for it).
            guard case .picked(let i) = choice else {
                if made { store.removeIfUnused(keepingFile: wasEmpty) }
                s.print(["Nothing started."])
                return
            }
            slug = menu[i].slug
        }
        let chosen = slug ?? ""
        let out = try await s.store.transaction { () -> [String] in
            // Looked at again inside the transaction: another `init` may have started the practice meanwhile.
            do { try await vm.load() } catch let e as OnboardingViewModel.OnboardingError { throw Init.naming(e, s) }
            try vm.select(slug: chosen)
            let card = try await vm.complete(at: s.now)
            var out = ["v1.0. Primary bug: " + s.style.paint(vm.selected?.title ?? "", vm.selected?.color ?? Style.heading) + ".",
                       s.style.dim("// Store: \(Terminal.visible(s.storePath))"
                                   // A mistyped folder became a new one without a word.
                                   + (s.store.foldersMade.last.map { " (folder \(Terminal.visible($0)) made for it)" } ?? "")), ""]
            if let card {
                out += FixCard.lines(fix: card.fix, bug: card.bug, style: s.style, heading: "FIRST FIX")
            }
            return out
        }
        s.print(out)
    }
}
