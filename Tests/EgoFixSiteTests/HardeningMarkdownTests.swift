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
}
