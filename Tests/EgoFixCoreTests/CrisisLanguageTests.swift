import Foundation
import XCTest
@testable import EgoFixCore

/// The byte scan for ASCII text gives the same answer as lowercasing the text and searching it
/// for each phrase, wherever a phrase sits and however it is cased.
final class CrisisLanguageTests: XCTestCase {
    private func reference(_ text: String) -> Bool {
        let lower = text.lowercased()
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
