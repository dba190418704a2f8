import EgoFixCore
import Foundation

/// Share cards drawn one at a time on a queue of their own, started as the demo history shares
/// each fix (or, from a store, as soon as the data is read), so they are ready (or nearly) when
/// the pages render. The queue runs at background priority, below the history, the detectors and
/// the day ledger, which the build waits for: the cards fill what is left of the other core (with
/// the cards a step above, the detectors shared the core with them and the main thread waited for
/// them). A card the queue has not begun by the time the pages ask for it is drawn by the thread
/// that asks. A card an earlier build drew is kept instead (`kept`); one that fails to draw is left
/// for the page build, which reports the error.
final class EarlyCards: @unchecked Sendable {
    private final class Card: @unchecked Sendable {
        let key: String
        let card: ShareCard
        let path: String
        let done = DispatchSemaphore(value: 0)
        /// Set, under the cards' lock, by the one thread that makes the PNG.
        var claimed = false
        var png: Data?
        var drawn = false
        init(key: String, card: ShareCard, path: String) {
            self.key = key
            self.card = card
            self.path = path
        }
    }

    private let queue = DispatchQueue(label: "egofix.share-cards", qos: .background)
    private let lock = NSLock()
    private var cards: [String: Card] = [:]
    private let salt: String
    private let kept: @Sendable (_ path: String, _ key: String) -> Data?

    /// `salt` stands for the renderer in the cards' keys; `kept` answers with the bytes an earlier
    /// build drew for a path and key, if they are still there.
    init(salt: String, kept: @escaping @Sendable (_ path: String, _ key: String) -> Data?) {
        self.salt = salt
        self.kept = kept
    }

    /// Starts the card of `fix` (once per card).
    func start(_ fix: Fix, bug: Bug) {
        guard let card = try? ShareCard(fix: fix, bug: bug) else { return }
        let path = ShareCardPNG.path(card)
        lock.lock()
        guard cards[path] == nil else {
            lock.unlock()
            return
        }
        let entry = Card(key: ShareCardPNG.key(card, salt: salt), card: card, path: path)
        cards[path] = entry
        lock.unlock()
        queue.async { if self.claim(entry) { self.make(entry) } }
    }

    /// The cards of the data's shared fixes (the cards the site will have).
    func start(sharedIn data: Practice) {
        for shared in Practice.sharedFixes(events: data.events, fixes: data.fixes, bugs: data.bugs) { start(shared.fix, bug: shared.bug) }
    }

    /// True for the one thread that gets to make the card's PNG.
    private func claim(_ entry: Card) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if entry.claimed { return false }
        entry.claimed = true
        return true
    }

    private func make(_ entry: Card) {
        if let png = kept(entry.path, entry.key) {
            entry.png = png
        } else {
            entry.png = try? ShareCardPNG.render(entry.card)
            entry.drawn = true
        }
        entry.done.signal()
    }

    /// The card's PNG once it is ready (made here if the queue has not begun it) when it was
    /// started for this key and drew; else the bytes an earlier build left, if any. `drawn` says
    /// whether this build drew them.
    func png(_ path: String, key: String) -> (png: Data, drawn: Bool)? {
        lock.lock()
        let entry = cards[path]
        lock.unlock()
        guard let entry, entry.key == key else { return kept(path, key).map { ($0, false) } }
        if claim(entry) { make(entry) }
        entry.done.wait()
        entry.done.signal()  // ready for anyone who asks again
        guard let png = entry.png else { return kept(path, key).map { ($0, false) } }
        return (png, entry.drawn)
    }
}
