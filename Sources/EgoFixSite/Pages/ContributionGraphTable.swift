import EgoFixCore

/// The graph's accessible alternative: an HTML table, one row per ISO week, one column per weekday,
/// each cell holding the day's label in words.
public enum ContributionGraphTable {
    public static func render(_ cells: [GraphCell], from: LocalDay, through: LocalDay,
                              title: String = "Contribution graph") -> String {
        let grid = GraphGrid(cells, from: from, through: through)
        var out = ByteText(capacity: 1024 + 80 * grid.weeks * 7)
        out.append("<table class=\"contribution-table\">\n<caption>")
        out.appendHTMLEscaped(grid.summary(title: title))
        out.append("</caption>\n<thead><tr><th scope=\"col\">Week</th>")
        for name in LocalDay.shortWeekdayNames {
            out.append("<th scope=\"col\">")
            out.append(string: name)
            out.append("</th>")
        }
        out.append("</tr></thead>\n<tbody>\n")
        // Weeks before the practice began are one row ("2026-W01 to 2026-W09: before day one"):
        // a year page of a practice begun in March read out nine rows of seven such days.
        func beforeDayOne(_ week: Int) -> Bool {
            (0..<7).allSatisfy { row in grid.day(week: week, row: row).map { grid.cell($0).isBeforeDayOne } ?? true }
        }
        var week = 0
        while week < grid.weeks, beforeDayOne(week) { week += 1 }
        if week > 0 {
            let last = grid.firstMonday.adding(days: (week - 1) * 7).isoWeekLabel
            out.append("<tr><th scope=\"row\">")
            out.append(string: grid.firstMonday.isoWeekLabel + (week > 1 ? " to " + last : ""))
            out.append("</th><td class=\"empty d0\" colspan=\"7\">before day one</td></tr>\n")
        }
        for week in week..<grid.weeks {
            let monday = grid.firstMonday.adding(days: week * 7)
            out.append("<tr><th scope=\"row\">")
            out.append(string: monday.isoWeekLabel)
            out.append("</th>")
            for row in 0..<7 {
                if let day = grid.day(week: week, row: row) {
                    let c = grid.cell(day)
                    out.append("<td class=\"")
                    out.append(c.kind.name)
                    out.append(" d")
                    out.append(c.depth)
                    out.append("\">")
                    out.appendHTMLEscaped(c.displayLabel)
                    out.append("</td>")
                } else {
                    out.append("<td></td>")
                }
            }
            out.append("</tr>\n")
        }
        out.append("</tbody>\n</table>\n")
        return out.string
    }

    /// The same, for a template (`{{{graphTable}}}`).
    public static func html(_ cells: [GraphCell], from: LocalDay, through: LocalDay,
                            title: String = "Contribution graph") -> RawHTML {
        RawHTML(trusted: render(cells, from: from, through: through, title: title))
    }
}
