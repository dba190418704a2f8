import XCTest
@testable import EgoFixSite

final class HTMLEscapeTests: XCTestCase {
    func test_escape_handlesMarkupCharacters() {
        XCTAssertEqual(HTMLEscape.escape("<script>alert(\"x\")</script> & 'y'"),
                       "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;")
    }

    func test_escape_worksPerScalar_combiningMarkCannotSmuggleAQuote() {
        // `"` + U+0301 is one Character; a per-Character escaper misses it.
        let hostile = "\"\u{301} onmouseover=x <\u{301}script>"
        let out = HTMLEscape.escape(hostile)
        XCTAssertFalse(out.unicodeScalars.contains("\""))
        XCTAssertFalse(out.unicodeScalars.contains("<"))
        XCTAssertTrue(out.hasPrefix("&quot;\u{301}"))
    }

    func test_escape_dropsControlCharacters() {
        XCTAssertEqual(HTMLEscape.escape("a\u{0}b\u{1b}c\nd"), "abc\nd")
    }
}
