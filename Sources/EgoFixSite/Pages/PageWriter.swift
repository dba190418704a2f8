import EgoFixCore
import Foundation

// The rows page models are made of, typed. Each gives the template the same object it always
// did (`value`); `PageWriter` also writes week and period pages from them straight into bytes.

/// A link with its label (the pager's earlier, up and later).
struct PageLink: Sendable {
    let href: String
    let label: String

    var value: PageValue { ["href": .text(href), "label": .text(label)] }
}

/// One of the six counts of a period ("applied 6 +3 vs before").
struct CountRow: Sendable {
    let label: String
    let value: String
    /// Against the period before; nil when there is none.
    let delta: String?

    var pageValue: PageValue { ["label": .text(label), "value": .text(value), "delta": .text(delta)] }
}

/// A fix as a page shows it.
struct FixRow: Sendable {
    let label: String
    let bugSlug: String
    let bugTitle: String
    let severity: String
    let typeNote: String?
    let when: String?
    let outcome: String
    let outcomeText: String
    let prompt: String
    let comment: String?
    let detail: String?
    let interaction: String?
    let reflection: RawHTML?

    var value: PageValue {
        [
            "label": .text(label), "bugSlug": .text(bugSlug), "bugTitle": .text(bugTitle), "severity": .text(severity),
            "typeNote": .text(typeNote), "when": .text(when), "outcome": .text(outcome), "outcomeText": .text(outcomeText),
            "prompt": .text(prompt), "comment": .text(comment), "detail": .text(detail), "interaction": .text(interaction),
            "reflection": .html(reflection),
        ]
    }
}

/// A crash on a day of a week page.
struct CrashRow: Sendable {
    let bugSlug: String
    let bugTitle: String
    let time: String
    let rebooted: String?
    let note: RawHTML?

    var value: PageValue {
        ["bugSlug": .text(bugSlug), "bugTitle": .text(bugTitle), "time": .text(time), "rebooted": .text(rebooted), "note": .html(note)]
    }
}

/// A day of a week page.
struct DayRow: Sendable {
    let weekday: String
    let date: String
    let fixes: [FixRow]
    let crashes: [CrashRow]
    /// The time of each reboot.
    let reboots: [String]
    /// What the day says when nothing was marked or crashed.
    let empty: String

    var value: PageValue {
        [
            "weekday": .text(weekday), "date": .text(date), "fixes": .list(fixes.map(\.value)), "crashes": .list(crashes.map(\.value)),
            "reboots": .list(reboots.map { ["time": .text($0)] }), "empty": .text(empty),
        ]
    }
}

/// A row of a week's diagnostic table.
struct DiagnosticRow: Sendable {
    let bugSlug: String
    let bugTitle: String
    let intensity: String
    let context: String
    let trend: String

    var value: PageValue {
        ["bugSlug": .text(bugSlug), "bugTitle": .text(bugTitle), "intensity": .text(intensity), "context": .text(context), "trend": .text(trend)]
    }
}

/// A detected pattern as a page shows it.
struct PatternRow: Sendable {
    let severity: String
    let severityText: String
    let type: String
    let basis: String
    let confidence: String
    let title: String
    let body: String

    var value: PageValue {
        ["severity": .text(severity), "severityText": .text(severityText), "type": .text(type), "basis": .text(basis),
         "confidence": .text(confidence), "title": .text(title), "body": .text(body)]
    }
}

/// A bug's tally on a period page.
struct BugRow: Sendable {
    let slug: String
    let title: String
    let applied: Int
    let skipped: Int
    let failed: Int
    let crashes: Int

    var value: PageValue {
        ["slug": .text(slug), "title": .text(title), "applied": .text(String(applied)), "skipped": .text(String(skipped)),
         "failed": .text(String(failed)), "crashes": .text(String(crashes))]
    }
}

/// What a contribution graph is drawn from.
struct GraphInput: Sendable {
    let cells: [GraphCell]
    let from: LocalDay
    let through: LocalDay
    let title: String

    /// The graph as the templates are given it.
    var html: RawHTML { ContributionGraphSVG.html(cells, from: from, through: through, title: title) }
}

/// A period inside a period page, with its counts in a line.
struct ChildRow: Sendable {
    let href: String
    let label: String
    let summary: String

    var value: PageValue { ["href": .text(href), "label": .text(label), "summary": .text(summary)] }
}

/// What every page adds to its own fields (`PageContext.render`).
struct PageFrame: Sendable {
    let siteTitle: String
    let pageTitle: String
    /// "../" once a folder.
    let root: String
    let nav: [(label: String, href: String)]
    /// The entry of `nav` marked as the current page (none when no entry has this href).
    let current: String
    let footer: String
    let crisis: Bool

    /// The fields, after the page's own.
    func append(to page: inout PageObject, nav value: PageValue) {
        page.append("siteTitle", .text(siteTitle))
        page.append("pageTitle", .text(pageTitle))
        page.append("root", .text(root))
        page.append("nav", value)
        page.append("footer", .text(footer))
        page.append("crisis", .bool(crisis))
    }
}

/// What week, month, quarter and year pages have in common: the heading, the counts against the
/// period before, the questions and the pager.
struct PeriodHead: Sendable {
    let frame: PageFrame
    let range: String
    let versionStart: String
    let versionEnd: String
    let counts: [CountRow]
    /// Each with "text" and "date".
    let questions: [PageValue]
    let prev: PageLink?
    let next: PageLink?
    let up: PageLink

    /// The fields for the "week" and "period" templates, before each page's own.
    var object: PageObject {
        [
            "range": .text(range), "versionStart": .text(versionStart), "versionEnd": .text(versionEnd),
            "versionChanged": .bool(versionStart != versionEnd), "counts": .list(counts.map(\.pageValue)),
            "questions": .list(questions), "prev": prev?.value ?? .null, "next": next?.value ?? .null, "up": up.value,
        ]
    }
}

/// A week page's values.
struct WeekPage: Sendable {
    let head: PeriodHead
    let toNext: String
    let note: RawHTML?
    let mirror: [String]
    let days: [DayRow]
    let diagnostic: [DiagnosticRow]?
    let pattern: PatternRow?
    let tidbit: String?

    /// The week's own fields, for the "week" template.
    var object: PageObject {
        var o = head.object
        o.fields += [
            ("toNext", .text(toNext)), ("note", .html(note)), ("days", .list(days.map(\.value))),
            ("diagnostic", diagnostic.map { ["rows": .list($0.map(\.value))] } ?? .null),
            ("mirror", .list(mirror.map { .text($0) })), ("hasMirror", .bool(!mirror.isEmpty)),
            ("pattern", pattern?.value ?? .null), ("tidbit", .text(tidbit)),
        ]
        return o
    }
}

/// A month, quarter or year page's values.
struct PeriodPage: Sendable {
    let head: PeriodHead
    let graph: GraphInput
    let bugRows: [BugRow]
    let children: [ChildRow]

    /// The period's own fields, for the "period" template.
    var object: PageObject {
        var o = head.object
        o.fields += [("graph", .html(graph.html)), ("bugRows", .list(bugRows.map(\.value))), ("children", .list(children.map(\.value)))]
        return o
    }
}

/// Writes week and period pages as the built-in "week" and "period" templates and their
/// partials render them, without building the templates' values or reading the templates: these
/// pages are most of a site.
///
/// Each kind is written only while the templates it follows are the ones it was written from,
/// byte for byte (`TemplateSet.writesWeeks`, `writesPeriods`, by `templateDigest`); any other
/// template or partial for it (a workspace override, an edited built-in) is rendered by the
/// templates. The tests hold its pages to the templates' byte for byte, and the digests to the
/// built-in templates.
enum PageWriter {
    enum Kind: CaseIterable {
        case week, period

        /// The templates it follows.
        var templates: [String] {
            switch self {
            case .week: return ["week", "partials/top", "partials/help", "partials/summary", "partials/fix",
                                "partials/pattern", "partials/pager", "partials/bottom"]
            case .period: return ["period", "partials/top", "partials/help", "partials/summary", "partials/pager", "partials/bottom"]
            }
        }

        /// `digest(_:)` of those templates as it was written from them.
        var templateDigest: UInt64 {
            switch self {
            case .week: return 0xEE1A440BAEE80A4B
            case .period: return 0x56E2E69F9711025B
            }
        }

        /// FNV-1a over each template's name and text, in `templates` order; nil when one is missing.
        func digest(_ text: (String) -> String?) -> UInt64? {
            var parts: [String] = []
            for name in templates {
                guard let t = text(name) else { return nil }
                parts.append(name)
                parts.append(t)
            }
            return StableHash.fnv1a(parts)
        }
    }

    static func week(_ w: WeekPage) -> Data {
        let h = w.head
        var out = ByteText(capacity: 16 * 1024)
        heading(h, &out)
        out.append(" · ")
        out.appendHTMLEscaped(w.toNext)
        out.append("</p>\n")
        if let note = w.note, !note.html.isEmpty {
            out.append("<section aria-label=\"Your note\"><h2>Note</h2>")
            out.append(string: note.html)
            out.append("</section>")
        }
        out.append("\n<h2>Counts</h2>\n")
        summary(h.counts, &out)
        if !w.mirror.isEmpty {
            out.append("<h2>Mirror check</h2>\n<ul class=\"panel plain\">\n")
            for line in w.mirror {
                out.append("<li>")
                out.appendHTMLEscaped(line)
                out.append("</li>\n")
            }
            out.append("</ul>")
        }
        out.append("\n<h2>Days</h2>\n")
        for day in w.days {
            out.append("<section class=\"day\" aria-label=\"")
            out.appendHTMLEscaped(day.date)
            out.append("\">\n<h3>")
            out.appendHTMLEscaped(day.weekday)
            out.append(" ")
            out.appendHTMLEscaped(day.date)
            out.append("</h3>\n")
            for fix in day.fixes { self.fix(fix, &out) }
            out.append("\n")
            for crash in day.crashes {
                out.append("<p><span class=\"outcome crash\">crash</span> <span class=\"bug-")
                out.appendHTMLEscaped(crash.bugSlug)
                out.append("\"><span class=\"bug-name\">")
                out.appendHTMLEscaped(crash.bugTitle)
                out.append("</span></span> <span class=\"muted\">")
                out.appendHTMLEscaped(crash.time)
                if let r = crash.rebooted, !r.isEmpty {
                    out.append(" · rebooted ")
                    out.appendHTMLEscaped(r)
                }
                out.append("</span></p>\n")
                if let note = crash.note, !note.html.isEmpty {
                    out.append("<div class=\"reflection\" role=\"group\" aria-label=\"Crash note\">")
                    out.append(string: note.html)
                    out.append("</div>")
                }
            }
            out.append("\n")
            for time in day.reboots {
                out.append("<p><span class=\"outcome opened\">reboot</span> <span class=\"muted\">")
                out.appendHTMLEscaped(time)
                out.append("</span></p>")
            }
            out.append("\n")
            if day.fixes.isEmpty && day.crashes.isEmpty {
                out.append("<p class=\"muted day-empty\">")
                out.appendHTMLEscaped(day.empty)
                out.append("</p>")
            }
            out.append("\n</section>\n")
        }
        out.append("<h2>Diagnostic</h2>\n")
        if let rows = w.diagnostic {
            out.append("""
                <div class="table-wrap" tabindex="0" role="group" aria-label="Diagnostic"><table>
                <caption class="muted">How the week felt, against the weeks before it</caption>
                <thead><tr><th scope="col">bug</th><th scope="col">this week</th><th scope="col">where</th><th scope="col">trend</th></tr></thead>
                <tbody>

                """)
            for row in rows {
                out.append("<tr><td class=\"bug-")
                out.appendHTMLEscaped(row.bugSlug)
                out.append("\"><span class=\"bug-name\">")
                out.appendHTMLEscaped(row.bugTitle)
                out.append("</span></td><td>")
                out.appendHTMLEscaped(row.intensity)
                out.append("</td><td>")
                out.appendHTMLEscaped(row.context)
                out.append("</td><td>")
                out.appendHTMLEscaped(row.trend)
                out.append("</td></tr>\n")
            }
            out.append("</tbody></table></div>\n\n")
        } else {
            out.append("\n<p class=\"muted\">No diagnostic this week. Skipping costs nothing.</p>\n")
        }
        if let p = w.pattern {
            out.append("<h2>Pattern</h2>\n")
            pattern(p, &out)
        }
        out.append("\n<h2>Questions you asked yourself</h2>\n")
        questions(h.questions, none: "<p class=\"muted\">None this week. Nobody writes them for you.</p>", &out)
        out.append("\n")
        if let t = w.tidbit, !t.isEmpty {
            out.append("<h2>Why</h2>\n<p class=\"comment\">")
            out.appendHTMLEscaped(t)
            out.append("</p>")
        }
        out.append("\n")
        pager(prev: h.prev, up: h.up, next: h.next, root: h.frame.root, &out)
        bottom(h.frame, &out)
        return out.data()
    }

    static func period(_ p: PeriodPage) -> Data {
        let h = p.head
        var out = ByteText(capacity: 16 * 1024 + 200 * 7 * GraphGrid.weeks(from: p.graph.from, through: p.graph.through))
        heading(h, &out)
        out.append("</p>\n<h2>Counts</h2>\n")
        summary(h.counts, &out)
        out.append("<h2>Graph</h2>\n<div class=\"graph\" tabindex=\"0\" role=\"group\" aria-label=\"Contribution graph, ")
        out.appendHTMLEscaped(h.frame.pageTitle)
        out.append("\">")
        ContributionGraphSVG.render(p.graph.cells, from: p.graph.from, through: p.graph.through, title: p.graph.title, into: &out)
        out.append("""
            </div>
            <p class="muted graph-hint">// Older weeks are to the left: scroll the graph sideways.</p>
            <h2>By bug</h2>
            <div class="table-wrap" tabindex="0" role="group" aria-label="By bug"><table>
            <thead><tr><th scope="col">bug</th><th scope="col" class="num">applied</th><th scope="col" class="num">skipped</th><th scope="col" class="num">failed</th><th scope="col" class="num">crashes</th></tr></thead>
            <tbody>

            """)
        if p.bugRows.isEmpty {
            out.append("<tr><td colspan=\"5\" class=\"muted\">Nothing recorded.</td></tr>")
        }
        for row in p.bugRows {
            out.append("<tr><td class=\"bug-")
            out.appendHTMLEscaped(row.slug)
            out.append("\"><span class=\"bug-name\">")
            out.appendHTMLEscaped(row.title)
            out.append("</span></td><td class=\"num\">")
            out.append(row.applied)
            out.append("</td><td class=\"num\">")
            out.append(row.skipped)
            out.append("</td><td class=\"num\">")
            out.append(row.failed)
            out.append("</td><td class=\"num\">")
            out.append(row.crashes)
            out.append("</td></tr>\n")
        }
        out.append("</tbody></table></div>\n<h2>Questions you asked yourself</h2>\n")
        questions(h.questions, none: "<p class=\"muted\">None in this period.</p>", &out)
        out.append("\n<h2>Inside</h2>\n<ul class=\"plain\">\n")
        for child in p.children {
            out.append("<li><a href=\"")
            out.appendHTMLEscaped(h.frame.root)
            out.appendHTMLEscaped(child.href)
            out.append("\">")
            out.appendHTMLEscaped(child.label)
            out.append("</a> <span class=\"muted\">")
            out.appendHTMLEscaped(child.summary)
            out.append("</span></li>\n")
        }
        out.append("</ul>\n")
        pager(prev: h.prev, up: h.up, next: h.next, root: h.frame.root, &out)
        bottom(h.frame, &out)
        return out.data()
    }

    /// The questions of a page ("text" and "date" each), or `none` when there are none.
    static func questions(_ list: [PageValue], none: StaticString, _ out: inout ByteText) {
        if list.isEmpty {
            out.append(none)
            return
        }
        for q in list {
            out.append("<blockquote><p>")
            if case .text(let t)? = q.field("text") { out.appendHTMLEscaped(t) }
            out.append("</p><p class=\"muted\">")
            if case .text(let d)? = q.field("date") { out.appendHTMLEscaped(d) }
            out.append("</p></blockquote>\n")
        }
    }

    /// The top of a report page, through its range and versions: "partials/top", the title, and
    /// the line under it up to where the week and period templates part.
    static func heading(_ h: PeriodHead, _ out: inout ByteText) {
        top(h.frame, &out)
        out.append("<h1>")
        out.appendHTMLEscaped(h.frame.pageTitle)
        out.append("</h1>\n<p class=\"muted\">")
        out.appendHTMLEscaped(h.range)
        out.append(" · v")
        out.appendHTMLEscaped(h.versionStart)
        if h.versionStart != h.versionEnd {
            out.append(" → v")
            out.appendHTMLEscaped(h.versionEnd)
        }
    }

    /// "partials/top".
    static func top(_ f: PageFrame, _ out: inout ByteText) {
        out.append("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'">
            <meta name="referrer" content="no-referrer">
            <meta name="robots" content="noindex, nofollow">
            <meta name="generator" content="EgoFix">
            <title>
            """)
        out.appendHTMLEscaped(f.pageTitle)
        out.append(" | ")
        out.appendHTMLEscaped(f.siteTitle)
        out.append("</title>\n<link rel=\"stylesheet\" href=\"")
        out.appendHTMLEscaped(f.root)
        out.append("style.css\">\n<link rel=\"icon\" href=\"")
        out.appendHTMLEscaped(f.root)
        out.append("favicon.svg\" type=\"image/svg+xml\">\n<link rel=\"alternate\" type=\"application/atom+xml\" title=\"")
        out.appendHTMLEscaped(f.siteTitle)
        out.append(": changelog\" href=\"")
        out.appendHTMLEscaped(f.root)
        out.append("""
            changelog/feed.xml">
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header class="top">
            <a class="brand" href="
            """)
        out.appendHTMLEscaped(f.root)
        out.append("index.html\">")
        out.appendHTMLEscaped(f.siteTitle)
        out.append("</a>\n<nav class=\"site\" aria-label=\"Site\">\n<ul>\n")
        for item in f.nav {
            out.append("<li><a href=\"")
            out.appendHTMLEscaped(f.root)
            out.appendHTMLEscaped(item.href)
            out.append("\"")
            if item.href == f.current { out.append(" aria-current=\"page\"") }
            out.append(">")
            out.appendHTMLEscaped(item.label)
            out.append("</a></li>\n")
        }
        out.append("</ul>\n</nav>\n</header>\n<main id=\"main\">\n")
        if f.crisis {
            out.append("""
                <section class="help" aria-labelledby="help-title">
                <h2 id="help-title">Before anything else</h2>
                <p>Something you wrote in this period reads like more than a bad ego day. If you are thinking about hurting yourself, or you are not safe, talk to a person now: a local emergency number, a crisis line where you live, or someone you trust. This tool is not the right place for that, and that part is not a bug.</p>
                </section>

                """)
        }
        out.append("\n")
    }

    /// "partials/summary".
    static func summary(_ counts: [CountRow], _ out: inout ByteText) {
        out.append("<div class=\"grid\">\n")
        for c in counts {
            out.append("<div class=\"stat\"><span class=\"label\">")
            out.appendHTMLEscaped(c.label)
            out.append("</span><span class=\"value\">")
            out.appendHTMLEscaped(c.value)
            out.append("</span>")
            if let d = c.delta, !d.isEmpty {
                out.append(" <span class=\"muted\">")
                out.appendHTMLEscaped(d)
                out.append("</span>")
            }
            out.append("</div>\n")
        }
        out.append("</div>\n")
    }

    /// "partials/fix".
    static func fix(_ f: FixRow, _ out: inout ByteText) {
        out.append("<article class=\"fix bug-")
        out.appendHTMLEscaped(f.bugSlug)
        out.append("\">\n<p class=\"meta\"><span class=\"label\">")
        out.appendHTMLEscaped(f.label)
        out.append("</span> <span class=\"bug-name\">")
        out.appendHTMLEscaped(f.bugTitle)
        out.append("</span> · severity ")
        out.appendHTMLEscaped(f.severity)
        if let t = f.typeNote, !t.isEmpty {
            out.append(" · ")
            out.appendHTMLEscaped(t)
        }
        if let t = f.when, !t.isEmpty {
            out.append(" · ")
            out.appendHTMLEscaped(t)
        }
        out.append(" · <span class=\"outcome ")
        out.appendHTMLEscaped(f.outcome)
        out.append("\">")
        out.appendHTMLEscaped(f.outcomeText)
        out.append("</span></p>\n<p class=\"prompt\">")
        out.appendHTMLEscaped(f.prompt)
        out.append("</p>\n")
        if let t = f.comment, !t.isEmpty {
            out.append("<p class=\"comment\">")
            out.appendHTMLEscaped(t)
            out.append("</p>")
        }
        out.append("\n")
        if let t = f.detail, !t.isEmpty {
            out.append("<p class=\"detail\">")
            out.appendHTMLEscaped(t)
            out.append("</p>")
        }
        out.append("\n")
        if let t = f.interaction, !t.isEmpty {
            out.append("<p class=\"muted\">")
            out.appendHTMLEscaped(t)
            out.append("</p>")
        }
        out.append("\n")
        if let r = f.reflection, !r.html.isEmpty {
            out.append("<div class=\"reflection\" role=\"group\" aria-label=\"Reflection\">")
            out.append(string: r.html)
            out.append("</div>")
        }
        out.append("\n</article>\n")
    }

    /// "partials/pattern".
    static func pattern(_ p: PatternRow, _ out: inout ByteText) {
        out.append("<article class=\"pattern\">\n<p><span class=\"sev ")
        out.appendHTMLEscaped(p.severity)
        out.append("\">")
        out.appendHTMLEscaped(p.severityText)
        out.append("</span> <span class=\"muted\">· ")
        out.appendHTMLEscaped(p.type)
        out.append(" · ")
        out.appendHTMLEscaped(p.basis)
        out.append(" · ")
        out.appendHTMLEscaped(p.confidence)
        out.append("</span></p>\n<h3>")
        out.appendHTMLEscaped(p.title)
        out.append("</h3>\n<p>")
        out.appendHTMLEscaped(p.body)
        out.append("</p>\n</article>\n")
    }

    /// "partials/pager".
    static func pager(prev: PageLink?, up: PageLink?, next: PageLink?, root: String, _ out: inout ByteText) {
        out.append("<nav class=\"pager\" aria-label=\"Pages\">\n<span>")
        if let p = prev {
            out.append("<a href=\"")
            out.appendHTMLEscaped(root)
            out.appendHTMLEscaped(p.href)
            out.append("\" rel=\"prev\">&larr; ")
            out.appendHTMLEscaped(p.label)
            out.append("</a>")
        } else {
            out.append("<span class=\"muted\">&larr; nothing earlier</span>")
        }
        out.append("</span>\n<span>")
        if let u = up {
            out.append("<a href=\"")
            out.appendHTMLEscaped(root)
            out.appendHTMLEscaped(u.href)
            out.append("\">")
            out.appendHTMLEscaped(u.label)
            out.append("</a>")
        }
        out.append("</span>\n<span>")
        if let n = next {
            out.append("<a href=\"")
            out.appendHTMLEscaped(root)
            out.appendHTMLEscaped(n.href)
            out.append("\" rel=\"next\">")
            out.appendHTMLEscaped(n.label)
            out.append(" &rarr;</a>")
        } else {
            out.append("<span class=\"muted\">nothing later &rarr;</span>")
        }
        out.append("</span>\n</nav>\n")
    }

    /// "partials/bottom".
    static func bottom(_ f: PageFrame, _ out: inout ByteText) {
        out.append("</main>\n<footer class=\"bottom\">\n<p>")
        out.appendHTMLEscaped(f.footer)
        out.append("""
            </p>
            <p class="muted">// Private. Generated by EgoFix from a local store. Nothing here was sent anywhere.</p>
            </footer>
            </body>
            </html>

            """)
    }
}
