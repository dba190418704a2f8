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

    /// The byte-level escaper (eight bytes a step where nothing needs escaping) must give what
    /// `escape` gives: every ASCII character at every place in a word, and text that is not ASCII.
    func test_escape_byteLevelPiecesMatchTheScalarEscaper() {
        func pieces(_ s: String) -> String {
            var out: [UInt8] = []
            HTMLEscape.pieces(s) { out.append(contentsOf: $0) }
            let viaPieces = String(decoding: out, as: UTF8.self)
            // ByteText's own path for short texts (held in the String's two words) gives the same.
            var text = ByteText(capacity: 8)
            text.append("x")
            text.appendHTMLEscaped(s)
            text.append("y")
            XCTAssertEqual(text.string, "x" + viaPieces + "y", s.debugDescription)
            return viaPieces
        }
        // Every length up to three words: short texts are read as one padded word, longer ones
        // word by word with the last word overlapping the one before.
        for length in 1...24 {
            for code in UInt8(0)...UInt8(127) {
                for at in 0..<length {
                    var bytes = Array("abcdefghijklmnopqrstuvwxyz".utf8.prefix(length - 1))
                    bytes.insert(code, at: at)
                    let s = String(decoding: bytes, as: UTF8.self)
                    XCTAssertEqual(pieces(s), HTMLEscape.escape(s), "byte \(code) at \(at) of \(length)")
                }
            }
        }
        for s in ["", "plain", "It's <b>\"bold\"</b> & done.", "naïve café <é> – ünïcödé 'x'", "\t\r\n\u{1}\u{7f}x",
                  String(repeating: "don't ", count: 40), "\"\u{301}<\u{301}>", "—<—>—&—\"—'", "\u{80}\u{A6}\u{BC}\u{BE}\u{FF}",
                  "ĢĦħ\u{100}\u{126}\u{13c}", "a #1 costs $5 or 5% = less", "../../", "é", "ééééééé", "éééééééx", "日本語のテキスト",
                  "123456789012345", "1234567890123456", "12345678", "1234567", "1234567'", "'"] {
            XCTAssertEqual(pieces(s), HTMLEscape.escape(s), s)
        }
    }

    func test_escape_dropsControlCharacters() {
        XCTAssertEqual(HTMLEscape.escape("a\u{0}b\u{1b}c\nd"), "abc\nd")
    }
}
