import FoundationXML
import XCTest
import EgoFixCore
@testable import EgoFixSite

final class ContributionGraphTests: XCTestCase {
    // Monday 2026-11-02 .. Sunday 2026-11-29: four ISO weeks.
    let monday = LocalDay(year: 2026, month: 11, day: 2)
    var sunday: LocalDay { monday.adding(days: 27) }

    private func sampleCells() -> [GraphCell] {
        [
            GraphCell(day: monday, kind: .applied, depth: 4, label: "2026-11-02: FIX #037 applied, reflection written"),
            GraphCell(day: monday.adding(days: 1), kind: .skipped, depth: 1),
            GraphCell(day: monday.adding(days: 2), kind: .crash, depth: 3, label: "crash <b>\"loud\"</b>\u{1b}[0m"),
            GraphCell(day: monday.adding(days: 3), kind: .opened),
            GraphCell(day: monday.adding(days: 4), kind: .failed, depth: 2),
            GraphCell(day: monday.adding(days: 9), kind: .applied, depth: 0),
        ]
    }

    /// Parses the SVG as XML and returns (element name, attributes) for every element, in order.
    private func elements(_ svg: String) throws -> [(String, [String: String])] {
        final class Collector: NSObject, XMLParserDelegate {
            var elements: [(String, [String: String])] = []
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                        qualifiedName: String?, attributes: [String: String] = [:]) {
                elements.append((name, attributes))
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "not well-formed XML: \(String(describing: parser.parserError))")
        return collector.elements
    }

    private func cellGroups(_ svg: String) throws -> [[String: String]] {
        try elements(svg).filter { $0.0 == "g" && ($0.1["class"] ?? "").hasPrefix("cell ") }.map(\.1)
    }

    func test_ContributionGraph_colorMatchesOutcome() throws {
        // Applied green, skipped yellow, crash red, opened a grey outline, empty a faint fill.
        func hue(_ hex: String) -> (r: Int, g: Int, b: Int) {
            let v = Int(hex.dropFirst(), radix: 16) ?? 0
            return (v >> 16, (v >> 8) & 0xff, v & 0xff)
        }
        for depth in 0...4 {
            let green = hue(ContributionGraphPalette.fill(.applied, depth: depth))
            XCTAssertTrue(green.g > green.r && green.g > green.b, "applied is green at depth \(depth)")
            let yellow = hue(ContributionGraphPalette.fill(.skipped, depth: depth))
            XCTAssertTrue(yellow.r > yellow.b && yellow.g > yellow.b && abs(yellow.r - yellow.g) < 40, "skipped is yellow")
            let red = hue(ContributionGraphPalette.fill(.crash, depth: depth))
            XCTAssertTrue(red.r > red.g && red.r > red.b, "crash is red")
        }
        XCTAssertEqual(ContributionGraphPalette.fill(.opened, depth: 3), ContributionGraphPalette.background)
        XCTAssertNotNil(ContributionGraphPalette.stroke(.opened))
        XCTAssertNil(ContributionGraphPalette.stroke(.applied))

        let svg = ContributionGraphSVG.render(sampleCells(), from: monday, through: sunday)
        let rects = try elements(svg).filter { $0.0 == "rect" }.map(\.1)
        let fills = Set(rects.compactMap { $0["fill"] })
        XCTAssertTrue(fills.contains(ContributionGraphPalette.fill(.applied, depth: 4)))
        XCTAssertTrue(fills.contains(ContributionGraphPalette.fill(.skipped, depth: 1)))
        XCTAssertTrue(fills.contains(ContributionGraphPalette.fill(.crash, depth: 3)))
        XCTAssertTrue(rects.contains { $0["stroke"] == ContributionGraphPalette.openedStroke })
    }

    func test_ContributionGraph_intensityMatchesDepth() {
        // Deeper engagement is the stronger shade: further from the dark background.
        func luminance(_ hex: String) -> Double {
            let v = Int(hex.dropFirst(), radix: 16) ?? 0
            return 0.2126 * Double(v >> 16) + 0.7152 * Double((v >> 8) & 0xff) + 0.0722 * Double(v & 0xff)
        }
        for kind in [GraphCell.Kind.applied, .skipped, .failed, .crash] {
            let shades = (0...4).map { luminance(ContributionGraphPalette.fill(kind, depth: $0)) }
            XCTAssertEqual(shades, shades.sorted(), "\(kind)")
            XCTAssertEqual(Set(shades).count, 5, "\(kind) has five distinct shades")
        }
        XCTAssertEqual(GraphCell(day: monday, kind: .applied, depth: 9).depth, 4)
        XCTAssertEqual(GraphCell(day: monday, kind: .applied, depth: -1).depth, 0)
    }

    func test_svg_gridIsSevenRowsByWeekColumns() throws {
        let svg = ContributionGraphSVG.render(sampleCells(), from: monday, through: sunday)
        let groups = try cellGroups(svg)
        // 28 days plus 6 legend kinds and 4 depth swatches.
        XCTAssertEqual(groups.count, 28 + 6 + 4)
        let rects = try elements(svg).filter { $0.0 == "rect" }.map(\.1)
        // The outlined "opened" cell is inset by half a pixel; leave it out of the count.
        let gridRects = rects.prefix(28).filter { $0["stroke"] == nil }
        XCTAssertEqual(Set(gridRects.compactMap { $0["x"] }).count, 4, "four week columns")
        XCTAssertEqual(Set(gridRects.compactMap { $0["y"] }).count, 7, "seven rows")
    }

    func test_svg_partialFirstAndLastWeeksDrawOnlyDaysInRange() throws {
        let from = LocalDay(year: 2026, month: 11, day: 4)  // Wednesday
        let through = LocalDay(year: 2026, month: 11, day: 10)  // Tuesday
        let svg = ContributionGraphSVG.render([], from: from, through: through)
        XCTAssertEqual(try cellGroups(svg).count, 7 + 6 + 4)
        let table = ContributionGraphTable.render([], from: from, through: through)
        XCTAssertEqual(table.components(separatedBy: "<td></td>").count - 1, 7, "two weeks, seven days out of range")
    }

    /// A day with a fix applied and a crash is coloured as a crash and still counts among the days
    /// with a fix applied (the summary said "1 day with a crash" only, under counts of 1 applied).
    func test_svg_summaryCountsWhatADayHeldWhateverItsColour() throws {
        let day = LocalDay(year: 2026, month: 11, day: 10)
        let cells = [GraphCell(day: day, kind: .crash, depth: 3, held: [.applied, .crash]),
                     GraphCell(day: day.adding(days: 1), kind: .failed, depth: 2, held: [.failed, .skipped])]
        let svg = ContributionGraphSVG.render(cells, from: monday, through: sunday)
        let label = try XCTUnwrap(try elements(svg).first?.1["aria-label"])
        // Four figures over two squares: said, so the words are not read as squares by colour.
        XCTAssertTrue(label.hasSuffix(": 1 day with a fix applied, 1 day with a fix skipped, 1 day with a fix failed, 1 day with a crash"
                                      + "; a day with more than one outcome counts under each, its square shows the heaviest."), label)
        XCTAssertTrue(ContributionGraphTable.render(cells, from: monday, through: sunday).contains("1 day with a fix applied"))
        // Days of one outcome each add up to the squares, and nothing more is said.
        let single = ContributionGraphSVG.render([GraphCell(day: day, kind: .applied, depth: 1, held: [.applied])], from: monday, through: sunday)
        let plain = try XCTUnwrap(try elements(single).first?.1["aria-label"])
        XCTAssertTrue(plain.hasSuffix(": 1 day with a fix applied."), plain)
    }

    func test_svg_isAccessible() throws {
        let svg = ContributionGraphSVG.render(sampleCells(), from: monday, through: sunday)
        let root = try XCTUnwrap(try elements(svg).first)
        XCTAssertEqual(root.0, "svg")
        XCTAssertEqual(root.1["role"], "img")
        let label = try XCTUnwrap(root.1["aria-label"])
        XCTAssertTrue(label.contains("2026-11-02 to 2026-11-29"), label)
        XCTAssertTrue(label.contains("2 days with a fix applied"), label)
        // Days are counted: a day of two crashes is one day with a crash. Absence is not tallied.
        XCTAssertTrue(label.contains("1 day with a crash"), label)
        XCTAssertFalse(label.contains("without activity"), label)
        let empty = ContributionGraphSVG.render([], from: monday, through: sunday)
        XCTAssertTrue(empty.contains("2026-11-02 to 2026-11-29: nothing recorded.\""), empty)
        // Every cell has a title.
        XCTAssertEqual(svg.components(separatedBy: "<g class=\"cell ").count - 1,
                       svg.components(separatedBy: "<title>").count - 2, "one title per cell plus the graph's")
        XCTAssertTrue(svg.contains("<title>2026-11-02: FIX #037 applied, reflection written</title>"))
        XCTAssertTrue(svg.contains("<title>2026-11-03: fix skipped</title>"))
    }

    func test_svg_readableWithoutColour() throws {
        // Skipped, failed and crash carry a mark; applied, opened and empty do not.
        let svg = ContributionGraphSVG.render(sampleCells(), from: monday, through: monday.adding(days: 6))
        for (kind, marked) in [("skipped", true), ("crash", true), ("failed", true), ("applied", false),
                               ("opened", false), ("empty", false)] {
            let group = svg.components(separatedBy: "<g class=\"cell \(kind) ").dropFirst().first ?? ""
            let body = group.components(separatedBy: "</g>").first ?? ""
            XCTAssertEqual(body.contains("<path"), marked, kind)
        }
        // Crash's mark is an x (two strokes), skipped's a single diagonal.
        let crashPath = ContributionGraphSVG.markPath(.crash, x: 0, y: 0) ?? ""
        XCTAssertEqual(crashPath.filter { $0 == "M" }.count, 2)
        XCTAssertEqual((ContributionGraphSVG.markPath(.skipped, x: 0, y: 0) ?? "").filter { $0 == "M" }.count, 1)
        // Every kind appears in the legend in words.
        for kind in GraphCell.Kind.allCases { XCTAssertTrue(svg.contains(">\(kind.rawValue)</text>"), kind.rawValue) }
    }

    /// The marks are what tell skipped, failed and crash apart without colour: each stands at least
    /// 3:1 against its own cell at every depth a day can have (WCAG's contrast for graphics that carry
    /// meaning). The crash's x at depth 2, the legend's shade, was 2.0:1.
    func test_svg_marksStandOutFromTheirCellAtEveryDepth() {
        func luminance(_ hex: String) -> Double {
            let v = Int(hex.dropFirst(), radix: 16) ?? 0
            func channel(_ c: Int) -> Double {
                let s = Double(c) / 255
                return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(v >> 16) + 0.7152 * channel((v >> 8) & 0xff) + 0.0722 * channel(v & 0xff)
        }
        for kind in [GraphCell.Kind.skipped, .failed, .crash] {
            for depth in 1...4 {
                let mark = luminance(ContributionGraphPalette.markColor(kind, depth: depth).description)
                let cell = luminance(ContributionGraphPalette.fill(kind, depth: depth))
                let ratio = (max(mark, cell) + 0.05) / (min(mark, cell) + 0.05)
                XCTAssertGreaterThanOrEqual(ratio, 3, "\(kind) at depth \(depth)")
            }
        }
    }

    /// The legend's depth scale shows the shades days have: 1 to 4 (its depth-0 swatch was a shade
    /// no day is drawn in).
    func test_svg_legendShowsTheDepthsADayCanHave() throws {
        let svg = ContributionGraphSVG.render(sampleCells(), from: monday, through: sunday)
        let legend = try XCTUnwrap(svg.components(separatedBy: "<g class=\"legend\">").last)
        XCTAssertEqual(legend.components(separatedBy: "<title>depth ").dropFirst().map { String($0.prefix(1)) }, ["1", "2", "3", "4"])
    }

    /// A grey-outlined day is one with no outcome: opened, or a diagnostic or a reboot and nothing
    /// else. The summary called such days "opened only", while they held a diagnostic or a reboot.
    func test_svg_aDayWithoutAnOutcomeIsCountedAsSuch() throws {
        let cells = [GraphCell(day: monday, kind: .opened, label: "2026-11-02: 1 diagnostic"),
                     GraphCell(day: monday.adding(days: 1), kind: .opened, label: "2026-11-03: 1 reboot"),
                     GraphCell(day: monday.adding(days: 2), kind: .opened)]
        let label = try XCTUnwrap(try elements(ContributionGraphSVG.render(cells, from: monday, through: sunday)).first?.1["aria-label"])
        XCTAssertTrue(label.hasSuffix(": 3 days with no outcome."), label)
        XCTAssertFalse(label.contains("opened only"), label)
    }

    /// A long graph (a year, a year under way, half a year) is marked with its width, and the
    /// stylesheet has the rule that hides its legend and shows the hint where the column is
    /// narrower than that width (the legend was cut to "ied" between 480 and 810 px, and the hint
    /// told people to scroll a graph that fitted).
    func test_svg_everyLongGraphHasItsScrollRule() throws {
        let rules = ContributionGraphSVG.scrollRules()
        for days in [189, 200, 300, 365, 366] {
            let from = LocalDay(year: 2026, month: 1, day: 1), through = from.adding(days: days - 1)
            let svg = ContributionGraphSVG.render([], from: from, through: through)
            let root = try XCTUnwrap(try elements(svg).first?.1)
            let classes = (root["class"] ?? "").split(separator: " ")
            XCTAssertTrue(classes.contains("long"), "\(days) days")
            let width = try XCTUnwrap(root["width"])
            XCTAssertTrue(classes.contains("w" + width[...]), "\(days) days: \(classes)")
            XCTAssertTrue(rules.contains("@container (width < \(width)px) { .graph > svg.w\(width) > g.legend { display: none; }"), "\(days) days")
        }
        let short = ContributionGraphSVG.render([], from: monday, through: sunday)
        XCTAssertFalse(short.contains(" long "), "a short graph shrinks to fit and never scrolls")
    }

    func test_svg_escapesLabelsAndRemovesControlCharacters() throws {
        let svg = ContributionGraphSVG.render(sampleCells(), from: monday, through: sunday)
        XCTAssertTrue(svg.contains("<title>crash &lt;b&gt;&quot;loud&quot;&lt;/b&gt;[0m</title>"), svg)
        XCTAssertFalse(svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        XCTAssertNoThrow(try elements(svg))
    }

    func test_svg_isDeterministicAndIgnoresInputOrder() {
        let cells = sampleCells()
        let a = ContributionGraphSVG.render(cells, from: monday, through: sunday)
        let b = ContributionGraphSVG.render(cells.reversed(), from: sunday, through: monday)
        XCTAssertEqual(a, b)
        XCTAssertEqual(ContributionGraphTable.render(cells, from: monday, through: sunday),
                       ContributionGraphTable.render(cells.reversed(), from: monday, through: sunday))
    }

    func test_svg_monthLabels() {
        let svg = ContributionGraphSVG.render([], from: LocalDay(year: 2026, month: 1, day: 5),
                                              through: LocalDay(year: 2026, month: 4, day: 30))
        for month in ["Jan", "Feb", "Mar", "Apr"] { XCTAssertTrue(svg.contains(">\(month)</text>"), month) }
        XCTAssertFalse(svg.contains(">May</text>"))
    }

    func test_table_isTheAccessibleAlternative() throws {
        let table = ContributionGraphTable.render(sampleCells(), from: monday, through: sunday)
        XCTAssertTrue(table.hasPrefix("<table class=\"contribution-table\">\n<caption>Contribution graph, 2026-11-02 to 2026-11-29"))
        XCTAssertTrue(table.contains("<th scope=\"col\">Mon</th>"))
        XCTAssertTrue(table.contains("<th scope=\"row\">2026-W45</th>"))
        XCTAssertEqual(table.components(separatedBy: "<tr><th scope=\"row\">").count - 1, 4)
        XCTAssertTrue(table.contains(">2026-11-02: FIX #037 applied, reflection written</td>"))
        XCTAssertTrue(table.contains(">2026-11-05: opened, no outcome</td>"))
        XCTAssertTrue(table.contains(">crash &lt;b&gt;&quot;loud&quot;&lt;/b&gt;[0m</td>"), table)
        let parser = XMLParser(data: Data(table.utf8))
        XCTAssertTrue(parser.parse(), "the table is well-formed")
    }

    /// The writer owns one buffer that grows: what comes out must be every byte put in, in order,
    /// with insertions in their places.
    func test_byteText_growsAndInsertsWithoutLosingBytes() {
        var t = ByteText(capacity: 1)
        var model: [UInt8] = []
        for i in 0..<2_000 {
            let piece = "piece \(i) <&> "
            t.append(string: piece)
            model.append(contentsOf: piece.utf8)
            if i % 97 == 0 {
                let at = model.count / 3
                t.insert(Array("[\(i)]".utf8), at: at)
                model.insert(contentsOf: Array("[\(i)]".utf8), at: at)
            }
        }
        t.appendHTMLEscaped("a <b> & \"c\" 'd' naïve")
        model.append(contentsOf: HTMLEscape.escape("a <b> & \"c\" 'd' naïve").utf8)
        let (length, bytes) = (t.length, t.bytes)
        XCTAssertEqual(length, model.count)
        XCTAssertEqual(bytes, model)
        let data = t.data()
        XCTAssertEqual(data, Data(model))
    }

    /// The SVG writes numbers and escapes text byte by byte; both must match the string forms.
    func test_byteText_numbersAndEscapingMatchTheStringForms() {
        for n in [0, 7, 10, 99, 1200, 2026, -1, -630, Int.max, Int.min] {
            var t = ByteText()
            t.append(n)
            XCTAssertEqual(t.string, String(n))
        }
        for s in ["2026-11-22: FIX #037 applied", "a & b < c > \"d\" 'e'", "tab\there\u{1}", "naïve <é>", ""] {
            var t = ByteText()
            t.appendXMLEscaped(s)
            XCTAssertEqual(t.string, XMLEscape.escape(s), s)
        }
    }

}
