import EgoFixCore
import Foundation

// The rows page models are made of, typed. Each gives its template an object (`value`).

/// A link with its label (the pager's earlier, up and later).
struct PageLink: Sendable {
    let href: String
    let label: String

    var value: TemplateValue { ["href": .text(href), "label": .text(label)] }
}

/// One of the six counts of a period ("applied 6 +3 vs before").
struct CountRow: Sendable {
    let label: String
    let value: String
    /// Against the period before; nil when there is none.
    let delta: String?

    var pageValue: TemplateValue { ["label": .text(label), "value": .text(value), "delta": .text(delta)] }
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

    var value: TemplateValue {
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

    var value: TemplateValue {
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

    var value: TemplateValue {
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

    var value: TemplateValue {
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

    var value: TemplateValue {
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

    var value: TemplateValue {
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

    var value: TemplateValue { ["href": .text(href), "label": .text(label), "summary": .text(summary)] }
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
    func append(to page: inout TemplateObject, nav value: TemplateValue) {
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
    let questions: [TemplateValue]
    let prev: PageLink?
    let next: PageLink?
    let up: PageLink

    /// The fields for the "week" and "period" templates, before each page's own.
    var object: TemplateObject {
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
    var object: TemplateObject {
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
    var object: TemplateObject {
        var o = head.object
        o.fields += [("graph", .html(graph.html)), ("bugRows", .list(bugRows.map(\.value))), ("children", .list(children.map(\.value)))]
        return o
    }
}
