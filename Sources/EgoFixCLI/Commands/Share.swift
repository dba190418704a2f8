import ArgumentParser
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

struct Share: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a fix: the next build writes its public card to share/. Only the fix's text and its bug's name, nothing you wrote: the cards you share show which bugs you work on.")

    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The fix number (37, #037 or FIX #037). Default: today's fix.", valueName: "fix")) var fix: String?
    @Flag(help: "Take the fix's card back out: the next build removes it from share/.") var remove = false

    /// The number in "37", "#037", "FIX #037" or "fix 37": digits alone after the optional
    /// "FIX" and "#", nothing else ("1-2", "0x25" and "-37" are not fix numbers).
    static func number(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.uppercased().hasPrefix("FIX") { rest = rest.dropFirst(3).drop(while: { $0 == " " }) }
        if rest.hasPrefix("#") { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 6, rest.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(rest)
    }

    func run() async throws {
        let s = try Session.open(options)
        try await s.ensureCatalogue()
        let user = try await s.profile()
        let chosen: Fix
        if let fix {
            guard let n = Share.number(fix) else {
                throw CLIError("'\(Terminal.visible(fix))' is not a fix number. Give it as shown on the card: 37, #037 or FIX #037.", code: 64)
            }
            guard let f = try await s.repos.fixes.getAll().first(where: { $0.number == n }) else {
                throw CLIError("no FIX #\(Fix.pad(n)) in the catalogue. Give its number, as shown on the card (FIX #037 is 37).")
            }
            chosen = f
        } else {
            guard !remove else { throw CLIError("--remove needs the fix number: egofix share --remove 37.") }
            guard let today = try await DailyFixService(repos: s.repos, calendar: s.calendar).todaysAssignment(at: s.now) else {
                throw CLIError("no fix today to share. Run `egofix today`, or give a fix number.")
            }
            chosen = today.fix
        }
        // The card is made first: a fix that cannot be shared (deleted from the catalogue) is
        // refused before anything is recorded.
        var card: ShareCard?
        if !remove {
            guard let bug = try await s.repos.bugs.getById(chosen.bugId) else { throw CLIError("\(chosen.label) has no bug in the catalogue.") }
            card = try ShareCard(fix: chosen, bug: bug)
        }
        // Read, decide and write in one transaction: a fix shared already is not shared again (a
        // second event said "Shared." as if it were new), and two terminals share it once.
        let recorder = EventRecorder(repos: s.repos, calendar: s.calendar), now = s.now, remove = self.remove
        let changed = try await s.store.transaction { () -> Bool in
            let shares = try await s.repos.events.getAll().filter { $0.eventType == .fixShared && $0.fixId == chosen.id && $0.deletedAt == nil }
            if remove {
                for e in shares { try await s.repos.events.delete(e.id) }
                return !shares.isEmpty
            }
            guard shares.isEmpty else { return false }
            try await recorder.record(.fixShared, userId: user.id, bugId: chosen.bugId, fixId: chosen.id, at: now)
            return true
        }
        if remove {
            // Not shared already holds: said, and exit 0, as for `bug deactivate` of an inactive bug.
            s.print([changed ? "\(chosen.label) unshared. The next `egofix build` removes its card from share/."
                             : "\(chosen.label) is not shared. Nothing was changed."])
            return
        }
        guard let card else { return }
        var lines = ["EgoFix", ""] + Text.wrap(card.prompt)
        if let c = card.inlineComment { lines += [""] + Text.wrapComment(c) }
        let said = changed ? "Shared." : "Shared already; nothing was changed."
        // The card names the fix and its bug too: said, so that what goes public is all said here.
        lines += [""] + Text.fitted("// \(said) `egofix build` writes share/\(card.slug)/ (page, card.svg, card.png): this text, "
                                    + "\(card.label) and its bug, \(card.bugTitle). Nothing you wrote; together, your cards show which bugs you work on.").map { s.style.dim($0) }
        // A link preview reads the card's image from its full address, which a site without a
        // base URL cannot give (its page says "card.png", which previews ignore).
        if s.config.baseURL == nil {
            lines += Text.fitted("// Link previews need the card's full address: base_url in egofix.toml, or `egofix build --base-url URL`.").map { s.style.dim($0) }
        }
        s.print(lines)
    }
}
