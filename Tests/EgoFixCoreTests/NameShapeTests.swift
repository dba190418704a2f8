import Foundation
import XCTest
@testable import EgoFixCore

final class NameShapeTests: XCTestCase {
    /// Every string of up to four characters from a small alphabet, plus longer ones built from it.
    private func samples() -> [String] {
        let alphabet = ["a", "z", "0", "9", "-", "#", "W", "F", "f", "g", "A", " ", "é"]
        var out = [""]
        var level = [""]
        for _ in 0..<4 {
            level = level.flatMap { s in alphabet.map { s + $0 } }
            out += level
        }
        out += ["#00ff7A", "#00ff7", "#00ff7AA", "#0g0000", "2026-W47", "2026-w47", "202-W470", "20266-W47", "2026-W4",
                "ego-defense", "ego--defense", "-ego", "ego-", "bug2", "about", "about-", "a-b-c", "A-b"]
        return out
    }

    private func matches(_ s: String, _ pattern: String) -> Bool {
        s.range(of: pattern, options: .regularExpression) != nil
    }

    func test_nameShapes_agreeWithTheRegularExpressionsTheyReplace() {
        for s in samples() {
            XCTAssertEqual(NameShape.isHexColor(s), matches(s, #"^#[0-9a-fA-F]{6}$"#), s)
            XCTAssertEqual(NameShape.isSlug(s), matches(s, "^[a-z0-9]+(-[a-z0-9]+)*$"), s)
            XCTAssertEqual(NameShape.isPageName(s), matches(s, "^[a-z0-9][a-z0-9-]*$"), s)
            XCTAssertEqual(NameShape.isISOWeekName(s), matches(s, #"^[0-9]{4}-W[0-9]{2}$"#), s)
        }
    }

    func test_weekNames_takeOnlyASCIIDigits() {
        XCTAssertTrue(NameShape.isISOWeekName("2026-W47"))
        XCTAssertFalse(NameShape.isISOWeekName("٢٠٢٦-W47"))  // Arabic-Indic digits, which `\d` took
    }
}
