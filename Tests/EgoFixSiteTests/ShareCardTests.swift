import FoundationXML
import XCTest
import EgoFixCore
@testable import EgoFixSite

final class ShareCardTests: XCTestCase {
    let created = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    private func bug() -> Bug {
        Bug(id: UUID(uuidString: "F8396251-96A6-59D6-AAD8-740C3B361828") ?? UUID(), slug: "need-to-be-right",
            title: "Need to be right", description: "The compulsion to correct others.",
            isActive: true, status: .active, activatedAt: created, createdAt: created)
    }

    private func fix(prompt: String = "Let someone else have the last word.",
                     comment: String? = "// This is harder when you're sure you're right.\n// That's the point.",
                     number: Int = 37) -> Fix {
        Fix(id: UUID(uuidString: "0C6E2B62-F937-5AAE-A0E2-0F19C172BA87") ?? UUID(), number: number, bugId: bug().id,
            severity: .medium, prompt: prompt, inlineComment: comment, validation: "Mark applied tonight.",
            createdAt: created, updatedAt: created.addingTimeInterval(86_400 * 3))
    }

    private func card(_ fix: Fix? = nil) throws -> ShareCard {
        try ShareCard(fix: fix ?? self.fix(), bug: bug())
    }

    // MARK: The card type

    func test_ShareFix_excludesPersonalData() throws {
        // The type itself can hold catalogue text only.
        let c = try card()
        let fields = Mirror(reflecting: c).children.compactMap(\.label)
        XCTAssertEqual(fields, ["number", "prompt", "inlineComment", "bugTitle", "slug"])

        // What gets rendered from a fix has no date, version, streak, outcome or id in it.
        let svg = ShareCardSVG.render(c)
        let png = try ShareCardPNG.render(c)
        let pngText = String(decoding: png, as: UTF8.self)
        let forbidden = ["2026", "11-18", "v1.", "version", "streak", "day 14", "applied", "skipped", "failed",
                         "reflection", "F8396251", "0C6E2B62", "Mark applied tonight", "medium"]
        for needle in forbidden {
            XCTAssertFalse(svg.lowercased().contains(needle.lowercased()), "SVG contains \(needle)")
            XCTAssertFalse(pngText.contains(needle), "PNG contains \(needle)")
        }
        XCTAssertEqual(try PNGChunks.chunks(png).map(\.type).filter { $0 != "IDAT" }, ["IHDR", "IEND"],
                       "no text, time or other metadata chunk")
        XCTAssertTrue(svg.contains("FIX #037"))
        XCTAssertTrue(svg.contains("Let someone else have the last word."))
    }

    func test_card_fromFixAndBug() throws {
        let c = try card()
        XCTAssertEqual(c.number, 37)
        XCTAssertEqual(c.label, "FIX #037")
        XCTAssertEqual(c.slug, "fix-037")
        XCTAssertEqual(c.bugTitle, "Need to be right")
        XCTAssertEqual(try card(fix(comment: "  \n ")).inlineComment, nil)
        XCTAssertEqual(try card(fix(number: 1234)).slug, "fix-1234")
    }

    func test_card_refusesAFixOfAnotherBugOrADeletedOne() {
        let other = Bug(slug: "need-to-impress", title: "Need to impress", description: "", createdAt: created)
        XCTAssertThrowsError(try ShareCard(fix: fix(), bug: other)) {
            XCTAssertEqual($0 as? ShareCard.Error, .bugMismatch(fixNumber: 37, bugSlug: "need-to-impress"))
        }
        var deleted = fix()
        deleted.deletedAt = created
        XCTAssertThrowsError(try ShareCard(fix: deleted, bug: bug()))
    }

    // MARK: SVG

    func test_svg_isA1200x630AccessibleImageWithThePromptEscaped() throws {
        let hostile = "Say \"no\" <script>alert(1)</script> & mean it\u{7}\u{1b}."
        let svg = ShareCardSVG.render(try card(fix(prompt: hostile, comment: "// <b>bold</b> & \"quoted\"")))
        XCTAssertTrue(svg.contains("&quot;no&quot;"), svg)
        XCTAssertTrue(svg.contains("&lt;script&gt;"), svg)
        XCTAssertFalse(svg.contains("<script"))
        XCTAssertFalse(svg.contains("<b>"))
        XCTAssertFalse(svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "control characters removed")

        final class Root: NSObject, XMLParserDelegate {
            var attributes: [String: String]?
            var texts = 0
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                        qualifiedName: String?, attributes: [String: String] = [:]) {
                if attributes.isEmpty == false, self.attributes == nil { self.attributes = attributes }
                if name == "text" { texts += 1 }
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let root = Root()
        parser.delegate = root
        XCTAssertTrue(parser.parse())
        XCTAssertEqual(root.attributes?["width"], "1200")
        XCTAssertEqual(root.attributes?["height"], "630")
        XCTAssertEqual(root.attributes?["role"], "img")
        XCTAssertTrue(root.attributes?["aria-label"]?.contains("FIX #037 (Need to be right): Say \"no\"") == true)
        XCTAssertTrue(svg.contains(">EgoFix</text>"), "the small mark")
        XCTAssertTrue(svg.contains("DejaVu Sans Mono"))
    }

    func test_svg_wrapsLongPromptsInsideTheCard() throws {
        let long = "You just oversold yourself. For the next ten minutes, add nothing to that conversation: "
            + "no follow-up, no link, no \"to be fair.\""
        let layout = ShareCardLayout.make(try card(fix(prompt: long)), measure: ShareCardLayout.monospaceMeasure)
        let promptLines = layout.lines.filter { $0.color == ShareCardLayout.promptColor }
        XCTAssertGreaterThan(promptLines.count, 1)
        XCTAssertEqual(promptLines.map(\.text).joined(separator: " "), long, "wrapping loses no word")
        for line in layout.lines where line.anchor == .start {
            XCTAssertLessThanOrEqual(Double(line.x) + ShareCardLayout.monospaceMeasure(line.text, line.size),
                                     Double(ShareCardLayout.width - ShareCardLayout.margin), line.text)
            XCTAssertLessThan(line.y, ShareCardLayout.height, line.text)
        }
        // Comment lines keep their "//".
        for line in layout.lines where line.color == ShareCardLayout.commentColor {
            XCTAssertTrue(line.text.hasPrefix("//"), line.text)
        }
    }

    func test_svg_absurdlyLongTextIsCutWithAnEllipsis() throws {
        let huge = String(repeating: "word ", count: 400) + "Supercalifragilistic" + String(repeating: "x", count: 200)
        let layout = ShareCardLayout.make(try card(fix(prompt: huge, comment: huge)), measure: ShareCardLayout.monospaceMeasure)
        let prompt = layout.lines.filter { $0.color == ShareCardLayout.promptColor }
        let comment = layout.lines.filter { $0.color == ShareCardLayout.commentColor }
        XCTAssertEqual(prompt.count, 5)
        XCTAssertTrue(prompt.last?.text.hasSuffix("\u{2026}") == true)
        XCTAssertLessThanOrEqual(comment.count, 4)
        XCTAssertLessThan(comment.last?.y ?? 0, ShareCardLayout.height - ShareCardLayout.margin,
                          "text stays above the footer")
    }

    func test_wrap_splitsWordsWiderThanALine() {
        let lines = TextWrap.wrap("aaaaaaaaaa bb", width: 4, maxLines: 10) { Double($0.count) }
        XCTAssertEqual(lines, ["aaaa", "aaaa", "aa", "bb"])
        XCTAssertEqual(TextWrap.wrap("a b c d", width: 3, maxLines: 1) { Double($0.count) }, ["a\u{2026}"])
    }

    func test_columns_countsCombiningMarksAndWideCharacters() {
        XCTAssertEqual(ShareCardLayout.columns("e\u{301}"), 1)
        XCTAssertEqual(ShareCardLayout.columns("\u{65E5}\u{672C}"), 4)
        XCTAssertEqual(ShareCardLayout.columns("abc"), 3)
    }

    func test_svg_isDeterministic() throws {
        XCTAssertEqual(ShareCardSVG.render(try card()), ShareCardSVG.render(try card()))
    }

    // MARK: PNG

    func test_png_isA1200x630PNGWithOnlyIHDRIDATIEND() throws {
        let png = try ShareCardPNG.render(try card())
        XCTAssertEqual(Array(png.prefix(8)), PNGChunks.signature)
        let chunks = try PNGChunks.chunks(png)
        XCTAssertEqual(chunks.first?.type, "IHDR")
        XCTAssertEqual(chunks.last?.type, "IEND")
        XCTAssertTrue(chunks.dropFirst().dropLast().allSatisfy { $0.type == "IDAT" })
        XCTAssertGreaterThanOrEqual(chunks.count, 3)
        let ihdr = [UInt8](png.subdata(in: chunks[0].dataRange))
        let width = Int(ihdr[0]) << 24 | Int(ihdr[1]) << 16 | Int(ihdr[2]) << 8 | Int(ihdr[3])
        let height = Int(ihdr[4]) << 24 | Int(ihdr[5]) << 16 | Int(ihdr[6]) << 8 | Int(ihdr[7])
        XCTAssertEqual(width, 1200)
        XCTAssertEqual(height, 630)
        XCTAssertEqual(chunks.last?.range.upperBound, png.count, "nothing after IEND")
    }

    func test_png_sameCardSameBytes_differentCardDifferentImage() throws {
        let a = try ShareCardPNG.render(try card())
        let b = try ShareCardPNG.render(try card())
        XCTAssertEqual(a, b)
        let c = try ShareCardPNG.render(try card(fix(prompt: "Ask a question you do not know the answer to.")))
        XCTAssertNotEqual(a, c, "the prompt is drawn")
    }

    /// The card font is read from its file, not found through fontconfig; on a machine where
    /// fontconfig finds that file for the family, the PNG bytes are the same either way.
    func test_png_fontFromItsFileDrawsWhatTheFamilyNameDraws() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: ShareCardPNG.fontFile), "no \(ShareCardPNG.fontFile) here")
        XCTAssertTrue(ShareCardPNG.fontIsReadFromItsFile)
        let cards = [try card(), try card(fix(prompt: "Ask a question you do not know the answer to.", comment: "// Then wait.")),
                     try card(fix(prompt: "Caf\u{e9}, na\u{ef}ve \u{2014} \u{201C}quoted\u{201D}, 12:30, [brackets] {braces} ~tilde~"))]
        var seconds = (draw: 0.0, encode: 0.0)
        for c in cards {
            let byFile = try ShareCardPNG.render(c, seconds: &seconds)
            let byName = try ShareCardPNG.render(c, seconds: &seconds, fontByName: true)
            XCTAssertEqual(byFile, byName, c.prompt)
        }
    }

    /// Cards are drawn on reused pixel memory; what an earlier card left there must not reach the bytes.
    func test_png_reusedPixelMemoryGivesTheBytesOfFreshMemory() throws {
        let a = try card(), b = try card(fix(prompt: "Ask a question you do not know the answer to.", comment: "// Then wait."))
        var seconds = (draw: 0.0, encode: 0.0)
        let freshA = try ShareCardPNG.render(a, seconds: &seconds, fresh: true)
        let freshB = try ShareCardPNG.render(b, seconds: &seconds, fresh: true)
        for _ in 0..<3 {
            XCTAssertEqual(try ShareCardPNG.render(b), freshB)
            XCTAssertEqual(try ShareCardPNG.render(a), freshA)
        }
        // Poison the pooled buffers, as the worst earlier use could leave them.
        let bytes = Int(ShareCardLayout.width * 4) * ShareCardLayout.height
        let held = (0..<4).map { _ in PixelBuffers.shared.take(bytes) }
        for (k, b) in held.enumerated() { b.pointer.initializeMemory(as: UInt8.self, repeating: UInt8(0x5A + k), count: bytes) }
        for b in held { PixelBuffers.shared.give(b) }
        XCTAssertEqual(try ShareCardPNG.render(a), freshA)
        XCTAssertEqual(try ShareCardPNG.render(b), freshB)
    }

    /// The layout measures text from per-character advances; every width must be cairo's own for the
    /// whole string, or lines would wrap differently.
    func test_png_layoutWidthsAreCairosOwn() throws {
        let hostile = "\u{0}\u{1b}[31m<script>\u{202E}\u{301}\u{301}\u{301} \u{1F600}\u{FFFF} " + String(repeating: "\u{65E5}", count: 30)
        let strings = ["", "    ", "Fix #37", "Need to be right", "Let someone else have the last word.",
                       "// This is harder when you're sure you're right.", "Ask a question you do not know the",
                       "e\u{301}t\u{e9} \u{2026}", "\u{65E5}\u{672C}\u{8A9E} mixed", "tab\there", "nul\u{0}after", hostile,
                       String(repeating: "W", count: 80), String(repeating: "il1 ", count: 40) + "\u{2026}"]
        try ShareCardPNG.withCardText { measure in
            for size in [46, 42, 38, 34, 30, 28, 26, 24] {
                for text in strings {
                    XCTAssertEqual(measure.width(text, size).bitPattern, measure.cairoWidth(text, size).bitPattern,
                                   "\(text.debugDescription) at \(size)")
                }
            }
        }
    }

    func test_png_hostileTextDoesNotBreakDrawing() throws {
        let hostile = "\u{0}\u{1b}[31m<script>\u{202E}\u{301}\u{301}\u{301} \u{1F600}\u{FFFF} " + String(repeating: "\u{65E5}", count: 300)
        let png = try ShareCardPNG.render(try card(fix(prompt: hostile, comment: hostile)))
        XCTAssertEqual(try PNGChunks.chunks(png).first?.type, "IHDR")
    }

    func test_chunks_keepingOnlyDropsOtherChunksAndCopiesTheRestVerbatim() throws {
        let png = try ShareCardPNG.render(try card())
        let chunks = try PNGChunks.chunks(png)
        // Insert a tEXt and a tIME chunk after IHDR, as encoders do.
        func chunk(_ type: String, _ payload: [UInt8]) -> Data {
            let n = payload.count
            return Data([UInt8(n >> 24 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)])
                + Data(type.utf8) + Data(payload) + Data([0, 0, 0, 0])
        }
        var dirty = png.subdata(in: 0..<chunks[0].range.upperBound)
        dirty += chunk("tEXt", Array("Creation Time\u{0}2026-11-22".utf8))
        dirty += chunk("tIME", [7, 234, 11, 22, 5, 0, 0])
        dirty += png.subdata(in: chunks[0].range.upperBound..<png.count)
        XCTAssertEqual(try PNGChunks.chunks(dirty).map(\.type).prefix(3), ["IHDR", "tEXt", "tIME"])
        XCTAssertEqual(try PNGChunks.keepingOnly(["IHDR", "IDAT", "IEND"], in: dirty), png)
    }

    func test_chunks_rejectsWhatIsNotAPNG() {
        XCTAssertThrowsError(try PNGChunks.chunks(Data("GIF89a".utf8)))
        XCTAssertThrowsError(try PNGChunks.chunks(Data(PNGChunks.signature + [0, 0, 0, 9, 73, 72])))
        XCTAssertThrowsError(try PNGChunks.chunks(Data(PNGChunks.signature)), "no IEND")
    }
}
