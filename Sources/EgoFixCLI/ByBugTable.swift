/// The all-time totals under `egofix history`, a row a bug, within a card's 64 columns: the
/// counts right-aligned under their names, as the site's history table has them. Each row used
/// to spell its labels out ("applied 133, skipped 133, failed 87  38%"), 65 columns and more
/// once a bug had three-digit counts. A title too long for its column (a catalogue of one's own
/// allows 40 characters) has a line of its own, the counts on the next.
struct ByBugTable {
    struct Row {
        let title: String
        let applied: Int, skipped: Int, failed: Int
        /// applied ÷ marked; nil when nothing was marked.
        let rate: Double?
    }

    static let heading = "all time, by bug"
    static let labels = ["applied", "skipped", "failed", "rate"]

    let rows: [Row]

    func lines(_ style: Style) -> [String] {
        guard !rows.isEmpty else { return [] }
        let cells = rows.map { r in
            [String(r.applied), String(r.skipped), String(r.failed), r.rate.map { "\(Int(($0 * 100).rounded()))%" } ?? "-"]
        }
        let widths = ByBugTable.labels.indices.map { i in max(ByBugTable.labels[i].count, cells.map { $0[i].count }.max() ?? 0) }
        let numbers = widths.reduce(0) { $0 + 2 + $1 }
        let widest = rows.map(\.title.count).max() ?? 0
        // On a terminal too narrow for the heading beside the counts (40 columns), the heading and
        // every title have lines of their own, the counts under them.
        let narrow = ByBugTable.heading.count + numbers > Text.width
        let titleColumn = narrow ? 0 : max(ByBugTable.heading.count, min(widest, Text.width - numbers))
        func right(_ s: String, _ w: Int) -> String { "  " + String(repeating: " ", count: max(0, w - s.count)) + s }
        let labels = zip(ByBugTable.labels, widths).map(right).joined()
        var out = narrow ? [style.dim(ByBugTable.heading), style.dim(labels)]
                         : [style.dim(pad(ByBugTable.heading, titleColumn) + labels)]
        for (r, c) in zip(rows, cells) {
            let counts = (0..<3).map { right(c[$0], widths[$0]) }.joined() + style.dim(right(c[3], widths[3]))
            if !narrow, r.title.count <= titleColumn {
                out.append(pad(r.title, titleColumn) + counts)
            } else {
                out += Text.wrap(r.title)
                out.append(String(repeating: " ", count: titleColumn) + counts)
            }
        }
        return out
    }
}
