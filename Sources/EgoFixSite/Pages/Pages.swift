import EgoFixCore
import Foundation

extension PageContext {
    /// The week notes for weeks without a page (before the first day or after today), records
    /// dated after the last page, and the version notes for versions the changelog does not have
    /// (not reached yet), one line each.
    func notesNotOnTheSite() -> [String] {
        var lines = content.ignored
        let weeks = Period.all(.week, from: index.first, through: index.last)
        if let first = weeks.first?.key, let last = weeks.last?.key {
            let keys = Set(weeks.map(\.key))
            for doc in content.weeks where !keys.contains(doc.name) {
                // Week keys sort as their weeks do.
                lines.append("\(doc.source) is not on the site: there are week pages from \(first) to \(last) only. "
                             + (doc.name < first ? "\(doc.name) is before the practice began." : "The note joins the site once \(doc.name) is one of them."))
            }
        }
        for origin in templates.unusedOverrides {
            lines.append(origin.hasSuffix(".mustache") ? "\(origin) is not used: no page has that name and no template includes it."
                         : "\(origin) is not used: templates are files ending in .mustache.")
        }
        lines += templates.unreachedNames()
        for meta in PageMeta.allCases {
            guard let pages = templates.pagesWithout[meta], !pages.isEmpty else { continue }
            lines.append("with the overrides in Templates/, the pages made from \(pages.joined(separator: ", ")) \(meta.consequence) "
                         + "(each built-in page template has it, through partials/top.mustache or its own head).")
        }
        if !templates.pagesWithoutHelp.isEmpty {
            lines.append("with the overrides in Templates/, the pages made from \(templates.pagesWithoutHelp.joined(separator: ", ")) leave out the help block "
                         + "a page shows first when something written on it reads like a crisis: keep {{#crisis}}{{> partials/help}}{{/crisis}} "
                         + "(partials/top.mustache has it) and some text in partials/help.mustache.")
        }
        if let ahead = daysAhead {
            lines.append("records on \(ahead.count) \(ahead.count == 1 ? "day" : "days") after \(index.last) (the latest \(ahead.latest)) "
                         + "are not on the site: a clock that ran ahead made them. They join it when their days come.")
        }
        let versions = changelogVersions.map(\.version)
        for doc in content.versions where !versions.contains(doc.name) {
            lines.append("\(doc.source) is not on the site: the changelog has no v\(doc.name) (the latest is v\(versions.last ?? "1.0")). "
                         + "The note joins it once v\(doc.name) is reached.")
        }
        return lines
    }

    func pagePlan() -> [PagePlan] {
        var plans: [PagePlan] = [
            PagePlan(path: "index.html") { try $0.dashboard() },
            PagePlan(path: "reports/index.html") { try $0.reports() },
            PagePlan(path: "changelog/index.html") { try $0.changelog() },
            PagePlan(path: "history/index.html") { try $0.history() },
            PagePlan(path: "patterns/index.html") { try $0.patterns() },
            PagePlan(path: "how/index.html") { try $0.how() },
            PagePlan(path: "404.html") { try $0.notFoundPage() },
        ]
        for kind in [Period.Kind.week, .month, .quarter, .year] {
            let all = kind == .week ? Period.all(kind, from: index.first, through: index.last)
                : Period.all(kind, from: index.rollupFirst, through: index.rollupLast)
            for (i, p) in all.enumerated() {
                let prev = i > 0 ? all[i - 1] : nil, next = i + 1 < all.count ? all[i + 1] : nil
                plans.append(PagePlan(path: p.path) { try $0.period(p, prev: prev, next: next) })
            }
        }
        for (place, bug) in index.bugs.enumerated() {
            plans.append(PagePlan(path: "bugs/\(bug.slug)/index.html") { try $0.bugPage(place) })
        }
        let listed = content.pages.count > PageContext.navPageLimit
        for doc in content.pages {
            let path = "pages/\(doc.name)/index.html"
            plans.append(PagePlan(path: path) { ctx in
                // A page of its own: its first level-1 heading is its h1 and its title; without one,
                // the file's name is both.
                let (body, heading) = try Markdown.page(doc.markdown, name: doc.source)
                return try ctx.render("page", ["body": .html(body), "ownHeading": .bool(heading != nil)], path: path, title: heading ?? doc.name,
                                      current: listed ? PageContext.pagesIndexPath : nil, crisis: CrisisLanguage.detect(doc.markdown))
            })
        }
        if listed {
            plans.append(PagePlan(path: PageContext.pagesIndexPath) { ctx in
                let items = ctx.content.pages.sorted { $0.name < $1.name }.map { doc -> TemplateValue in
                    ["href": .text("pages/\(doc.name)/index.html"), "label": .text(PageContext.pageLabel(doc)), "summary": .text("")]
                }
                return try ctx.render("archive", ["intro": .text("Pages of your own, from content/pages."),
                                                  "groups": .list([["label": "Pages", "items": .list(items)]])],
                                      path: PageContext.pagesIndexPath, title: "Pages")
            })
        }
        return plans
    }

    // MARK: dashboard

    func dashboard() throws -> Data {
        let path = "index.html"
        guard let user = data.profile else {
            return try render("dashboard", emptyDashboard(), path: path, title: "Dashboard")
        }
        let streakState = StreakState(of: user) { index.recorded.day($0) }
        // As the day began: the page shows the local date, not the instant (the change check holds
        // only the date), and the ledger's streaks are read the same way.
        let streak = StreakRules.current(streakState, today: index.today, now: index.today.start(in: options.calendar))
        let applied = index.appliedDays.count
        let active = DailyFixRules.turnOrder(index.bugs.filter(\.isActive), primaryBugId: user.primaryBugId)
            + index.bugs.filter { $0.isActive && $0.status != .active }
        // A fix given and not marked, as `egofix status` has it: a daily fix of an earlier day left
        // unmarked is not (its day is over). `status` also names today's fix before it is given once
        // `remind_at` has passed; the page holds only the date, so it does not.
        let pending = PendingFixRule.pending(in: data.completions, fixesById: index.fixesById, today: index.today, dayOf: index.clock.day,
                                             timerEnds: data.events)?.completion
        // With nothing pending, a rest day says so as `status` and `today` do: "`egofix today`
        // shows today's" sent the reader to a command with no fix to show.
        var restDay: TemplateValue = .null, todaysDone: TemplateValue = .null
        let todays = pending == nil ? PendingFixRule.todaysDailyFix(in: data.completions, fixesById: index.fixesById, today: index.today, dayOf: index.clock.day) : nil
        // Today's marked: said, as `status` says it (not "`egofix today` shows today's").
        if let t = todays, t.completion.outcome != .pending {
            todaysDone = .text("Today's, \(t.fix.label), is marked \(t.completion.outcome.rawValue).")
        }
        if pending == nil, todays == nil,
           DailyFixRules.choose(.init(userId: user.id, day: index.today, bugs: data.bugs, primaryBugId: user.primaryBugId,
                                      fixes: data.fixes, completions: data.completions, calendar: options.calendar)) == .restDay {
            restDay = .text(RestDay(bugs: data.bugs).reason)
        }
        // The last year, or since day one when that is nearer (a practice begun this week showed
        // 52 weeks of empty days and a hint to scroll back to more of them).
        let yearAgo = index.today.adding(days: -364)
        let from = max(yearAgo, index.first)
        let graphTitle = from == yearAgo ? "The last year" : "Since day one"
        var welcome: TemplateValue = .null
        if let last = streakState.lastEngagedDay, let line = StreakRules.welcomeBack(daysSince: index.today.days(since: last)) {
            welcome = .text(line)
        }
        // Crashes no reboot has closed yet, as `status` counts them (the page never said so).
        let open = data.crashes.filter { c in
            c.deletedAt == nil && index.recorded.day(of: c) <= index.today && (c.rebootedAt.map { rebootDay($0) > index.today } ?? true)
        }.count
        let page: TemplateObject = [
            "welcomeBack": welcome,
            "openCrashes": open == 0 ? .null : .text(Plural.of(open, "open crash", "open crashes")),
            "closesThem": .text(open == 1 ? "it" : "them"),
            "version": .text(user.currentVersion),
            "toNext": .text(VersionRules.toNextVersion(appliedCount: applied)),
            "streak": .text("day \(streak)"), "longest": .text(String(user.longestStreak)), "applied": .text(String(applied)),
            "since": .text("since \(index.practiceStart ?? index.clock.day(user.createdAt))"),
            "streakLine": .text(StreakRules.line(days: streak, longest: user.longestStreak)),
            "bugs": .list(active.map { ["slug": .text($0.slug), "title": .text($0.title), "status": .text($0.status.rawValue),
                                        "primary": .bool($0.id == user.primaryBugId)] }),
            "pattern": surfacedPattern.map(patternModel) ?? .null,
            "pending": try pending.map { try fixModel($0, showDate: true) } ?? .null,
            "restDay": restDay, "todaysDone": todaysDone,
            "graph": .html(ContributionGraphSVG.html(index.graphCells(from: from, through: index.today), from: from, through: index.today,
                                                     title: graphTitle)),
            "graphTitle": .text(graphTitle), "graphLabel": .text(graphTitle.lowercased()),
            "thisWeek": .text(index.today.isoWeekLabel),
        ]
        return try render("dashboard", page, path: path, title: "Dashboard", crisis: crisis(from: currentWeek.start, through: currentWeek.end))
    }

    func emptyDashboard() -> TemplateObject {
        let from = index.today.adding(days: -364)
        return ["welcomeBack": "No practice in this store yet. `egofix init` picks a bug and shows the first fix.",
                "version": "1.0", "toNext": .text(VersionRules.toNextVersion(appliedCount: 0)), "streak": "day 0", "longest": "0", "applied": "0", "since": "",
                "streakLine": .text(StreakRules.line(days: 0, longest: 0)), "bugs": .list([]), "pattern": .null, "pending": .null, "restDay": .null, "openCrashes": .null,
                "graph": .html(ContributionGraphSVG.html([], from: from, through: index.today)), "graphTitle": "The last year", "graphLabel": "the last year",
                "thisWeek": .text(index.today.isoWeekLabel)]
    }

    // MARK: periods

    func period(_ p: Period, prev: Period?, next: Period?) throws -> Data {
        if p.kind == .week {
            let week = try weekPage(p, prev: prev, next: next)
            return try render("week", week.object, frame: week.head.frame)
        }
        let page = periodPage(p, prev: prev, next: next)
        return try render("period", page.object, frame: page.head.frame)
    }

    /// What every report page has; `current` is the navigation entry marked as this page.
    /// `noteCrisis`: the page also shows a note (a week's) that reads like a crisis.
    func periodHead(_ p: Period, prev: Period?, next: Period?, current: String, noteCrisis: Bool = false) -> PeriodHead {
        let c = counts(from: p.start, through: p.end)
        let underWay = p.isUnderWay(today: index.today)
        let todayRecorded = !underWay || counts(from: index.today, through: index.today) != Counts()
        let prevCounts = prev.flatMap { p.comparedDays(of: $0, today: index.today, practiceStart: index.dayOne, todayRecorded: todayRecorded) }
            .map { counts(from: $0.lowerBound, through: $0.upperBound) }
        let vStart = index.version(through: p.start.adding(days: -1))
        let vEnd = index.version(through: p.end)
        return PeriodHead(
            frame: frame(path: p.path, title: p.title, current: current, crisis: noteCrisis || crisis(from: p.start, through: p.end)),
            range: p.range, versionStart: vStart, versionEnd: vEnd, counts: countRows(c, previous: prevCounts, soFar: underWay),
            questions: questions(from: p.start, through: p.end),
            prev: prev.map { PageLink(href: $0.path, label: $0.title) }, next: next.map { PageLink(href: $0.path, label: $0.title) },
            up: p.parent.map { PageLink(href: $0.path, label: $0.title) } ?? PageLink(href: "reports/index.html", label: "all reports"))
    }

    /// A month, quarter or year page's values: what the "period" template is given.
    func periodPage(_ p: Period, prev: Period?, next: Period?) -> PeriodPage {
        // A month or quarter whose first day is still to come has a page when the current week's
        // Thursday falls in it: no graph of days that have not come, "Not yet."
        let graphEnd = max(p.start, min(p.end, index.last)), begun = p.start <= index.last
        let childKind: Period.Kind = p.kind == .month ? .week : (p.kind == .quarter ? .month : .quarter)
        // Every week with days in the month (a week across two months is in both lists; its page's
        // month is its Thursday's), and every month or quarter that has a page.
        let children = Period.all(childKind, from: p.start, through: p.end)
            .filter { childKind == .week ? $0.start <= index.last && $0.end >= index.first
                                         : $0.start <= index.rollupLast && $0.end >= index.rollupFirst }
            .map { child -> ChildRow in
                // A week across the month's edge is counted for its days in the month, which are
                // named (its whole-week counts added up to more than the month above them).
                let from = max(child.start, p.start), through = min(child.end, p.end)
                guard from != child.start || through != child.end else { return ChildRow(href: child.path, label: child.title, summary: summary(child)) }
                let days = from == through ? "\(from): " : "\(from) to \(through): "
                return ChildRow(href: child.path, label: child.title, summary: days + summary(from: from, through: through))
            }
        return PeriodPage(
            head: periodHead(p, prev: prev, next: next, current: "reports/index.html"),
            graph: GraphInput(cells: begun ? index.graphCells(from: p.start, through: graphEnd) : [], from: p.start, through: graphEnd,
                              title: p.title, begun: begun),
            bugRows: bugRows(from: p.start, through: p.end), children: children)
    }

    /// A week page's values: what the "week" template is given.
    func weekPage(_ p: Period, prev: Period?, next: Period?) throws -> WeekPage {
        let appliedByEnd = index.appliedCount(through: p.end)
        return WeekPage(
            head: periodHead(p, prev: prev, next: next, current: p.start == currentWeek.start ? p.path : "reports/index.html",
                             noteCrisis: weekNotes[p.key].map { CrisisLanguage.detect($0.markdown) } ?? false),
            toNext: VersionRules.toNextVersion(appliedCount: appliedByEnd) + (p.start == currentWeek.start ? "" : " at the week's end"),
            note: try weekNotes[p.key].map { try markdown($0.markdown, name: $0.source) },
            mirror: mirror(week: p) ?? [], days: try p.days.map { try dayRow($0) }, diagnostic: diagnosticRows(week: p.start),
            noDiagnostic: noDiagnostic(week: p),
            pattern: weekPattern(p).map { found in
                var row = patternRow(found.pattern)
                row.detected = found.day?.description
                return row
            },
            tidbit: diagnosticTidbit(p))
    }

    /// A week without a diagnostic: open now (Sunday from 18:00 through Monday), still to open
    /// (this week, before Sunday evening), or skipped.
    func noDiagnostic(week p: Period) -> String {
        if openDiagnosticWeek == p.start {
            return "Open now, through Monday: egofix diagnostic, 30 seconds. Skipping costs nothing."
        }
        if p.start == currentWeek.start { return "It opens Sunday at \(Thresholds.diagnosticOpensSundayHour):00 and stays open through Monday. Skipping costs nothing." }
        return "No diagnostic this week. Skipping costs nothing."
    }

    /// Which tidbits a week's "Why" may draw on: the diagnostic's, in a week with one; else none.
    /// Every other tidbit speaks of one day: the rest days' say "No fix today." (false on the
    /// page of a week gone by, or of a Monday morning before its fix), the rest of one outcome.
    /// A week with a diagnostic shows the tidbit the diagnostic showed: the one for its first
    /// rated bug that week (`MicroEducationPicker.diagnostic`).
    func diagnosticTidbit(_ p: Period) -> String? {
        guard let d = index.diagnosticsByWeek[p.start], let user = data.profile,
              let slug = d.responses.first.flatMap({ index.bugsById[$0.bugId]?.slug }) else { return nil }
        return MicroEducationPicker.diagnostic(from: data.education, bugSlug: slug, userId: user.id, week: p.start)?.body
    }

    func dayRow(_ d: LocalDay) throws -> DayRow {
        let crashes = try (index.crashesByDay[d] ?? []).map { c -> CrashRow in
            var note: RawHTML?
            if c.note != nil, let r = crashNotes[c.id] { note = try r.get() }
            return CrashRow(bugSlug: bugSlug(c.bugId), bugTitle: bugTitle(c.bugId), time: time(c.crashedAt, on: d),
                            rebooted: c.rebootedAt.map { rebootDay($0).description }, note: note)
        }
        let empty: String
        if d > index.today {
            empty = "Not yet."
        } else if d < index.dayOne {
            empty = "Before day one."
        } else if index.ledger.activity(on: d).diagnostics > 0 {
            empty = "The weekly diagnostic. Nothing else recorded."
        } else if index.ledger.activity(on: d).markedLater > 0 {
            // Yesterday's fix whose timer ran out after midnight counts on the day it was marked;
            // its own day had it all the same ("Rest day. No fix given." said otherwise).
            empty = "Its fix was marked on a later day."
        } else if index.openedDays.contains(d) {
            // Shown only for a day with no fix, crash or reboot: `today` opened it and gave no
            // fix (it gives the day's fix whenever one is due, a quick fix pending or not), so it
            // said "REST DAY". "Nothing marked." read as a fix left undone.
            empty = "Rest day. No fix given."
        } else if d == index.today {
            // The day is still under way ("Nothing recorded." read as a day missed).
            empty = "Nothing yet."
        } else {
            empty = "Nothing recorded."
        }
        return DayRow(weekday: PatternCopy.weekdayName(d.weekday), date: d.description,
                      fixes: try (index.completionsByDay[d] ?? []).map { try fixRow($0, showDate: false) },
                      crashes: crashes, reboots: (index.rebootsByDay[d] ?? []).map { time($0.createdAt, on: d) }, empty: empty)
    }

    func diagnosticRows(week monday: LocalDay) -> [DiagnosticRow]? {
        guard let d = index.diagnosticsByWeek[monday] else { return nil }
        return d.responses.map { r -> DiagnosticRow in
            // The four weeks before, oldest first, then this one: "- > quiet > present > present > quiet".
            // Weeks before the practice began are left out (a first diagnostic read "- > - > - > - > present").
            var trend = ""
            trend.reserveCapacity(48)
            for back in (1...4).reversed() where monday.adding(days: -7 * back) >= index.first.isoWeekStart {
                let prev = index.diagnosticsByWeek[monday.adding(days: -7 * back)]
                trend += prev?.responses.first { $0.bugId == r.bugId }?.intensity.rawValue ?? "-"
                // A no-break space before the arrow: a narrow cell wraps after it, so no line
                // starts with "> " (at 360 px a line read "> - > quiet").
                trend += "\u{00A0}> "
            }
            trend += r.intensity.rawValue
            return DiagnosticRow(bugSlug: bugSlug(r.bugId), bugTitle: bugTitle(r.bugId), intensity: r.intensity.rawValue,
                                 context: r.primaryContext?.word ?? "-", trend: trend)
        }
    }

    /// What the diagnostic said against what was logged that week (Core's mirror check).
    func mirror(week p: Period) -> [String]? {
        guard let d = index.diagnosticsByWeek[p.start] else { return nil }
        let lines = MirrorCheck.check(d, ledger: index.ledger)
        return lines.isEmpty ? nil : lines.map { $0.title + ": " + $0.text }
    }

    /// A pattern for a week: one stored as detected that week, with its day, else the surfaced
    /// one on the current week.
    func weekPattern(_ p: Period) -> (pattern: DetectedPattern, day: LocalDay?)? {
        let stored = storedPatterns.filter { $0.day >= p.start && $0.day <= p.end }.sorted { PatternEngine.order($0.pattern, $1.pattern) }
        if let s = stored.first { return (s.pattern, s.day) }
        return p.start == currentWeek.start ? surfacedPattern.map { ($0, nil) } : nil
    }

    /// Per bug (by slug), what was marked and crashed in these days; bugs with nothing are left out.
    func bugRows(from first: LocalDay, through last: LocalDay) -> [BugRow] {
        index.bugs.enumerated().compactMap { i, bug -> BugRow? in
            let x = bugTallies.tally(bug: i, from: first, through: last)
            guard !x.isEmpty else { return nil }
            return BugRow(slug: bug.slug, title: bug.title, applied: x.applied, skipped: x.skipped, failed: x.failed, crashes: x.crashes)
        }
    }

    // MARK: reports index

    func reports() throws -> Data {
        let (first, last) = (index.rollupFirst, index.rollupLast)
        let years = Period.all(.year, from: first, through: last).reversed()
        let groups = years.map { y -> TemplateValue in
            var items: [TemplateValue] = [["href": .text(y.path), "label": .text("The year \(y.title)"), "summary": .text(summary(y))]]
            for q in Period.all(.quarter, from: y.start, through: y.end).reversed() where q.start <= last && q.end >= first {
                items.append(["href": .text(q.path), "label": .text(q.title), "summary": .text(summary(q))])
                for m in Period.all(.month, from: q.start, through: q.end).reversed() where m.start <= last && m.end >= first {
                    items.append(["href": .text(m.path), "label": .text(m.title), "summary": .text(summary(m))])
                }
            }
            return ["label": .text(y.title), "items": .list(items)]
        }
        let weeks = Period.all(.week, from: index.first, through: index.last).reversed().prefix(12)
        var all = groups
        all.insert(["label": "Recent weeks",
                    "items": .list(weeks.map { ["href": .text($0.path), "label": .text($0.title), "summary": .text(summary($0))] })], at: 0)
        return try render("archive", ["intro": "Weeks roll up into months, quarters and years. Every week has its own page; each month lists its weeks.",
                                      "groups": .list(all)],
                          path: "reports/index.html", title: "Reports")
    }

    func summary(_ p: Period) -> String { summary(from: p.start, through: p.end) }

    func summary(from start: LocalDay, through end: LocalDay) -> String {
        let c = counts(from: start, through: end)
        var t = ASCIIText()
        t.append(c.applied)
        t.append(" applied, ")
        t.append(c.skipped)
        t.append(" skipped, ")
        t.append(c.failed)
        t.append(" failed, ")
        t.append(c.crashes)
        if c.crashes == 1 { t.append(" crash") } else { t.append(" crashes") }
        return t.string
    }
}
