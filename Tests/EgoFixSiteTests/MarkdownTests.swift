import XCTest
import EgoFixCore
@testable import EgoFixSite

final class MarkdownTests: XCTestCase {
    private func html(_ source: String) throws -> String {
        try Markdown.render(source, name: "content/test.md")
    }

    /// Structural check of cmark's output: every tag is one cmark emits for Markdown, every
    /// attribute is one of href/src/alt/title (never an event handler), and every URL is empty,
    /// relative, or http(s)/mailto. Text between tags cannot hold a "<" (it would start a tag).
    private func assertInert(_ out: String, file: StaticString = #filePath, line: UInt = #line) {
        let allowedTags: Set<String> = ["p", "a", "em", "strong", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6",
                                        "ul", "ol", "li", "blockquote", "hr", "br", "img"]
        let scalars = Array(out.unicodeScalars)
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "<" else { i += 1; continue }
            guard let close = scalars[i...].firstIndex(of: ">") else {
                XCTFail("unterminated tag in \(out)", file: file, line: line); return
            }
            let tag = String(String.UnicodeScalarView(scalars[(i + 1)..<close]))
            i = close + 1
            if tag == "!-- raw HTML omitted --" { continue }
            var body = Substring(tag)
            if body.hasPrefix("/") { body = body.dropFirst() }
            if body.hasSuffix("/") { body = body.dropLast() }
            let parts = body.split(separator: " ", maxSplits: 1)
            let name = String(parts.first ?? "")
            XCTAssertTrue(allowedTags.contains(name), "unexpected tag <\(tag)> in \(out)", file: file, line: line)
            guard parts.count == 2 else { continue }
            // Attributes: name="value" pairs, values free of raw quotes (cmark escapes them).
            var rest = Substring(parts[1])
            while !rest.isEmpty {
                rest = rest.drop { $0 == " " }
                guard let eq = rest.firstIndex(of: "=") else { break }
                let attr = String(rest[..<eq])
                XCTAssertTrue(["href", "src", "alt", "title", "start"].contains(attr),
                              "unexpected attribute \(attr) in \(out)", file: file, line: line)
                rest = rest[rest.index(after: eq)...]
                guard rest.first == "\"" else { XCTFail("unquoted attribute in \(out)", file: file, line: line); return }
                rest = rest.dropFirst()
                guard let end = rest.firstIndex(of: "\"") else { XCTFail("unterminated attribute in \(out)", file: file, line: line); return }
                let value = String(rest[..<end])
                rest = rest[rest.index(after: end)...]
                if attr == "href" || attr == "src" {
                    XCTAssertTrue(Markdown.isAllowed(url: value, schemes: ["http", "https", "mailto"]),
                                  "dangerous URL \(value) in \(out)", file: file, line: line)
                    XCTAssertFalse(value.lowercased().contains("script:"), "\(value) in \(out)", file: file, line: line)
                }
            }
        }
    }

    func test_render_basicMarkdown() throws {
        XCTAssertEqual(try html("# Week\n\nNoticed *twice*."), "<h3>Week</h3>\n<p>Noticed <em>twice</em>.</p>\n")
    }

    /// Raw HTML is shown as the text it is, never as markup: dropped, a paragraph that began with
    /// a tag took the words after it on its lines along (helper 112).
    func test_render_showsRawHTMLBlocksAndInlineAsText() throws {
        let out = try html("<script>alert(1)</script>\n\ntext <b onclick=\"x()\">bold</b> <img src=x onerror=alert(1)>")
        assertInert(out)
        XCTAssertTrue(out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), out)
        XCTAssertTrue(out.contains("text &lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt;"), out)
        let paragraph = try html("<p>I said it before the meeting.\nThen again after.\n\nNext day.")
        XCTAssertEqual(paragraph, "<p>&lt;p&gt;I said it before the meeting.\nThen again after.</p>\n<p>Next day.</p>\n")
    }

    /// libcmark matches brackets in time quadratic in their number: a document with more than
    /// `maxBrackets` of them is read with every "[" as a character, no link made (64 KiB of
    /// `![[]()![` took half a second at every build, helper 112).
    func test_render_aDocumentOfThousandsOfBracketsMakesNoLinks() throws {
        let many = String(repeating: "![[]()![", count: 8_000)
        let out = try html(many)
        XCTAssertTrue(out.hasPrefix("<p>![[]()![![[]()![!["), String(out.prefix(80)))
        XCTAssertFalse(out.contains("<img") || out.contains("<a "))
        let links = String(repeating: "[a](https://example.org/) ", count: 10)
        XCTAssertTrue(try html(links).contains("<a href=\"https://example.org/\">a</a>"))
        let atTheLimit = String(repeating: "[", count: Markdown.maxBrackets - 1) + " [a](https://example.org/)"
        XCTAssertTrue(try html(atTheLimit).contains("<a href="), "up to the limit, links are made")
        XCTAssertFalse(try html("[" + atTheLimit).contains("<a href="), "past it, none")
    }

    /// An image inside a remote image's alt text: the inner one was freed with the outer one's
    /// subtree and then replaced in turn, and the build died of a segmentation fault (helper 112).
    func test_render_anImageOrLinkInsideARemoteImageIsItsAltText() throws {
        XCTAssertEqual(try html("![![alt](http://e.com/0)](http://e.com/1)"), "<p>alt</p>\n")
        XCTAssertEqual(try html("![[link](javascript:x)](http://e.com/1)"), "<p>link</p>\n")
        XCTAssertEqual(try html("![a ![b](http://e.com/0) c ![d](http://e.com/2)](http://e.com/1) after"), "<p>a b c d after</p>\n")
        // Deep: linear, and no recursion limit reached.
        let deep = String(repeating: "![", count: 1_500) + "x" + String(repeating: "](http://e.com/)", count: 1_500)
        XCTAssertEqual(try html(deep), "<p>x</p>\n")
    }

    func test_render_dropsSVGWithOnload() throws {
        let out = try html("<svg onload=alert(1)><circle/></svg>\n\ninline <svg/onload=alert(1)> too")
        assertInert(out)
    }

    func test_render_emptiesJavascriptAndOtherDangerousLinks() throws {
        let sources = [
            "[x](javascript:alert(1))",
            "[x](JaVaScRiPt:alert(1))",
            "[x](vbscript:msgbox)",
            "[x](file:///etc/passwd)",
            "[x](data:text/html;base64,PHNjcmlwdD4=)",
            "<javascript:alert(1)>",
            "[x]: javascript:alert(1)\n\n[y][x]",
            "![i](javascript:alert(1))",
            "[x](&#106;avascript:alert(1))",
            "[x](&#x6A;avascript&#58;alert(1))",
            "[x](java&#x09;script:alert(1))",
            "[x](<java\tscript:alert(1)>)",
            "[x](%6Aavascript:alert(1))",
            "[x]( javascript:alert(1))",
        ]
        for source in sources {
            let out = try html(source)
            assertInert(out)
            XCTAssertFalse(out.contains("href=\"java"), "\(source) -> \(out)")
        }
    }

    func test_render_entityTricksInTextStayText() throws {
        let out = try html("&lt;script&gt;alert(1)&lt;/script&gt; and &#60;img src=x onerror=alert(1)&#62;")
        XCTAssertTrue(out.contains("&lt;script&gt;"))
        XCTAssertFalse(out.contains("<img"))
        XCTAssertFalse(out.contains("<script"))
    }

    func test_render_combiningMarkCannotOpenATagOrAttribute() throws {
        let out = try html("<\u{301}script>alert(1)</script> [a](\"\u{301} onmouseover=x) \"\u{301}<\u{301}b>")
        // Every "<" in the output starts one of cmark's own tags; the user's became text or was omitted.
        XCTAssertFalse(out.contains("<\u{301}"))
        XCTAssertFalse(out.contains("\"\u{301}"))
        assertInert(out)
    }

    func test_render_keepsSafeLinksAndImages() throws {
        let out = try html("[a](https://example.org/x?y=1) [b](mailto:me@example.org) [c](notes/week.html) "
                           + "[d](#top) ![e](img/x.png) ![f](data:image/png;base64,AAAA)")
        XCTAssertTrue(out.contains("href=\"https://example.org/x?y=1\""))
        XCTAssertTrue(out.contains("href=\"mailto:me@example.org\""))
        XCTAssertTrue(out.contains("href=\"notes/week.html\""))
        XCTAssertTrue(out.contains("href=\"#top\""))
        XCTAssertTrue(out.contains("src=\"img/x.png\""))
        // cmark lets data:image through; the allow list does not.
        XCTAssertFalse(out.contains("data:"))
    }

    /// A link to a refused destination is its text, not an empty href that reloads the page.
    func test_render_refusedLinkBecomesItsText() throws {
        let out = try html("Read [the *notes*](javascript:alert(1)) and [this](vbscript:x) now.")
        XCTAssertFalse(out.contains("<a"), out)
        XCTAssertTrue(out.contains("Read the <em>notes</em> and this now."), out)
        assertInert(out)
    }

    func test_render_attributeQuotesAreEscaped() throws {
        let out = try html("[x](https://e.org/\"onmouseover=\"alert(1) \"t\\\"itle\")")
        XCTAssertTrue(out.contains("title=\"t&quot;itle\""), out)
        assertInert(out)
    }

    func test_render_overCapIsAClearErrorNamingTheSource() {
        let big = String(repeating: "a", count: Thresholds.maxMarkdownBytes + 1)
        XCTAssertThrowsError(try Markdown.render(big, name: "content/weeks/2026-W47.md")) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("content/weeks/2026-W47.md"), text)
            XCTAssertTrue(text.contains("\(Thresholds.maxMarkdownBytes + 1) bytes"), text)
            XCTAssertTrue(text.contains("65536"), text)
        }
        XCTAssertNoThrow(try Markdown.render(String(repeating: "a", count: Thresholds.maxMarkdownBytes), name: "x"))
    }

    func test_render_capCountsUTF8Bytes() {
        // 22,000 three-byte characters: under 64 Ki characters, over 64 KiB.
        let wide = String(repeating: "\u{2014}", count: 22_000)
        XCTAssertThrowsError(try Markdown.render(wide, name: "n"))
    }

    func test_render_nulAndControlCharactersDoNotBreakRendering() throws {
        let out = try html("a\u{0}b\u{1b}[31mc\u{7f}d")
        XCTAssertEqual(out, "<p>ab[31mcd</p>\n")
    }

    func test_isAllowed_scheme() {
        XCTAssertTrue(Markdown.isAllowed(url: "a/b:c", schemes: ["http"]))
        XCTAssertTrue(Markdown.isAllowed(url: "?q=a:b", schemes: []))
        XCTAssertFalse(Markdown.isAllowed(url: "\u{1}java\nscript:x", schemes: ["http"]))
        XCTAssertFalse(Markdown.isAllowed(url: "HTTPX://x", schemes: ["http"]))
        XCTAssertTrue(Markdown.isAllowed(url: "HTTPS://x", schemes: ["https"]))
    }

    /// The user's "#" heading inside a page (a reflection, a note) comes below the page's own h1
    /// and h2 sections; a free page of its own keeps its levels.
    func test_markdown_headingsSitBelowThePagesOwn() throws {
        let source = "# Mine\n\n## Sub\n\n###### Deep\n\ntext"
        let inside = try Markdown.html(source, name: "reflection").html
        XCTAssertTrue(inside.contains("<h3>Mine</h3>") && inside.contains("<h4>Sub</h4>") && inside.contains("<h6>Deep</h6>"), inside)
        XCTAssertFalse(inside.contains("<h1") || inside.contains("<h2"), inside)
        let own = try Markdown.html(source, name: "content/pages/about.md", headingsFrom: 1).html
        XCTAssertTrue(own.contains("<h1>Mine</h1>") && own.contains("<h2>Sub</h2>"), own)
    }
}
