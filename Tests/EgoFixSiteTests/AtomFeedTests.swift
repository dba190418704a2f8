import FoundationXML
import XCTest
@testable import EgoFixSite

final class AtomFeedTests: XCTestCase {
    let updated = Date(timeIntervalSince1970: 1_795_348_800)  // 2026-11-22T12:00:00Z

    private func entries() throws -> [AtomEntry] {
        [
            AtomEntry(id: UUID(uuidString: "11111111-2222-3333-4444-555555555555") ?? UUID(),
                      title: "v1.3 <minor> & \"quiet\"\u{1b}", path: "changelog/v1.3.html",
                      updated: updated, published: updated.addingTimeInterval(-3600),
                      summary: "Seven fixes applied.", content: try Markdown.html("Notes with <b>raw</b> & *emphasis*", name: "content/versions/1.3.md")),
            AtomEntry(id: UUID(uuidString: "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE") ?? UUID(),
                      title: "v1.2", path: "changelog/v1.2.html", updated: updated.addingTimeInterval(-86_400 * 7)),
        ]
    }

    /// A minimal Atom reader: the feed's and entries' ids, titles, links, updated and content.
    final class Reader: NSObject, XMLParserDelegate {
        struct Entry { var id = "", title = "", link = "", updated = "", content = "" }
        var feedID = "", feedTitle = "", feedLinks: [String: String] = [:]
        var entries: [Entry] = []
        var rootNamespace: String?
        private var path: [String] = []
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if path.isEmpty { rootNamespace = attributes["xmlns"] }
            path.append(name)
            text = ""
            if name == "entry" { entries.append(Entry()) }
            if name == "link" {
                if path.count == 2 { feedLinks[attributes["rel"] ?? ""] = attributes["href"] }
                if path.count == 3 { entries[entries.count - 1].link = attributes["href"] ?? "" }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if path.count == 2 && name == "id" { feedID = text }
            if path.count == 2 && name == "title" { feedTitle = text }
            if path.count == 3, !entries.isEmpty {
                switch name {
                case "id": entries[entries.count - 1].id = text
                case "title": entries[entries.count - 1].title = text
                case "updated": entries[entries.count - 1].updated = text
                case "content": entries[entries.count - 1].content = text
                default: break
                }
            }
            path.removeLast()
        }
    }

    private func read(_ xml: String) throws -> Reader {
        let parser = XMLParser(data: Data(xml.utf8))
        let reader = Reader()
        parser.delegate = reader
        XCTAssertTrue(parser.parse(), "not well-formed: \(String(describing: parser.parserError))\n\(xml)")
        return reader
    }

    func test_feed_parsesAndHasTheEntries_withAbsoluteLinks() throws {
        let xml = AtomFeed.render(entries: try entries(), title: "Changelog & notes", baseURL: "https://example.org/egofix/",
                                  updated: updated)
        let feed = try read(xml)
        XCTAssertEqual(feed.rootNamespace, "http://www.w3.org/2005/Atom")
        XCTAssertEqual(feed.feedTitle, "Changelog & notes")
        XCTAssertEqual(feed.feedID, "https://example.org/egofix/changelog.xml")
        XCTAssertEqual(feed.feedLinks["self"], "https://example.org/egofix/changelog.xml")
        XCTAssertEqual(feed.feedLinks["alternate"], "https://example.org/egofix/changelog.html")
        XCTAssertEqual(feed.entries.count, 2)
        XCTAssertEqual(feed.entries[0].id, "urn:uuid:11111111-2222-3333-4444-555555555555")
        XCTAssertEqual(feed.entries[0].title, "v1.3 <minor> & \"quiet\"", "escaped, control character removed")
        XCTAssertEqual(feed.entries[0].link, "https://example.org/egofix/changelog/v1.3.html")
        XCTAssertEqual(feed.entries[0].updated, "2026-11-22T12:00:00Z")
        XCTAssertTrue(feed.entries[0].content.hasPrefix("<p>Notes with &lt;b&gt;raw"), feed.entries[0].content)
        XCTAssertEqual(feed.entries[1].id, "urn:uuid:aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")
        XCTAssertTrue(xml.contains("<published>2026-11-22T11:00:00Z</published>"))
        XCTAssertTrue(xml.contains("<author><name>egofix</name></author>"), "Atom requires an author")
    }

    func test_feed_withoutBaseURL_usesRelativeLinksAndAUUIDFeedID() throws {
        let xml = AtomFeed.render(entries: try entries(), title: "Changelog", baseURL: nil, updated: updated)
        let feed = try read(xml)
        XCTAssertEqual(feed.feedID, "urn:uuid:523e5762-728a-56ad-90b7-4ec9fbd44920")
        XCTAssertNil(feed.feedLinks["self"])
        XCTAssertEqual(feed.entries[0].link, "changelog/v1.3.html")
        XCTAssertEqual(feed.entries[0].id, "urn:uuid:11111111-2222-3333-4444-555555555555",
                       "entry ids do not depend on the base URL")
        let nested = AtomFeed.render(entries: try entries(), title: "C", baseURL: nil, updated: updated,
                                     feedPath: "feeds/changelog.xml")
        XCTAssertEqual(try read(nested).entries[0].link, "../changelog/v1.3.html")
    }

    func test_feed_ignoresABaseURLThatIsNotHTTP() throws {
        for bad in ["javascript:alert(1)//", "ftp://example.org/", "example.org", "https://exa mple.org/", ""] {
            let feed = try read(AtomFeed.render(entries: try entries(), title: "C", baseURL: bad, updated: updated))
            XCTAssertEqual(feed.entries[0].link, "changelog/v1.3.html", bad)
        }
        let noSlash = try read(AtomFeed.render(entries: [], title: "C", baseURL: "http://example.org/site", updated: updated))
        XCTAssertEqual(noSlash.feedLinks["self"], "http://example.org/site/changelog.xml")
    }

    func test_feed_percentEncodesPaths() throws {
        let e = AtomEntry(id: UUID(), title: "t", path: "/notes/a b\"<c>.html", updated: updated)
        let feed = try read(AtomFeed.render(entries: [e], title: "C", baseURL: "https://e.org/", updated: updated))
        XCTAssertEqual(feed.entries[0].link, "https://e.org/notes/a%20b%22%3Cc%3E.html")
    }

    func test_feed_entryLinkKeepsItsFragment() throws {
        let e = AtomEntry(id: UUID(), title: "v1.0", path: "changelog/index.html#v-1-0", updated: updated)
        let absolute = try read(AtomFeed.render(entries: [e], title: "C", baseURL: "https://example.org/ego/", updated: updated,
                                                feedPath: "changelog/feed.xml"))
        XCTAssertEqual(absolute.entries[0].link, "https://example.org/ego/changelog/index.html#v-1-0")
        let relative = try read(AtomFeed.render(entries: [e], title: "C", baseURL: nil, updated: updated, feedPath: "changelog/feed.xml"))
        XCTAssertEqual(relative.entries[0].link, "../changelog/index.html#v-1-0")
        let odd = AtomEntry(id: UUID(), title: "t", path: "notes/a b.html#x y#z", updated: updated)
        XCTAssertEqual(try read(AtomFeed.render(entries: [odd], title: "C", baseURL: "https://e.org/", updated: updated)).entries[0].link,
                       "https://e.org/notes/a%20b.html#x%20y%23z", "the path and the fragment are each encoded, the first # kept")
    }

    func test_feed_isDeterministic() throws {
        let a = AtomFeed.render(entries: try entries(), title: "C", baseURL: nil, updated: updated)
        let b = AtomFeed.render(entries: try entries(), title: "C", baseURL: nil, updated: updated)
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">"))
    }

    func test_timestamp_isRFC3339UTC() {
        XCTAssertEqual(AtomFeed.timestamp(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(AtomFeed.timestamp(Date(timeIntervalSince1970: 951_782_400.75)), "2000-02-29T00:00:00Z")
        XCTAssertEqual(AtomFeed.timestamp(Date(timeIntervalSince1970: -1)), "1969-12-31T23:59:59Z")
    }

    func test_sha1_andNameBasedUUID_matchKnownValues() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        XCTAssertEqual(hex(SHA1.digest(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.digest([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(hex(SHA1.digest([UInt8](repeating: 0x61, count: 1000))), "291e9a6c66994949b57ba5e650361e98fc36b1ba")
        XCTAssertEqual(NameUUID.v5(name: "http://example.com/").uuidString.lowercased(), "0a300ee9-f9e4-5697-a51a-efc7fafaba67")
    }
}
