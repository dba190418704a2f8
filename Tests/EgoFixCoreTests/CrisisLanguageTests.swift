import Foundation
import XCTest
@testable import EgoFixCore

/// The byte scan for ASCII text gives the same answer as lowercasing the text and searching it
/// for each phrase, wherever a phrase sits and however it is cased.
final class CrisisLanguageTests: XCTestCase {
    /// Lowercased with Unicode's rules, the typographic apostrophe read as "'", combining marks
    /// (U+0300 to U+036F) left out, then searched for each phrase.
    private func reference(_ text: String) -> Bool {
        let lower = String(String.UnicodeScalarView(text.lowercased().unicodeScalars
            .filter { !(0x300...0x36F).contains($0.value) }.map { $0 == "\u{2019}" ? "'" : $0 }))
        return CrisisLanguage.phrases.contains { lower.contains($0) }
    }

    func test_crisisScan_agreesWithSearchingTheLoweredText() {
        var texts = ["", "a", "Skipped. Told myself I was busy.", "kil myself", "suicid", "end my lif", "self  harm",
                     "I want to diet", "no reason to liv", "can't go", "cannot go o", "don't want to be here anymor"]
        for phrase in CrisisLanguage.phrases {
            let upper = phrase.uppercased()
            let title = phrase.prefix(1).uppercased() + phrase.dropFirst()
            for p in [phrase, upper, title] {
                texts += [p, "x" + p, p + ".", "Some days " + p + " and then tea.", String(p.dropLast()), String(p.dropFirst()),
                          "sss" + p, p + p, "e" + String(p.dropLast())]
            }
        }
        for text in texts {
            XCTAssertEqual(CrisisLanguage.detectASCII(text), reference(text), text)
            XCTAssertEqual(CrisisLanguage.detect(text), reference(text), text)
        }
        // Text beyond ASCII (an accent, CJK, Arabic) is found the same way, on bytes after
        // Unicode's lowercasing: the same answers as the search, which folded every character
        // cluster for each phrase (about 2 ms a KB, paid again by each page showing the text).
        for text in texts {
            for other in ["Caf\u{e9} " + text, text + " \u{65e5}\u{672c}\u{8a9e}", "\u{645}\u{631}\u{62d}\u{628}\u{627} " + text + " \u{1F642}"] {
                XCTAssertNil(CrisisLanguage.detectASCII(other))
                XCTAssertEqual(CrisisLanguage.detect(other), reference(other), other)
            }
        }
        XCTAssertTrue(CrisisLanguage.detect("\u{212A}ILL MYSELF, \u{e9}"), "the Kelvin sign lowercases to k")
        // Pieces of phrases among letters that lowercase beyond ASCII, or into it, in a fixed
        // random order: the same answers as lowercasing with Unicode's rules and searching.
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let pieces = CrisisLanguage.phrases.flatMap { [$0, $0.uppercased(), String($0.prefix(4)), String($0.dropFirst(3))] }
            + ["\u{212A}", "\u{130}", "\u{2019}", "\u{c9}", "\u{3A3}", "\u{1E9E}", "\u{FB00}", "\u{65E5}", " ", "I", "K", "'", "\u{301}"]
        for _ in 0..<2000 {
            let text = (0..<(1 + next(6))).map { _ in pieces[next(pieces.count)] }.joined()
            XCTAssertEqual(CrisisLanguage.detect(text), reference(text), text)
        }
        XCTAssertNil(CrisisLanguage.detectASCII("caf\u{e9} and suicide"))
        XCTAssertTrue(CrisisLanguage.detect("Caf\u{e9}. I can\u{2019}t go on."))
        XCTAssertFalse(CrisisLanguage.detect("Caf\u{e9}. Fine, mostly."))
        // Said the ways people say it, not only the clinical words.
        for said in ["I don\u{2019}t want to be alive anymore.", "Honestly some days I want to disappear.", "Some nights I wish I was dead.",
                     "I just want to end it all."] {
            XCTAssertTrue(CrisisLanguage.detect(said), said)
        }
        XCTAssertFalse(CrisisLanguage.detect("I want to win this argument and then disappear into a nap."))
    }
}
