import EgoFixCore

/// Colours of the graph: a muted dark-IDE palette. Colour says the kind, shade says the depth
/// (depth 0 is the faintest, 4 the strongest against the dark background).
public enum ContributionGraphPalette {
    public static let background = backgroundHex.description
    public static let text = "#abb2bf"
    public static let openedStroke = openedStrokeHex.description
    static let backgroundHex: StaticString = "#1e1f22"
    static let emptyFillHex: StaticString = "#2a2c30"
    static let openedStrokeHex: StaticString = "#7d828b"

    static let appliedShades: [StaticString] = ["#2d3b2b", "#3c5a36", "#4f7a45", "#689a58", "#89b86f"]
    static let skippedShades: [StaticString] = ["#3b3624", "#5a5030", "#7c6c3c", "#a08a48", "#c8ab5a"]
    static let failedShades: [StaticString] = ["#3d2f24", "#5c4330", "#7f5b3c", "#a57448", "#cc8f57"]
    static let crashShades: [StaticString] = ["#3e2628", "#5e3236", "#844047", "#ab4f58", "#d0636c"]

    /// The fill of a cell.
    public static func fill(_ kind: GraphCell.Kind, depth: Int) -> String {
        fillBytes(kind, depth: depth).description
    }

    /// The same, as static text for the SVG writer.
    static func fillBytes(_ kind: GraphCell.Kind, depth: Int) -> StaticString {
        let d = min(4, max(0, depth))
        switch kind {
        case .opened: return backgroundHex
        case .empty: return emptyFillHex
        case .applied: return appliedShades[d]
        case .skipped: return skippedShades[d]
        case .failed: return failedShades[d]
        case .crash: return crashShades[d]
        }
    }

    /// The outline of a cell, if it has one (only "opened").
    public static func stroke(_ kind: GraphCell.Kind) -> String? {
        kind == .opened ? openedStroke : nil
    }

    /// The colour of the mark drawn over skipped, failed and crash cells: light on faint shades,
    /// dark on strong ones, at least 3:1 against the cell at every depth (WCAG's contrast for a
    /// graphic that carries meaning: the mark is what tells the kinds apart without colour). The
    /// kind's own strongest shade, as it was, fell to 2.0 on a crash of depth 2.
    static func markColor(_ kind: GraphCell.Kind, depth: Int) -> StaticString {
        depth >= 3 ? backgroundHex : markLightHex
    }
    static let markLightHex: StaticString = "#dcdfe4"
}

/// Shared layout of the graph and its table: which days, which weeks.
struct GraphGrid {
    let first: LocalDay
    let last: LocalDay
    let firstMonday: LocalDay
    let weeks: Int
    /// By day offset from `first`; nil is an empty day.
    let cells: [GraphCell?]

    init(_ cells: [GraphCell], from: LocalDay, through: LocalDay) {
        first = min(from, through)
        last = max(from, through)
        firstMonday = first.isoWeekStart
        weeks = GraphGrid.weeks(from: from, through: through)
        var byDay = [GraphCell?](repeating: nil, count: last.days(since: first) + 1)
        for cell in cells where cell.day >= first && cell.day <= last && byDay[cell.day.days(since: first)] == nil {
            byDay[cell.day.days(since: first)] = cell  // the first cell given for a day wins
        }
        self.cells = byDay
    }

    func day(week: Int, row: Int) -> LocalDay? {
        let d = firstMonday.adding(days: week * 7 + row)
        return d >= first && d <= last ? d : nil
    }

    /// The ISO weeks (columns) from `from` through `through`, in either order.
    static func weeks(from: LocalDay, through: LocalDay) -> Int {
        max(from, through).isoWeekStart.days(since: min(from, through).isoWeekStart) / 7 + 1
    }

    func cell(_ day: LocalDay) -> GraphCell {
        cells[day.days(since: first)] ?? GraphCell(day: day, kind: .empty)
    }

    /// Days per kind over the days in range, in `Kind.allCases` order: the days that held a fix
    /// applied, skipped or failed, or a crash, whatever their colour (a day may count under
    /// several); the days with no outcome (opened, a diagnostic or a reboot at most); the days
    /// without activity.
    func counts() -> [(GraphCell.Kind, Int)] {
        var n = [Int](repeating: 0, count: GraphCell.Kind.allCases.count)
        for c in cells {
            guard let c else {
                n[GraphGrid.kindIndex(.empty)] += 1
                continue
            }
            if c.kind == .opened || c.kind == .empty { n[GraphGrid.kindIndex(c.kind)] += 1 }
            for kind in [GraphCell.Kind.applied, .skipped, .failed, .crash] where c.held.contains(GraphCell.Held.of(kind)) {
                n[GraphGrid.kindIndex(kind)] += 1
            }
        }
        return GraphCell.Kind.allCases.enumerated().map { ($0.element, n[$0.offset]) }
    }

    static func kindIndex(_ kind: GraphCell.Kind) -> Int {
        switch kind {
        case .applied: return 0
        case .skipped: return 1
        case .failed: return 2
        case .crash: return 3
        case .opened: return 4
        case .empty: return 5
        }
    }

    func summary(title: String) -> String {
        var out = title
        out.reserveCapacity(title.utf8.count + 160)
        out += ", "
        out += first.description
        out += " to "
        out += last.description
        out += ": "
        var any = false
        // What happened, not a tally of absence: days without activity (before day one included) are not counted.
        for (kind, count) in counts() where count > 0 && kind != .empty {
            if any { out += ", " }
            any = true
            out += String(count)
            out += " "
            out += count == 1 ? GraphGrid.summaryWords(kind).one : GraphGrid.summaryWords(kind).many
        }
        if !any { out += "nothing recorded" }
        // Those figures add up to more than the squares when a day held two outcomes or more (an applied
        // fix and a crash): said, so the words are not read as a count of squares by colour.
        let kinds = [GraphCell.Kind.applied, .skipped, .failed, .crash].map(GraphCell.Held.of)
        if cells.contains(where: { c in c.map { c in kinds.filter { c.held.contains($0) }.count > 1 } ?? false }) {
            out += "; a day with more than one outcome counts under each, its square shows the heaviest"
        }
        out += "."
        return out
    }

    /// How `summary` counts days of a kind.
    static func summaryWords(_ kind: GraphCell.Kind) -> (one: String, many: String) {
        switch kind {
        case .applied: return ("day with a fix applied", "days with a fix applied")
        case .skipped: return ("day with a fix skipped", "days with a fix skipped")
        case .failed: return ("day with a fix failed", "days with a fix failed")
        case .crash: return ("day with a crash", "days with a crash")
        case .opened: return ("day with no outcome", "days with no outcome")
        case .empty: return ("day without activity", "days without activity")
        }
    }

}

/// The contribution graph as inline SVG: 7 rows (Monday to Sunday) by one column per ISO week.
/// Colour by kind, shade by depth; skipped, failed and crash cells also carry a mark (a diagonal
/// stroke, a bar, an x), so the graph reads without colour. Every cell has a `<title>`; the whole
/// graph has `role="img"` and an `aria-label` summary. Pair it with `ContributionGraphTable`.
/// Output depends only on the input.
public enum ContributionGraphSVG {
    static let cell = 11
    static let pitch = 14
    static let left = 32
    static let top = 18
    static let charWidth = 6.1

    public static func render(_ cells: [GraphCell], from: LocalDay, through: LocalDay,
                              title: String = "Contribution graph") -> String {
        var out = ByteText(capacity: 512 + 200 * (GraphGrid.weeks(from: from, through: through) * 7))
        render(cells, from: from, through: through, title: title, into: &out)
        return out.string
    }

    /// `render`, written at the end of `out`.
    static func render(_ cells: [GraphCell], from: LocalDay, through: LocalDay, title: String, into out: inout ByteText) {
        let grid = GraphGrid(cells, from: from, through: through)
        let gridWidth = left + grid.weeks * pitch
        let legendY = top + 7 * pitch + 12
        let (legend, legendWidth) = legendY == standardLegend.y ? (standardLegend.svg, standardLegend.width) : self.legend(y: legendY)
        let width = max(gridWidth, legendWidth) + 4
        let height = legendY + cell + 26

        let summary = grid.summary(title: title)
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"contribution-graph")
        if grid.cells.count >= longFrom {
            out.append(" long w")
            out.append(width)
        }
        out.append("\" viewBox=\"0 0 ")
        out.append(width)
        out.append(" ")
        out.append(height)
        out.append("\" width=\"")
        out.append(width)
        out.append("\" height=\"")
        out.append(height)
        out.append("\" role=\"img\" aria-label=\"")
        out.appendXMLEscaped(summary)
        out.append("\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"10\">\n<title>")
        out.appendXMLEscaped(summary)
        out.append("</title>\n")

        // Month labels over the column holding the month's first day; the first column gets the
        // starting month when no label follows closely.
        var labels: [(week: Int, month: Int)] = []
        for week in 0..<grid.weeks {
            for row in 0..<7 {
                if let d = grid.day(week: week, row: row), d.day == 1 { labels.append((week, d.month)) }
            }
        }
        if (labels.first?.week ?? Int.max) > 2 { labels.insert((0, grid.first.month), at: 0) }
        for label in labels {
            out.append("<text x=\"")
            out.append(left + label.week * pitch)
            out.append("\" y=\"")
            out.append(top - 6)
            out.append("\" fill=\"")
            out.append(string: ContributionGraphPalette.text)
            out.append("\">")
            out.append(string: LocalDay.shortMonthNames[label.month - 1])
            out.append("</text>\n")
        }
        for row in [0, 2, 4, 6] {
            out.append("<text x=\"0\" y=\"")
            out.append(top + row * pitch + 9)
            out.append("\" fill=\"")
            out.append(string: ContributionGraphPalette.text)
            out.append("\">")
            out.append(string: LocalDay.shortWeekdayNames[row])
            out.append("</text>\n")
        }
        for week in 0..<grid.weeks {
            for row in 0..<7 {
                guard let day = grid.day(week: week, row: row) else { continue }
                let c = grid.cell(day)
                cellSVG(c, x: left + week * pitch, y: top + row * pitch, into: &out) { out in
                    if c.label.isEmpty {
                        out.append(string: c.day.description)
                        out.append(": ")
                        out.appendXMLEscaped(c.kind.text)
                    } else {
                        out.appendXMLEscaped(c.label)
                    }
                }
            }
        }
        out.append(string: legend)
        out.append("</svg>\n")
    }

    /// A graph of this many days or more keeps its size (a day stays readable) and scrolls inside
    /// its box when the box is narrower: class "long", and "wN" for its width N.
    static let longFrom = 189

    /// The stylesheet's rules for long graphs, from the geometry above (every width a long graph
    /// can have): where the page's main column is narrower than the graph, it scrolls, opening on
    /// its latest weeks, so its legend (far to the left) is left out rather than shown in a stray
    /// piece ("ied", "less") and the hint under it says where the older weeks are. A container
    /// query on the column, not a media query on the window: it holds whatever the page's
    /// scrollbar, font size or the graph's own width (a year under way fits where a whole one does not).
    public static func scrollRules() -> String {
        let legendWidth = standardLegend.width
        let widths = Set((longFrom / 7...54).map { max(left + $0 * pitch, legendWidth) + 4 }).sorted()
        var css = "/* long contribution graphs (generated from the graph's geometry) */\n"
        for w in widths {
            css += "@container (width < \(w)px) { .graph > svg.w\(w) > g.legend { display: none; } .graph:has(> svg.w\(w)) { overflow-y: hidden; } "
                + ".graph > svg.w\(w) { margin-bottom: -36px; } .graph:has(> svg.w\(w)) + .graph-hint { display: block; } }\n"
        }
        return css
    }

    static let standardLegend: (y: Int, svg: String, width: Int) = {
        let y = top + 7 * pitch + 12
        let (svg, width) = legend(y: y)
        return (y, svg, width)
    }()

    /// A cell, its title written by `title` (already escaped).
    static func cellSVG(_ c: GraphCell, x: Int, y: Int, into out: inout ByteText, title: (inout ByteText) -> Void) {
        let fill = ContributionGraphPalette.fillBytes(c.kind, depth: c.depth)
        out.append("<g class=\"cell ")
        out.append(c.kind.name)
        out.append(" d")
        out.append(c.depth)
        out.append("\"><title>")
        title(&out)
        out.append("</title>")
        if c.kind == .opened {
            out.append("<rect x=\"")
            out.append(x)
            out.append(".5\" y=\"")
            out.append(y)
            out.append(".5\" width=\"")
            out.append(cell - 1)
            out.append("\" height=\"")
            out.append(cell - 1)
            out.append("\" rx=\"2\" fill=\"")
            out.append(fill)
            out.append("\" stroke=\"")
            out.append(ContributionGraphPalette.openedStrokeHex)
            out.append("\" stroke-width=\"1\"/>")
        } else {
            out.append("<rect x=\"")
            out.append(x)
            out.append("\" y=\"")
            out.append(y)
            out.append("\" width=\"")
            out.append(cell)
            out.append("\" height=\"")
            out.append(cell)
            out.append("\" rx=\"2\" fill=\"")
            out.append(fill)
            out.append("\"/>")
        }
        if c.kind == .skipped || c.kind == .failed || c.kind == .crash {
            out.append("<path d=\"")
            appendMarkPath(c.kind, x: x, y: y, into: &out)
            out.append("\" stroke=\"")
            out.append(ContributionGraphPalette.markColor(c.kind, depth: c.depth))
            out.append("\" stroke-width=\"1.5\" stroke-linecap=\"round\" fill=\"none\"/>")
        }
        out.append("</g>\n")
    }

    /// The same, for a template (`{{{graph}}}`).
    public static func html(_ cells: [GraphCell], from: LocalDay, through: LocalDay,
                            title: String = "Contribution graph") -> RawHTML {
        RawHTML(trusted: render(cells, from: from, through: through, title: title))
    }

    static func cellSVG(_ c: GraphCell, x: Int, y: Int, title: String) -> String {
        var out = ByteText(capacity: 256)
        cellSVG(c, x: x, y: y, into: &out) { $0.append(string: title) }
        return out.string
    }

    /// `markPath`, written straight into the bytes.
    static func appendMarkPath(_ kind: GraphCell.Kind, x: Int, y: Int, into out: inout ByteText) {
        let a = 3, b = cell - 3
        func line(_ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int) {
            out.append("M")
            out.append(x1)
            out.append(" ")
            out.append(y1)
            out.append("L")
            out.append(x2)
            out.append(" ")
            out.append(y2)
        }
        switch kind {
        case .skipped: line(x + a, y + b, x + b, y + a)
        case .failed: line(x + a, y + cell / 2, x + b, y + cell / 2)
        case .crash:
            line(x + a, y + a, x + b, y + b)
            line(x + a, y + b, x + b, y + a)
        default: break
        }
    }

    /// The colour-free mark of a kind: skipped "/", failed "-", crash "x".
    static func markPath(_ kind: GraphCell.Kind, x: Int, y: Int) -> String? {
        guard kind == .skipped || kind == .failed || kind == .crash else { return nil }
        var out = ByteText(capacity: 48)
        appendMarkPath(kind, x: x, y: y, into: &out)
        return out.string
    }

    /// The legend: one swatch per kind, then the depth scale. Returns the SVG and its width.
    static func legend(y: Int) -> (String, Int) {
        var s = "<g class=\"legend\">\n"
        var x = 0
        let sample: [GraphCell.Kind: Int] = [.applied: 2, .skipped: 2, .failed: 2, .crash: 2]
        for kind in GraphCell.Kind.allCases {
            let c = GraphCell(day: LocalDay(ordinal: 0), kind: kind, depth: sample[kind] ?? 0)
            s += cellSVG(c, x: x, y: y, title: XMLEscape.escape(kind.text))
            let name = kind.rawValue
            s += "<text x=\"\(x + cell + 4)\" y=\"\(y + 9)\" fill=\"\(ContributionGraphPalette.text)\">\(name)</text>\n"
            x += cell + 4 + Int((Double(name.count) * charWidth).rounded(.up)) + 12
        }
        let scaleY = y + pitch + 4
        s += "<text x=\"0\" y=\"\(scaleY + 9)\" fill=\"\(ContributionGraphPalette.text)\">depth: less</text>\n"
        var sx = Int((11 * charWidth).rounded(.up)) + 4
        // Depth 1 to 4: a day with anything in it is at least 1 (depth 0 is no day's shade).
        for depth in 1...4 {
            let c = GraphCell(day: LocalDay(ordinal: 0), kind: .applied, depth: depth)
            s += cellSVG(c, x: sx, y: scaleY, title: "depth \(depth)")
            sx += pitch
        }
        s += "<text x=\"\(sx + 2)\" y=\"\(scaleY + 9)\" fill=\"\(ContributionGraphPalette.text)\">more</text>\n"
        s += "</g>\n"
        return (s, max(x, sx + 30))
    }
}
