import ArgumentParser
import EgoFixCore
import EgoFixSite
import Foundation

/// `egofix bench-card`, hidden: draws share cards for a sample of the catalogue (every tenth fix)
/// and prints the time per card, for `make bench`.
struct BenchCard: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench-card", abstract: "Time share-card PNGs.",
                                                    shouldDisplay: false)
    @Option(help: "Times each card is drawn.") var `repeat`: Int = 10

    func run() throws {
        let catalogue = try Session.seedFilesBuiltIn().builtInCatalogue()
        var bugs: [UUID: Bug] = [:]
        for b in catalogue.bugs { bugs[b.id] = b }
        let cards = try catalogue.fixes.enumerated().filter { $0.offset % 10 == 0 }.compactMap { item -> ShareCard? in
            guard let bug = bugs[item.element.bugId] else { return nil }
            return try ShareCard(fix: item.element, bug: bug)
        }
        guard !cards.isEmpty, (1...1000).contains(`repeat`) else { throw CLIError("nothing to draw (--repeat 1...1000)") }
        var seconds = (draw: 0.0, encode: 0.0)
        var bytes = 0
        for card in cards { _ = try ShareCardPNG.render(card) }  // warm-up: fonts loaded, caches filled
        for _ in 0..<`repeat` {
            for card in cards { bytes += try ShareCardPNG.render(card, seconds: &seconds).count }
        }
        let n = Double(cards.count * `repeat`)
        print(String(format: "%d cards, %.3f ms per card (%.3f ms drawing, %.3f ms encoding), %d bytes per card",
                     cards.count, (seconds.draw + seconds.encode) * 1000 / n, seconds.draw * 1000 / n, seconds.encode * 1000 / n,
                     bytes / (cards.count * `repeat`)))
    }
}

