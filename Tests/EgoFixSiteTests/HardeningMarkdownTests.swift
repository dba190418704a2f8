import XCTest
@testable import EgoFixSite

/// Issue 30, case 13: the Atom feed carries no image from another site (feed readers apply no CSP).
final class HardeningMarkdownTests: XCTestCase {
    func test_Hardening_feedMarkdownDropsRemoteImages() throws {
        let source = "Shipped. ![tracking pixel](https://evil.example/p.png) ![also](//evil.example/q.png) ![kept](img/local.png)"
        let feed = try Markdown.html(source, name: "content/versions/1.1.md", remoteImages: false).html
        XCTAssertFalse(feed.contains("evil.example"), feed)
        XCTAssertTrue(feed.contains("tracking pixel") && feed.contains("also"), "the alt text stays: \(feed)")
        XCTAssertTrue(feed.contains("<img src=\"img/local.png\""), feed)
        // The pages keep them (their CSP decides).
        XCTAssertTrue(try Markdown.html(source, name: "x").html.contains("evil.example"))
    }
}
