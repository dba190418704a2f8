import EgoFixCore
import Foundation

extension PageContext {
    // MARK: changelog

    struct ChangelogVersion {
        let entry: VersionEntry?       // nil for v1.0 (the start)
        let version: String
        let start: Date
        let end: Date?
    }

    var changelogVersions: [ChangelogVersion] {
        let startDate = data.profile?.createdAt ?? options.now
        var out = [ChangelogVersion(entry: nil, version: "1.0", start: startDate, end: index.versionSteps.first?.createdAt)]
        for (i, s) in index.versionSteps.enumerated() {
            out.append(ChangelogVersion(entry: s, version: s.version, start: s.createdAt,
                                        end: i + 1 < index.versionSteps.count ? index.versionSteps[i + 1].createdAt : nil))
        }
        return out
    }

    func changelog() throws -> String {
        let path = "changelog/index.html"
        let applied = data.completions.filter { $0.deletedAt == nil && $0.outcome == .applied }
            .sorted { (($0.completedAt ?? $0.assignedAt), $0.id.uuidString) < (($1.completedAt ?? $1.assignedAt), $1.id.uuidString) }
        let others = data.versions.filter { $0.deletedAt == nil && ($0.changeType == .crash || $0.changeType == .reboot) }
            .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
        let versions = try changelogVersions.reversed().map { v -> [String: Any] in
            let inRange: (Date) -> Bool = { t in t >= v.start && (v.end.map { t < $0 } ?? true) }
            let fixes = applied.filter { inRange($0.completedAt ?? $0.assignedAt) }.map { c -> [String: Any] in
                let f = index.fixesById[c.fixId]
                return ["label": f?.label ?? "FIX", "bugSlug": bugSlug(f?.bugId), "bugTitle": bugTitle(f?.bugId),
                        "date": LocalDay(c.completedAt ?? c.assignedAt, calendar: options.calendar).description, "prompt": f?.prompt ?? ""]
            }
            let events = others.filter { inRange($0.createdAt) }.map { e -> [String: Any] in
                ["kind": e.changeType == .crash ? "crash" : "opened", "kindText": e.changeType.rawValue,
                 "date": LocalDay(e.createdAt, calendar: options.calendar).description, "text": e.description]
            }
            let changeType = v.entry?.changeType == .majorUpdate ? "major update" : (v.entry == nil ? "initial release" : "minor update")
            return [
                "anchor": v.version.replacingOccurrences(of: ".", with: "-"), "version": v.version,
                "date": LocalDay(v.start, calendar: options.calendar).description, "changeType": changeType,
                "description": v.entry?.description ?? "First run. Known issues: all of them.",
                "note": try versionNotes[v.version].map { try markdown($0.markdown, name: $0.source) } ?? NSNull(),
                "events": events, "fixes": fixes, "hasFixes": !fixes.isEmpty,
                "fixCount": fixes.count == 1 ? "1 fix applied" : "\(fixes.count) fixes applied",
            ]
        }
        return try render("changelog", ["versions": versions], path: path, title: "Changelog")
    }

    func feed() throws -> String {
        let entries = try changelogVersions.reversed().prefix(50).map { v -> AtomEntry in
            let note = try versionNotes[v.version].map { try markdown($0.markdown, name: $0.source) }
            let id = v.entry?.id ?? data.profile?.id ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            return AtomEntry(id: id, title: "v\(v.version)", path: "changelog/index.html#v-" + v.version.replacingOccurrences(of: ".", with: "-"),
                             updated: v.start, published: v.start, summary: v.entry?.description ?? "First run.", content: note)
        }
        let updated = index.versionSteps.last?.createdAt ?? data.profile?.createdAt ?? options.now
        return AtomFeed.render(entries: Array(entries), title: "\(options.title): changelog", baseURL: options.baseURL, updated: updated,
                               feedPath: "changelog/feed.xml", pagePath: "changelog/index.html", id: data.profile?.id)
    }

    // MARK: history

    func history() throws -> String {
        let path = "history/index.html"
        let all = data.completions.filter { $0.deletedAt == nil }
        func rate(_ a: Int, _ total: Int) -> String { total == 0 ? "-" : "\(Int((Double(a) * 100 / Double(total)).rounded()))%" }
        let byBug = index.bugs.compactMap { bug -> [String: Any]? in
            let mine = all.filter { index.fixesById[$0.fixId]?.bugId == bug.id }
            guard !mine.isEmpty else { return nil }
            let a = mine.filter { $0.outcome == .applied }.count, s = mine.filter { $0.outcome == .skipped }.count
            let f = mine.filter { $0.outcome == .failed }.count
            return ["slug": bug.slug, "title": bug.title, "assigned": String(mine.count), "applied": String(a),
                    "skipped": String(s), "failed": String(f), "rate": rate(a, a + s + f)]
        }
        let byVersion = changelogVersions.reversed().compactMap { v -> [String: Any]? in
            let mine = all.filter { c in
                let t = c.completedAt ?? c.assignedAt
                return t >= v.start && (v.end.map { t < $0 } ?? true)
            }
            guard !mine.isEmpty else { return nil }
            let rows = index.bugs.compactMap { bug -> [String: Any]? in
                let b = mine.filter { index.fixesById[$0.fixId]?.bugId == bug.id }
                guard !b.isEmpty else { return nil }
                let a = b.filter { $0.outcome == .applied }.count, s = b.filter { $0.outcome == .skipped }.count
                let f = b.filter { $0.outcome == .failed }.count
                return ["slug": bug.slug, "title": bug.title, "applied": String(a), "skipped": String(s), "failed": String(f), "rate": rate(a, a + s + f)]
            }
            let end = v.end.map { LocalDay($0, calendar: options.calendar).description } ?? "now"
            return ["version": v.version, "range": "\(LocalDay(v.start, calendar: options.calendar)) to \(end)", "rows": rows]
        }
        let years = Period.all(.year, from: index.first, through: index.last).reversed().map { y -> [String: Any] in
            let from = max(y.start, index.first.isoWeekStart), through = min(y.end, index.last)
            let cells = index.graphCells(from: from, through: through)
            return ["year": y.title,
                    "graph": ContributionGraphSVG.html(cells, from: from, through: through, title: y.title),
                    "table": ContributionGraphTable.html(cells, from: from, through: through, title: "\(y.title)")]
        }
        let c = counts(Period(kind: .year, start: index.first, end: index.last).days)
        return try render("history", ["counts": countsModel(c, previous: nil), "byBug": byBug, "byVersion": byVersion, "years": years],
                          path: path, title: "History and stats")
    }

    // MARK: bug pages

    static let souls: [String: [String]] = [
        "need-to-be-right": ["  .-------.", " | >     < |   actually,", " |   ___   |", "  '-------'   _"],
        "need-to-be-liked": ["  .-------.", " | ^     ^ |   is this ok?", " |  \\___/  |", "  '-------'   _"],
        "need-to-impress": ["  .-------.", " | *     * |   as I was saying", " |   ---   |   at my last job", "  '-------'   _"],
        "need-to-be-busy": ["  .-------.", " | @     @ |   can't talk,", " |   ___   |   slammed", "  '-------'   _"],
        "fear-of-ordinary": ["  .-------.", " | o     o |   not like", " |   ~~~   |   the others", "  '-------'   _"],
    ]

    func soul(_ bug: Bug) -> RawHTML {
        let lines = PageContext.souls[bug.slug] ?? ["  .-------.", " | -     - |", " |   ___   |", "  '-------'   _"]
        var html = lines.dropLast().map { HTMLEscape.escape($0) }.joined(separator: "\n")
        let last = lines.last ?? ""
        html += "\n" + HTMLEscape.escape(String(last.dropLast())) + "<span class=\"blink\">_</span>"
        return RawHTML(trusted: html)
    }

    func bugPage(_ bug: Bug) throws -> String {
        let path = "bugs/\(bug.slug)/index.html"
        let mine = data.completions.filter { $0.deletedAt == nil && index.fixesById[$0.fixId]?.bugId == bug.id }
            .sorted { ($0.assignedAt, $0.id.uuidString) > ($1.assignedAt, $1.id.uuidString) }
        let crashes = data.crashes.filter { $0.deletedAt == nil && $0.bugId == bug.id }
            .sorted { ($0.crashedAt, $0.id.uuidString) > ($1.crashedAt, $1.id.uuidString) }
        var life = "Status: \(bug.status.rawValue)" + (bug.isActive ? "" : ", not active")
        if let a = bug.activatedAt { life += ". Active since \(LocalDay(a, calendar: options.calendar))" }
        if let s = bug.stableSince { life += ". Stable since \(LocalDay(s, calendar: options.calendar)); retested every \(Thresholds.retestIntervalDays) days" }
        if let r = bug.resolvedAt { life += ". Resolved \(LocalDay(r, calendar: options.calendar)). It can still regress" }
        life += "."
        let a = mine.filter { $0.outcome == .applied }.count, s = mine.filter { $0.outcome == .skipped }.count
        let f = mine.filter { $0.outcome == .failed }.count
        let counts: [[String: Any]] = [["label": "assigned", "value": String(mine.count), "delta": NSNull()],
                                       ["label": "applied", "value": String(a), "delta": NSNull()],
                                       ["label": "skipped", "value": String(s), "delta": NSNull()],
                                       ["label": "failed", "value": String(f), "delta": NSNull()],
                                       ["label": "crashes", "value": String(crashes.count), "delta": NSNull()]]
        let crashModels = try crashes.prefix(60).map { c -> [String: Any] in
            let d = LocalDay(c.crashedAt, calendar: options.calendar)
            return ["date": "\(d) \(time(c.crashedAt))",
                    "rebooted": c.rebootedAt.map { LocalDay($0, calendar: options.calendar).description } ?? NSNull(),
                    "note": try c.note.map { try markdown($0, name: "crash note of \(d) \(time(c.crashedAt))") } ?? NSNull()]
        }
        let page: [String: Any] = [
            "slug": bug.slug, "soul": soul(bug), "description": bug.description, "lifecycle": life, "counts": counts,
            "fixes": try mine.prefix(60).map { try fixModel($0, showDate: true) }, "crashes": crashModels,
        ]
        return try render("bug", page, path: path, title: bug.title)
    }

    // MARK: patterns

    func patterns() throws -> String {
        let list = patternRun.patterns.sorted(by: PatternEngine.order).map(patternModel)
        let waiting = patternRun.statuses.filter { !$0.isReady }.map { ["text": $0.line] as [String: Any] }
        return try render("patterns", ["patterns": list, "waiting": waiting], path: "patterns/index.html", title: "Patterns")
    }

    // MARK: how the numbers work

    func how() throws -> String {
        let T = Thresholds.self
        let sections: [(String, [String])] = [
            ("Version", ["A new profile is v1.0.",
                         "Every \(T.fixesPerMinorVersion) applied fixes bump the minor number: 1.0 to 1.1.",
                         "After 1.\(T.minorVersionsPerMajor - 1) comes \(2).0, a major update.",
                         "Skipped and failed fixes do not count. Crashes and reboots are logged under the current number and do not change it."]),
            ("Streak", ["A day counts when you open a fix, mark an outcome, log a crash or complete a diagnostic.",
                        "A missed day resets the streak to 0, silently, unless this week's freeze is unused; then the freeze covers the day.",
                        "There are \(T.streakFreezesPerWeek) freeze per week; freeze weeks start on Sunday.",
                        "The longest streak is kept. The number means nothing about your growth."]),
            ("Daily fix", ["One fix per local day, the same one all day.",
                           "Severity follows how long the bug has been active: low before day \(T.mediumSeverityAfterDays), medium from day \(T.mediumSeverityAfterDays), high from day \(T.highSeverityAfterDays).",
                           "On Mondays, after \(T.weeklyOverhaulAfterDays) days active, a weekly system overhaul instead.",
                           "Never a fix already applied. A skipped fix waits \(T.skippedCooldownDays) days; a failed one \(T.failedCooldownDays) days.",
                           "Active bugs take turns. When nothing fits, a rest day."]),
            ("Crash and reboot", ["A crash names a bug (your primary bug if none) and queues a quick fix, shown before the day's fix.",
                                  "A reboot closes every open crash. Neither changes the version."]),
            ("Bug lifecycle", ["identified > active > stable > resolved, and back to active on a regression.",
                               "Stable: active at least \(T.stableMinimumActiveDays) days, the last \(T.stableQuietWeeks) diagnostics said quiet, no crash about it for \(T.stableCrashFreeDays) days.",
                               "Resolved: stable for \(T.resolvedAfterStableDays) days with no crash and no present or loud rating.",
                               "Regression: a crash, a loud rating or a failed retest. Stable bugs are retested every \(T.retestIntervalDays) days."]),
            ("Weekly diagnostic", ["Open from Sunday \(T.diagnosticOpensSundayHour):00 through Monday, in your time zone.",
                                   "At most \(T.diagnosticMaxBugs) bugs, the least recently asked first. Skipping records nothing."]),
            ("Patterns", ["Avoidance: more than \(Int(Thresholds.avoidanceSkipShare * 100))% of a bug's fixes skipped, at least \(Thresholds.avoidanceMinimumSkips) skips.",
                          "Temporal: more than \(Int(Thresholds.temporalWeekdayShare * 100))% of crashes on one weekday, or more than \(Int(Thresholds.temporalTimeShare * 100))% in one time of day, at least \(Thresholds.temporalWeekdayMinimumCrashes) crashes.",
                          "Context: more than \(Int(Thresholds.contextLoudShare * 100))% of loud ratings in one context, at least \(Thresholds.contextMinimumLoud).",
                          "Correlated bugs: Pearson r above \(Thresholds.correlationMinimumR) over at least \(Thresholds.correlationMinimumWeeks) weeks.",
                          "Plateau: \(Thresholds.plateauMinimumWeeks)+ weeks present or loud despite \(Thresholds.plateauMinimumFixesApplied)+ fixes applied.",
                          "Improvement: a downward trend ending in quiet over \(Thresholds.improvementMinimumWeeks)+ weeks. Regression: a stable bug back.",
                          "Each pattern carries a confidence: the chance that data with no real pattern looks at least this strong, corrected for the number of things checked. It sets the severity: observation, insight or alert.",
                          "At most one pattern per session; the same type not within \(Thresholds.patternCooldownDays) days. Alerts come before the daily fix, insights after an outcome, observations only on the patterns page."]),
            ("The graph", ["Colour is the outcome: applied green, skipped yellow, failed orange, crash red, opened-only a grey outline, nothing empty.",
                           "A day with several outcomes shows the heaviest: crash, failed, applied, skipped, opened.",
                           "Shade is depth: severity (low, medium, high), plus a reflection; a crash is darker with a note and darker still with a second crash."]),
            ("Privacy", ["Everything comes from one local SQLite file. Nothing is sent anywhere.",
                         "Pages outside share/ are private. share/ holds only catalogue text: the fix and its comment, never a streak, version, date, outcome or reflection."]),
        ]
        let model = sections.map { ["title": $0.0, "rules": $0.1] as [String: Any] }
        return try render("how", ["sections": model], path: "how/index.html", title: "How the numbers work")
    }

    // MARK: assets, feed, share

    func extraFiles(assets: AssetSet) throws -> [(String, Data)] {
        var out: [(String, Data)] = []
        for f in assets.files where f.path != "share.css" {
            if f.path == "style.css" {
                var css = String(decoding: f.data, as: UTF8.self)
                css += "\n/* one colour per bug (generated from the catalogue) */\n"
                for b in index.bugs where b.color.range(of: SeedLint.colorPattern, options: .regularExpression) != nil {
                    css += ".bug-\(b.slug) { --bug: \(b.color); }\n"
                }
                out.append(("style.css", Data(css.utf8)))
            } else {
                out.append((f.path, f.data))
            }
        }
        out.append(("changelog/feed.xml", Data(try feed().utf8)))
        return out
    }

    /// Shared fixes: the fixShared events' fixes, as pages, SVG and PNG cards. Catalogue text only.
    func shareFiles(assets: AssetSet) throws -> [(String, Data)] {
        var ids: [UUID] = []
        for e in data.events where e.deletedAt == nil && e.eventType == .fixShared {
            if let f = e.fixId, !ids.contains(f) { ids.append(f) }
        }
        let cards = try ids.compactMap { id -> ShareCard? in
            guard let fix = index.fixesById[id], let bug = index.bugsById[fix.bugId] else { return nil }
            return try ShareCard(fix: fix, bug: bug)
        }.sorted { $0.number < $1.number }
        var out: [(String, Data)] = []
        if let css = assets.file("share.css") { out.append(("share/share.css", css.data)) }
        for card in cards {
            let base = options.baseURL.map { $0 + "share/\(card.slug)/" }
            let prompt = card.prompt
            let short = prompt.count > 60 ? String(prompt.prefix(57)) + "..." : prompt
            let page: [String: Any] = [
                "label": card.label, "prompt": prompt, "promptShort": short, "comment": card.inlineComment ?? NSNull(),
                "bugTitle": card.bugTitle, "imageURL": (base ?? "") + "card.png", "pageURL": base ?? NSNull(),
            ]
            out.append(("share/\(card.slug)/index.html", Data(try templates.render("share/page", page).utf8)))
            out.append(("share/\(card.slug)/card.svg", Data(ShareCardSVG.render(card).utf8)))
            out.append(("share/\(card.slug)/card.png", try ShareCardPNG.render(card)))
        }
        let list: [String: Any] = ["cards": cards.map { ["slug": $0.slug, "label": $0.label, "prompt": $0.prompt] as [String: Any] }]
        out.append(("share/index.html", Data(try templates.render("share/index", list).utf8)))
        return out
    }
}
