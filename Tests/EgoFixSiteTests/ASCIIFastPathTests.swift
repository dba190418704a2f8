import XCTest
@testable import EgoFixSite

/// The byte-at-a-time paths for ASCII text (escaping and cleaning for XML, measuring for the
/// card, feed references) give what the Unicode-scalar paths give, for every ASCII byte and for
/// text that is not ASCII (which they hand to the scalar paths).
final class ASCIIFastPathTests: XCTestCase {
    func test_asciiFastPaths_agreeWithTheScalarPaths() {
        var samples = ["", "plain text", "a & b < c > d \"e\" 'f'", "tab\there\nnew\rret", "\u{1}\u{1f}\u{7f}x", "naïve ✓ & <b>",
                       "\u{85}\u{9f}", "\u{fffe}x\u{ffff}", "e\u{301}", "日本語", "😀 emoji", "soft\u{ad}hyphen"]
        for b in 0..<128 { samples.append("a" + String(UnicodeScalar(UInt8(b))) + "b") }
        for s in samples {
            XCTAssertEqual(XMLEscape.escape(s), XMLEscape.escapeScalars(s), s.debugDescription)
            XCTAssertEqual(XMLEscape.clean(s), XMLEscape.cleanScalars(s), s.debugDescription)
            XCTAssertEqual(ShareCardLayout.columns(s), ShareCardLayout.columnsByScalar(s), s.debugDescription)
        }
        XCTAssertEqual(XMLEscape.escape("a<b"), "a&lt;b")
        XCTAssertEqual(XMLEscape.clean("a\u{7}b"), "ab")
        XCTAssertEqual(ShareCardLayout.columns("ab\u{7f}c"), 3)
        for path in ["weeks/2026-W47/index.html", "/lead", "trail/", "a//b", "a b/c", "ü/x", "x?y", "a~b_c.d-e/f", "", "/", "a:b", "a@b"] {
            XCTAssertEqual(AtomFeed.relativeReference(path), AtomFeed.encodedReference(path), path)
        }
    }
}
