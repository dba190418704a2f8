import EgoFixCore
import Foundation

extension PageContext {
    func pagePlan() -> [PagePlan] {
        var plans: [PagePlan] = [
            PagePlan(path: "index.html") { try $0.dashboard() },
            PagePlan(path: "reports/index.html") { try $0.reports() },
            PagePlan(path: "changelog/index.html") { try $0.changelog() },
            PagePlan(path: "history/index.html") { try $0.history() },
            PagePlan(path: "patterns/index.html") { try $0.patterns() },
            PagePlan(path: "how/index.html") { try $0.how() },
            PagePlan(path: "404.html") { try $0.render("notfound", [:], path: "404.html", title: "Not found") },
        ]
        for kind in [Period.Kind.week, .month, .quarter, .year] {
            let all = Period.all(kind, from: index.first, through: index.last)
            for (i, p) in all.enumerated() {
                let prev = i > 0 ? all[i - 1] : nil, next = i + 1 < all.count ? all[i + 1] : nil
                plans.append(PagePlan(path: p.path) { try $0.period(p, prev: prev, next: next) })
            }
        }
        for bug in index.bugs { plans.append(PagePlan(path: "bugs/\(bug.slug)/index.html") { try $0.bugPage(bug) }) }
        for doc in content.pages {
            let path = "pages/\(doc.name)/index.html"
            plans.append(PagePlan(path: path) { ctx in
                let body = try ctx.markdown(doc.markdown, name: doc.source)
                let title = doc.markdown.split(separator: "\n").first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) } ?? doc.name
                return try ctx.render("page", ["body": body], path: path, title: title)
            })
        }
        return plans
    }

    // MARK: dashboard

    func dashboard() throws -> String {
        let path = "index.html"
        guard let user = data.profile else {
            return try render("dashboard", emptyDashboard(), path: path, title: "Dashboard")
        }
        let streakState = StreakState(current: user.currentStreak, longest: user.longestStreak,
                                      lastEngagedDay: user.lastEngagementDate.map { LocalDay($0, calendar: options.calendar) },
                                      freezeUsedWeek: user.freezeUsedWeekStart.map { LocalDay(ordinal: $0) })
        let streak = StreakRules.current(streakState, today: index.today)
        let applied = index.appliedTimes.count
        let active = DailyFixRules.turnOrder(index.bugs.filter(\.isActive), primaryBugId: user.primaryBugId)
            + index.bugs.filter { $0.isActive && $0.status != .active }
        let pending = data.completions.filter { $0.deletedAt == nil && $0.outcome == .pending }
            .sorted { ($0.assignedAt, $0.id.uuidString) > ($1.assignedAt, $1.id.uuidString) }.first
        let from = index.today.adding(days: -364)
        var welcome: Any = NSNull()
        if let last = user.lastEngagementDate.map({ LocalDay($0, calendar: options.calendar) }), index.today.days(since: last) >= 7 {
            welcome = "\(index.today.days(since: last)) days since the last entry. Welcome back. Nothing to make up; today counts as today."
        }
        let page: [String: Any] = [
            "welcomeBack": welcome,
            "version": user.currentVersion,
            "toNext": "\(VersionRules.fixesToNextVersion(appliedCount: applied)) to v\(VersionRules.version(forAppliedCount: applied).next.version)",
            "streak": "day \(streak)", "longest": String(user.longestStreak), "applied": String(applied),
            "since": "since \(LocalDay(user.createdAt, calendar: options.calendar))",
            "streakLine": StreakRules.line(days: streak),
            "bugs": active.map { ["slug": $0.slug, "title": $0.title, "status": $0.status.rawValue, "primary": $0.id == user.primaryBugId] as [String: Any] },
            "pattern": surfacedPattern.map(patternModel) ?? NSNull(),
            "pending": try pending.map { try fixModel($0, showDate: true) } ?? NSNull(),
            "graph": ContributionGraphSVG.html(index.graphCells(from: from, through: index.today), from: from, through: index.today,
                                               title: "The last year"),
            "thisWeek": index.today.isoWeekLabel,
        ]
        return try render("dashboard", page, path: path, title: "Dashboard", crisis: crisis(in: Period.week(containing: index.today).days))
    }

    func emptyDashboard() -> [String: Any] {
        let from = index.today.adding(days: -364)
        return ["welcomeBack": "No profile in this store yet. `egofix init` picks a bug and shows the first fix.",
                "version": "1.0", "toNext": "7 to v1.1", "streak": "day 0", "longest": "0", "applied": "0", "since": "",
                "streakLine": StreakRules.line(days: 0), "bugs": [Any](), "pattern": NSNull(), "pending": NSNull(),
                "graph": ContributionGraphSVG.html([], from: from, through: index.today), "thisWeek": index.today.isoWeekLabel]
    }

    // MARK: periods

    func period(_ p: Period, prev: Period?, next: Period?) throws -> String {
        let days = p.days
        let c = counts(days)
        let prevCounts = prev.map { counts($0.days) }
        let startInstant = p.start.start(in: options.calendar)
        let endInstant = p.end.adding(days: 1).start(in: options.calendar)
        let vStart = index.version(at: startInstant), vEnd = index.version(at: endInstant)
        let appliedByEnd = index.appliedCount(before: endInstant)
        var page: [String: Any] = [
            "range": p.range, "versionStart": vStart, "versionEnd": vEnd, "versionChanged": vStart != vEnd,
            "counts": countsModel(c, previous: prevCounts),
            "questions": questions(in: days),
            "prev": prev.map { ["href": $0.path, "label": $0.title] as [String: Any] } ?? NSNull(),
            "next": next.map { ["href": $0.path, "label": $0.title] as [String: Any] } ?? NSNull(),
            "up": p.parent.map { ["href": $0.path, "label": $0.title] as [String: Any] } ?? ["href": "reports/index.html", "label": "all reports"],
        ]
        let crisisHere = crisis(in: days)
        if p.kind == .week {
            page["toNext"] = "\(VersionRules.fixesToNextVersion(appliedCount: appliedByEnd)) applied fixes to the next version by the end of this week"
            page["note"] = try weekNotes[p.key].map { try markdown($0.markdown, name: $0.source) } ?? NSNull()
            page["days"] = try days.map { try dayModel($0) }
            page["diagnostic"] = diagnosticModel(week: p.start) ?? NSNull()
            let mirrorLines = mirror(week: p) ?? []
            page["mirror"] = mirrorLines
            page["hasMirror"] = !mirrorLines.isEmpty
            page["pattern"] = weekPattern(p).map(patternModel) ?? NSNull()
            page["tidbit"] = tidbit(trigger: index.diagnosticsByWeek[p.start] != nil ? .duringDiagnostic : .restDay, seed: p.key) ?? NSNull()
            return try render("week", page, path: p.path, title: p.title, current: p.start == Period.week(containing: index.today).start ? p.path : "reports/index.html", crisis: crisisHere)
        }
        let graphEnd = max(p.start, min(p.end, index.last))
        page["graph"] = ContributionGraphSVG.html(index.graphCells(from: p.start, through: graphEnd), from: p.start, through: graphEnd,
                                                  title: p.title)
        page["bugRows"] = bugRows(days)
        let childKind: Period.Kind = p.kind == .month ? .week : (p.kind == .quarter ? .month : .quarter)
        page["children"] = Period.all(childKind, from: p.start, through: p.end)
            .filter { childKind != .week || $0.start.adding(days: 3) >= p.start && $0.start.adding(days: 3) <= p.end }
            .filter { $0.start <= index.last && $0.end >= index.first }
            .map { child -> [String: Any] in ["href": child.path, "label": child.title, "summary": summary(child)] }
        return try render("period", page, path: p.path, title: p.title, current: "reports/index.html", crisis: crisisHere)
    }

    func dayModel(_ d: LocalDay) throws -> [String: Any] {
        let weekday = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][d.weekday - 1]
        let crashes = try (index.crashesByDay[d] ?? []).map { c -> [String: Any] in
            ["bugSlug": bugSlug(c.bugId), "bugTitle": bugTitle(c.bugId), "time": time(c.crashedAt),
             "rebooted": c.rebootedAt.map { LocalDay($0, calendar: options.calendar).description } ?? NSNull(),
             "note": try c.note.map { try markdown($0, name: "crash note of \(d) \(time(c.crashedAt))") } ?? NSNull()]
        }
        let empty: String
        if d > index.today { empty = "Not yet." } else if d < index.first { empty = "Before day one." } else if index.openedDays.contains(d) { empty = "Opened. Nothing marked." } else { empty = "Nothing recorded." }
        return [
            "weekday": weekday, "date": d.description,
            "fixes": try (index.completionsByDay[d] ?? []).map { try fixModel($0, showDate: false) },
            "crashes": crashes,
            "reboots": (index.rebootsByDay[d] ?? []).map { ["time": time($0.createdAt)] as [String: Any] },
            "empty": empty,
        ]
    }

    func diagnosticModel(week monday: LocalDay) -> [String: Any]? {
        guard let d = index.diagnosticsByWeek[monday] else { return nil }
        let rows = d.responses.map { r -> [String: Any] in
            var trend: [String] = []
            for back in (1...4).reversed() {
                let prev = index.diagnosticsByWeek[monday.adding(days: -7 * back)]
                trend.append(prev?.responses.first { $0.bugId == r.bugId }?.intensity.rawValue ?? "-")
            }
            trend.append(r.intensity.rawValue)
            return ["bugSlug": bugSlug(r.bugId), "bugTitle": bugTitle(r.bugId), "intensity": r.intensity.rawValue,
                    "context": r.primaryContext?.rawValue ?? "-", "trend": trend.joined(separator: " > ")]
        }
        return ["rows": rows]
    }

    /// What the diagnostic said against what was logged that week (Core's mirror check).
    func mirror(week p: Period) -> [String]? {
        guard let d = index.diagnosticsByWeek[p.start] else { return nil }
        let lines = MirrorCheck.check(d, input: index.input)
        return lines.isEmpty ? nil : lines.map { "\($0.title): \($0.text)" }
    }

    /// A pattern for a week: one stored as detected that week, else the surfaced one on the current week.
    func weekPattern(_ p: Period) -> DetectedPattern? {
        let stored = data.patterns.filter { $0.deletedAt == nil && p.days.contains(LocalDay($0.detectedAt, calendar: options.calendar)) }
            .sorted(by: PatternEngine.order)
        if let s = stored.first { return s }
        return p.start == Period.week(containing: index.today).start ? surfacedPattern : nil
    }

    func bugRows(_ days: [LocalDay]) -> [[String: Any]] {
        index.bugs.compactMap { bug -> [String: Any]? in
            var a = 0, s = 0, f = 0, cr = 0
            for d in days {
                for c in index.completionsByDay[d] ?? [] where index.fixesById[c.fixId]?.bugId == bug.id {
                    if c.outcome == .applied { a += 1 } else if c.outcome == .skipped { s += 1 } else if c.outcome == .failed { f += 1 }
                }
                cr += (index.crashesByDay[d] ?? []).filter { $0.bugId == bug.id }.count
            }
            guard a + s + f + cr > 0 else { return nil }
            return ["slug": bug.slug, "title": bug.title, "applied": String(a), "skipped": String(s), "failed": String(f), "crashes": String(cr)]
        }
    }

    // MARK: reports index

    func reports() throws -> String {
        let years = Period.all(.year, from: index.first, through: index.last).reversed()
        let groups = years.map { y -> [String: Any] in
            var items: [[String: Any]] = [["href": y.path, "label": "The year \(y.title)", "summary": summary(y)]]
            for q in Period.all(.quarter, from: y.start, through: y.end).reversed() where q.start <= index.last && q.end >= index.first {
                items.append(["href": q.path, "label": q.title, "summary": summary(q)])
                for m in Period.all(.month, from: q.start, through: q.end).reversed() where m.start <= index.last && m.end >= index.first {
                    items.append(["href": m.path, "label": m.title, "summary": summary(m)])
                }
            }
            return ["label": y.title, "items": items]
        }
        let weeks = Period.all(.week, from: index.first, through: index.last).reversed().prefix(12)
        var all = groups
        all.insert(["label": "Recent weeks", "items": weeks.map { ["href": $0.path, "label": $0.title, "summary": summary($0)] as [String: Any] }], at: 0)
        return try render("archive", ["intro": "Weeks roll up into months, quarters and years. Every week has its own page; each month lists its weeks.", "groups": all],
                          path: "reports/index.html", title: "Reports")
    }

    func summary(_ p: Period) -> String {
        let c = counts(p.days)
        return "\(c.applied) applied, \(c.skipped) skipped, \(c.failed) failed, " + (c.crashes == 1 ? "1 crash" : "\(c.crashes) crashes")
    }
}
