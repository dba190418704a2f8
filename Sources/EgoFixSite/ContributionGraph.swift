import EgoFixCore

/// One day of the contribution graph, as the page model computed it.
public struct GraphCell: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case applied, skipped, failed, crash, opened, empty

        /// Words for the kind, for labels, legends and the table.
        public var text: String {
            switch self {
            case .applied: return "fix applied"
            case .skipped: return "fix skipped"
            case .failed: return "fix failed"
            case .crash: return "crash logged"
            case .opened: return "opened, no action"
            case .empty: return "no activity"
            }
        }
    }

    public var day: LocalDay
    public var kind: Kind
    /// Depth of engagement, 0 (a tap) ... 4 (high severity, reflection written, crash with a note).
    /// Values outside the range are clamped.
    public var depth: Int
    /// Shown on hover and in the table ("2026-11-22: FIX #037 applied, reflection written").
    /// Empty means the day and the kind's words.
    public var label: String

    public init(day: LocalDay, kind: Kind, depth: Int = 0, label: String = "") {
        self.day = day
        self.kind = kind
        self.depth = min(4, max(0, depth))
        self.label = label
    }

    var displayLabel: String { label.isEmpty ? "\(day): \(kind.text)" : label }
}

/// Colours of the graph: a muted dark-IDE palette. Colour says the kind, shade says the depth
/// (depth 0 is the faintest, 4 the strongest against the dark background).
public enum ContributionGraphPalette {
    public static let background = "#1e1f22"
    public static let text = "#abb2bf"
    public static let emptyFill = "#2a2c30"
    public static let openedStroke = "#7d828b"

    static let shades: [GraphCell.Kind: [String]] = [
        .applied: ["#2d3b2b", "#3c5a36", "#4f7a45", "#689a58", "#89b86f"],
        .skipped: ["#3b3624", "#5a5030", "#7c6c3c", "#a08a48", "#c8ab5a"],
        .failed: ["#3d2f24", "#5c4330", "#7f5b3c", "#a57448", "#cc8f57"],
        .crash: ["#3e2628", "#5e3236", "#844047", "#ab4f58", "#d0636c"],
    ]

    /// The fill of a cell.
    public static func fill(_ kind: GraphCell.Kind, depth: Int) -> String {
        let d = min(4, max(0, depth))
        switch kind {
        case .opened: return background
        case .empty: return emptyFill
        default: return shades[kind]?[d] ?? emptyFill
        }
    }

    /// The outline of a cell, if it has one (only "opened").
    public static func stroke(_ kind: GraphCell.Kind) -> String? {
        kind == .opened ? openedStroke : nil
    }

    /// The colour of the mark drawn over skipped, failed and crash cells: light on faint shades,
    /// dark on strong ones.
    static func markColor(_ kind: GraphCell.Kind, depth: Int) -> String {
        depth >= 3 ? background : fill(kind, depth: 4)
    }
}

/// Shared layout of the graph and its table: which days, which weeks.
struct GraphGrid {
    let first: LocalDay
    let last: LocalDay
    let firstMonday: LocalDay
    let weeks: Int
    let cells: [Int: GraphCell]  // by day ordinal; looked up, never iterated

    init(_ cells: [GraphCell], from: LocalDay, through: LocalDay) {
        first = min(from, through)
        last = max(from, through)
        firstMonday = first.isoWeekStart
        weeks = last.isoWeekStart.days(since: firstMonday) / 7 + 1
        var byDay: [Int: GraphCell] = [:]
        for cell in cells where cell.day >= first && cell.day <= last && byDay[cell.day.ordinal] == nil {
            byDay[cell.day.ordinal] = cell  // the first cell given for a day wins
        }
        self.cells = byDay
    }

    func day(week: Int, row: Int) -> LocalDay? {
        let d = firstMonday.adding(days: week * 7 + row)
        return d >= first && d <= last ? d : nil
    }

    func cell(_ day: LocalDay) -> GraphCell {
        cells[day.ordinal] ?? GraphCell(day: day, kind: .empty)
    }

    /// Counts per kind over the days in range, in `Kind.allCases` order.
    func counts() -> [(GraphCell.Kind, Int)] {
        var n = [Int](repeating: 0, count: GraphCell.Kind.allCases.count)
        var d = first
        while d <= last {
            if let i = GraphCell.Kind.allCases.firstIndex(of: cell(d).kind) { n[i] += 1 }
            d = d.adding(days: 1)
        }
        return GraphCell.Kind.allCases.enumerated().map { ($0.element, n[$0.offset]) }
    }

    func summary(title: String) -> String {
        let words: [GraphCell.Kind: (String, String)] = [
            .applied: ("day with a fix applied", "days with a fix applied"),
            .skipped: ("day skipped", "days skipped"),
            .failed: ("day failed", "days failed"),
            .crash: ("crash", "crashes"),
            .opened: ("day opened only", "days opened only"),
            .empty: ("day without activity", "days without activity"),
        ]
        let parts = counts().filter { $0.1 > 0 }.map { kind, count -> String in
            let w = words[kind] ?? ("", "")
            return "\(count) \(count == 1 ? w.0 : w.1)"
        }
        return "\(title), \(first) to \(last): " + parts.joined(separator: ", ") + "."
    }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
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
        let grid = GraphGrid(cells, from: from, through: through)
        let gridWidth = left + grid.weeks * pitch
        let legendY = top + 7 * pitch + 12
        let (legend, legendWidth) = self.legend(y: legendY)
        let width = max(gridWidth, legendWidth) + 4
        let height = legendY + cell + 26

        let summary = XMLEscape.escape(grid.summary(title: title))
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"contribution-graph\" viewBox=\"0 0 \(width) \(height)\" "
            + "width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(summary)\" "
            + "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"10\">\n"
        svg += "<title>\(summary)</title>\n"

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
            svg += "<text x=\"\(left + label.week * pitch)\" y=\"\(top - 6)\" fill=\"\(ContributionGraphPalette.text)\">"
                + "\(GraphGrid.monthNames[label.month - 1])</text>\n"
        }
        for row in [0, 2, 4, 6] {
            svg += "<text x=\"0\" y=\"\(top + row * pitch + 9)\" fill=\"\(ContributionGraphPalette.text)\">"
                + "\(GraphGrid.weekdayNames[row])</text>\n"
        }
        for week in 0..<grid.weeks {
            for row in 0..<7 {
                guard let day = grid.day(week: week, row: row) else { continue }
                let c = grid.cell(day)
                svg += cellSVG(c, x: left + week * pitch, y: top + row * pitch, title: XMLEscape.escape(c.displayLabel))
            }
        }
        svg += legend
        svg += "</svg>\n"
        return svg
    }

    /// The same, for a template (`{{{graph}}}`).
    public static func html(_ cells: [GraphCell], from: LocalDay, through: LocalDay,
                            title: String = "Contribution graph") -> RawHTML {
        RawHTML(trusted: render(cells, from: from, through: through, title: title))
    }

    static func cellSVG(_ c: GraphCell, x: Int, y: Int, title: String) -> String {
        let fill = ContributionGraphPalette.fill(c.kind, depth: c.depth)
        var s = "<g class=\"cell \(c.kind.rawValue) d\(c.depth)\"><title>\(title)</title>"
        if let stroke = ContributionGraphPalette.stroke(c.kind) {
            s += "<rect x=\"\(x).5\" y=\"\(y).5\" width=\"\(cell - 1)\" height=\"\(cell - 1)\" rx=\"2\" "
                + "fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"1\"/>"
        } else {
            s += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(fill)\"/>"
        }
        if let path = markPath(c.kind, x: x, y: y) {
            s += "<path d=\"\(path)\" stroke=\"\(ContributionGraphPalette.markColor(c.kind, depth: c.depth))\" "
                + "stroke-width=\"1.5\" stroke-linecap=\"round\" fill=\"none\"/>"
        }
        return s + "</g>\n"
    }

    /// The colour-free mark of a kind: skipped "/", failed "-", crash "x".
    static func markPath(_ kind: GraphCell.Kind, x: Int, y: Int) -> String? {
        let a = 3, b = cell - 3
        switch kind {
        case .skipped: return "M\(x + a) \(y + b)L\(x + b) \(y + a)"
        case .failed: return "M\(x + a) \(y + cell / 2)L\(x + b) \(y + cell / 2)"
        case .crash: return "M\(x + a) \(y + a)L\(x + b) \(y + b)M\(x + a) \(y + b)L\(x + b) \(y + a)"
        default: return nil
        }
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
        for depth in 0...4 {
            let c = GraphCell(day: LocalDay(ordinal: 0), kind: .applied, depth: depth)
            s += cellSVG(c, x: sx, y: scaleY, title: "depth \(depth)")
            sx += pitch
        }
        s += "<text x=\"\(sx + 2)\" y=\"\(scaleY + 9)\" fill=\"\(ContributionGraphPalette.text)\">more</text>\n"
        s += "</g>\n"
        return (s, max(x, sx + 30))
    }
}

/// The graph's accessible alternative: an HTML table, one row per ISO week, one column per weekday,
/// each cell holding the day's label in words.
public enum ContributionGraphTable {
    public static func render(_ cells: [GraphCell], from: LocalDay, through: LocalDay,
                              title: String = "Contribution graph") -> String {
        let grid = GraphGrid(cells, from: from, through: through)
        var s = "<table class=\"contribution-table\">\n"
        s += "<caption>\(HTMLEscape.escape(grid.summary(title: title)))</caption>\n"
        s += "<thead><tr><th scope=\"col\">Week</th>"
        for name in GraphGrid.weekdayNames { s += "<th scope=\"col\">\(name)</th>" }
        s += "</tr></thead>\n<tbody>\n"
        for week in 0..<grid.weeks {
            let monday = grid.firstMonday.adding(days: week * 7)
            s += "<tr><th scope=\"row\">\(monday.isoWeekLabel)</th>"
            for row in 0..<7 {
                if let day = grid.day(week: week, row: row) {
                    let c = grid.cell(day)
                    s += "<td class=\"\(c.kind.rawValue) d\(c.depth)\">\(HTMLEscape.escape(c.displayLabel))</td>"
                } else {
                    s += "<td></td>"
                }
            }
            s += "</tr>\n"
        }
        s += "</tbody>\n</table>\n"
        return s
    }

    /// The same, for a template (`{{{graphTable}}}`).
    public static func html(_ cells: [GraphCell], from: LocalDay, through: LocalDay,
                            title: String = "Contribution graph") -> RawHTML {
        RawHTML(trusted: render(cells, from: from, through: through, title: title))
    }
}
