import EgoFixCore
@testable import EgoFixSite
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

final class SiteSafetyTests: XCTestCase {
    /// A unique marker in every personal field; none reaches share/.
    func test_privacy_personalMarkersNeverReachShare() async throws {
        let marker = "ZQX" + "PRIVATE" + "7731"
        var p = try await PracticeFixture.make(reflections: ["reflection \(marker)-R"], crashNotes: ["note \(marker)-C"])
        // Diagnostic answers are choices, not text; mark the user's id-bearing records too.
        p.data.profile?.syncToken = marker + "-T"
        let content = SiteContent(weeks: [.init(name: "2026-W10", source: "w", markdown: "week \(marker)-W")],
                                  versions: [.init(name: "1.1", source: "v", markdown: "version \(marker)-V")],
                                  pages: [.init(name: "about", source: "p", markdown: "page \(marker)-P")])
        let files = try PracticeFixture.build(p, content: content, title: "Title \(marker)-S")
        // The markers do show on private pages (so the test can fail).
        XCTAssertTrue(files.contains { !$0.key.hasPrefix("share/") && String(decoding: $0.value, as: UTF8.self).contains(marker + "-R") })
        let share = files.filter { $0.key.hasPrefix("share/") }
        XCTAssertGreaterThanOrEqual(share.count, 5)
        for (path, data) in share {
            XCTAssertFalse(path.contains(marker), path)
            XCTAssertNil(data.range(of: Data(marker.utf8)), "\(path) holds a personal marker")
            let s = String(decoding: data, as: UTF8.self)
            for leak in ["2026-03", "v1.", "streak", "applied", "reflection"] where path.hasSuffix(".html") || path.hasSuffix(".svg") {
                XCTAssertFalse(s.lowercased().contains(leak), "\(path) mentions \(leak)")
            }
        }
    }

    static let hostile = [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[click](javascript:alert(1))",
        "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "&#106;avascript:alert(1) and [x](&#106;avascript:alert(1))",
        "\"\u{301} onmouseover=alert(1) <\u{301}script>alert(1)<\u{301}/script>",
        "<svg onload=alert(1)><circle r=5/></svg>",
        "<a href=\"javascript:alert(1)\" onclick=\"alert(1)\">x</a>",
        "![img](javascript:alert(1)) <iframe src=//evil.example></iframe>",
    ]

    func test_hostileInput_isInertOnEveryPage() async throws {
        let p = try await PracticeFixture.make(reflections: SiteSafetyTests.hostile, crashNotes: SiteSafetyTests.hostile)
        let content = SiteContent(weeks: [.init(name: "2026-W10", source: "w", markdown: SiteSafetyTests.hostile.joined(separator: "\n\n"))],
                                  versions: [.init(name: "1.1", source: "v", markdown: SiteSafetyTests.hostile.joined(separator: "\n\n"))],
                                  pages: [.init(name: "about", source: "p", markdown: SiteSafetyTests.hostile.joined(separator: "\n\n"))])
        let files = try PracticeFixture.build(p, content: content, title: "<script>alert('t')</script>")
        var checkedPages = 0
        for (path, data) in files where path.hasSuffix(".html") {
            let doc = HTMLDocument(String(decoding: data, as: UTF8.self))
            checkedPages += 1
            XCTAssertTrue(doc.all("script").isEmpty, "\(path): a script element")
            XCTAssertTrue(doc.all("iframe").isEmpty, "\(path): an iframe")
            XCTAssertFalse(doc.all("img").contains { $0.attr("onerror") != nil }, path)
            for el in doc.elements {
                for (k, v) in el.attributes {
                    XCTAssertFalse(k.hasPrefix("on"), "\(path): <\(el.name) \(k)=…>")
                    if k == "href" || k == "src" {
                        let lv = v.lowercased().filter { !$0.isWhitespace }
                        XCTAssertFalse(lv.hasPrefix("javascript:") || lv.hasPrefix("data:text") || lv.hasPrefix("vbscript:"), "\(path): \(k)=\(v)")
                    }
                }
            }
            // The combining-mark trick stays escaped: no raw quote or angle bracket followed by U+0301.
            let raw = String(decoding: data, as: UTF8.self)
            XCTAssertFalse(raw.unicodeScalars.split(separator: "\u{301}").dropLast().contains { $0.last == "<" || $0.last == "\"" }, path)
        }
        XCTAssertGreaterThan(checkedPages, 20)
        for (path, data) in files where path.hasSuffix(".svg") || path.hasSuffix(".xml") {
            XCTAssertTrue(XMLParser(data: data).parse(), "\(path) is well-formed XML")
            XCTAssertNil(String(decoding: data, as: UTF8.self).range(of: "<script"), path)
        }
    }
}
