import XCTest
@testable import EgoFixSite

/// Issue 30, case 13: the Atom feed carries no image from another site (feed readers apply no CSP),
/// and neither do the pages.
final class HardeningMarkdownTests: XCTestCase {
    func test_Hardening_feedMarkdownDropsRemoteImages() throws {
        let source = "Shipped. ![tracking pixel](https://evil.example/p.png) ![also](//evil.example/q.png) ![kept](img/local.png)"
        // The same rendering serves the feed and the pages: no request leaves the site from either.
        let feed = try Markdown.html(source, name: "content/versions/1.1.md").html
        XCTAssertFalse(feed.contains("evil.example"), feed)
        XCTAssertTrue(feed.contains("tracking pixel") && feed.contains("also"), "the alt text stays: \(feed)")
        XCTAssertTrue(feed.contains("<img src=\"img/local.png\""), feed)
        XCTAssertFalse(try Markdown.html(source, name: "content/pages/about.md", headingsFrom: 1).html.contains("evil.example"))
    }

    /// A numeric character reference is a control character once read (`&#27;` an escape, `&#7;`
    /// a bell, `&#155;` the one-byte CSI): it went into the page as a raw byte, and a terminal
    /// showing the file (`cat`, `grep`) ran the sequence. It is left out, as typed ones are.
    func test_Hardening_characterReferencesToControlCharactersAreLeftOut() throws {
        let html = try Markdown.html("Ent &#27;]0;OWNED&#7;&#27;[2J &#x9b;31m &amp; &#233;t&#233;", name: "reflection").html
        XCTAssertFalse(html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, html.debugDescription)
        XCTAssertFalse(html.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, html.debugDescription)
        XCTAssertTrue(html.contains("Ent ]0;OWNED[2J 31m &amp; \u{e9}t\u{e9}"), html.debugDescription)
        // A page's first heading is its <title>: the same there.
        let title = try XCTUnwrap(try Markdown.page("# Notes &#155;31m&#133;\n\nBody.", name: "content/pages/notes.md").title)
        XCTAssertEqual(title, "Notes 31m")
    }
}
