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
        // Without a profile (an empty store), the start of today: pages show the clock only as the
        // local date (see `SiteClockView`), and so does the feed.
        let startDate = data.profile?.createdAt ?? index.today.start(in: options.calendar)
        var out = [ChangelogVersion(entry: nil, version: "1.0", start: startDate, end: index.versionSteps.first?.createdAt)]
        for (i, s) in index.versionSteps.enumerated() {
            out.append(ChangelogVersion(entry: s, version: s.version, start: s.createdAt,
                                        end: i + 1 < index.versionSteps.count ? index.versionSteps[i + 1].createdAt : nil))
        }
        return out
    }

    /// Indexes of the elements of `times` (sorted) in [start, end); end nil is open.
    static func slice(_ times: [Date], from start: Date, to end: Date?) -> Range<Int> {
        let lo = times.lowerBound(of: start) { $0 }, hi = end.map { e in times.lowerBound(of: e) { $0 } } ?? times.count
        return lo < hi ? lo..<hi : lo..<lo
    }

    /// For each outcome of `sorted` (by `dayInstant`, then id), the place in `versions` (as
    /// `changelogVersions` lists them) of the version it counts under. An applied fix counts by
    /// the rule that makes the versions: the 1st to 7th applied under v1.0 (the 7th made v1.1),
    /// the 8th to 14th under v1.1, and so on, the current version keeping the rest; so each
    /// finished version lists its 7 even when a clock set back put one fix's stamp before the
    /// version it came after. A skip or a failure counts under the version in effect when it was
    /// marked: after its start (from it, for the first version) and up to and with its end.
    static func versionPlaces(_ sorted: [FixCompletion], versions: [ChangelogVersion]) -> [Int] {
        guard !versions.isEmpty else { return [] }
        let starts = versions.dropFirst().map(\.start)
        var applied = 0
        return sorted.map { c in
            if c.outcome == .applied {
                defer { applied += 1 }
                return min(applied / Thresholds.fixesPerMinorVersion, versions.count - 1)
            }
            return starts.lowerBound(of: c.dayInstant) { $0 }
        }
    }

    /// A crash's or a reboot's line on the changelog, after its label (CRASH, REBOOT): its entry's
    /// description without the word the label already says ("CRASH 2026-11-14 Crash: need to be
    /// busy." read the word twice), the bug named as every page names it; "Reboot after 6 crashes."
    /// is "After 6 crashes.". A description that does not start so (an import's own) is shown as it is.
    /// A reboot after one crash was stored as "Reboot." (a reboot closes one crash at least) and
    /// had no line; it is "After 1 crash.", as one is stored now. A crash logged with no bug (no
    /// primary bug to name) is stored as "Crash." and says so.
    static func eventText(_ e: VersionEntry) -> String {
        let word = e.changeType == .crash ? "Crash" : "Reboot"
        var rest = Substring(e.description)
        if rest == word + "." { return e.changeType == .reboot ? "After 1 crash." : "No bug named." }
        if rest.hasPrefix(word + ": ") {
            rest = rest.dropFirst(word.count + 2)
        } else if rest.hasPrefix(word + " after ") {
            rest = rest.dropFirst(word.count + 1)
        } else {
            return e.description
        }
        guard let first = rest.first else { return e.description }
        return first.uppercased() + rest.dropFirst()
    }

    /// A version's line on the changelog and its feed. An entry made before this wording was
    /// stored as "7 more fixes applied." (read as seven to go, beside "7 more applied fixes to
    /// v1.2"), and reads as one made now does: "7 fixes applied since v1.0.".
    static func versionText(_ e: VersionEntry?) -> String {
        guard let e else { return "First run. Known issues: all of them." }
        let n = Thresholds.fixesPerMinorVersion
        guard e.changeType == .minorUpdate, e.description == "\(n) more fixes applied.", let v = Version(e.version), v.minor > 0 else {
            return e.description
        }
        return "\(n) fixes applied since v\(Version(major: v.major, minor: v.minor - 1))."
    }

    func changelog() throws -> Data {
        let path = "changelog/index.html"
        let all = changelogVersions
        let applied = RecordOrder.sorted(data.completions, keep: { $0.deletedAt == nil && $0.outcome == .applied }, at: \.dayInstant, id: { $0.id })
        var appliedUnder = [[FixCompletion]](repeating: [], count: all.count)
        for (c, place) in zip(applied, PageContext.versionPlaces(applied, versions: all)) { appliedUnder[place].append(c) }
        let others = RecordOrder.sorted(data.versions, keep: { $0.deletedAt == nil && ($0.changeType == .crash || $0.changeType == .reboot) },
                                        at: { $0.createdAt }, id: { $0.id })
        let otherTimes = others.map(\.createdAt)
        // The version each one's fixes made or are making: the next entry's, or, for the current
        // one, the next by the count ("applied under v3.9: 2 fixes" under "7 fixes applied since v3.8."
        // read as a contradiction; the 7 were under v3.8, making v3.9).
        var making: [String: String] = [:]
        for (i, v) in all.enumerated() {
            making[v.version] = i + 1 < all.count ? all[i + 1].version
                : VersionRules.version(forAppliedCount: applied.count).next.version.description
        }
        let versions = try zip(all, appliedUnder).reversed().map { v, under -> TemplateValue in
            let fixes = under.map { c -> TemplateValue in
                let facts = index.fixFacts[c.fixId], f = facts?.fix
                return ["label": .text(f?.label ?? "FIX"), "bugSlug": .text(facts?.bugSlug ?? FixFacts.noBugSlug),
                        "bugTitle": .text(facts?.bugTitle ?? FixFacts.noBugTitle),
                        "date": .text(index.recorded.day(of: c).description), "prompt": .text(f?.prompt ?? "")]
            }
            let events = others[PageContext.slice(otherTimes, from: v.start, to: v.end)].map { e -> TemplateValue in
                let day = e.changeType == .crash ? index.recorded.day(e.createdAt, madeWith: .crashLogged, token: e.syncToken)
                    : rebootDay(e.createdAt, token: e.syncToken)
                return ["kind": .text(e.changeType == .crash ? "crash" : "opened"), "kindText": .text(e.changeType.rawValue),
                        "date": .text(day.description), "text": .text(PageContext.eventText(e))]
            }
            let changeType = v.entry?.changeType == .majorUpdate ? "major update" : (v.entry == nil ? "initial release" : "minor update")
            return [
                "anchor": .text(v.version.replacingOccurrences(of: ".", with: "-")), "version": .text(v.version),
                "date": .text(startDay(of: v).description), "changeType": .text(changeType),
                "description": .text(PageContext.versionText(v.entry)),
                "note": .html(try versionNotes[v.version].map { try markdown($0.markdown, name: $0.source) }),
                "events": .list(events), "fixes": .list(fixes), "hasFixes": .bool(!fixes.isEmpty),
                // What was applied while this was the version (its description says what made it).
                "fixCount": .text("applied under v\(v.version), \(v.end == nil ? "toward" : "making") v\(making[v.version] ?? "?"): "
                                  + (fixes.count == 1 ? "1 fix" : "\(fixes.count) fixes")),
            ]
        }
        // The help block goes first when a version's note reads like a crisis, as on a week page.
        let crisis = changelogVersions.contains { versionNotes[$0.version].map { CrisisLanguage.detect($0.markdown) } ?? false }
        return try render("changelog", ["versions": .list(versions)], path: path, title: "Changelog", crisis: crisis)
    }

    func feed() throws -> String {
        let entries = try changelogVersions.reversed().prefix(50).map { v -> AtomEntry in
            // No image from another site: a feed reader applies no CSP.
            let note = try versionNotes[v.version].map { try Markdown.html($0.markdown, name: $0.source) }
            // The first version has no version entry of its own: its id is named after the profile
            // (the feed's id) and the version, so it differs from the feed's and stays the same.
            let id = v.entry?.id ?? NameUUID.v5(name: "egofix:changelog:\(data.profile?.id.uuidString.lowercased() ?? "-"):v\(v.version)")
            return AtomEntry(id: id, title: "v\(v.version)", path: "changelog/index.html#v-" + v.version.replacingOccurrences(of: ".", with: "-"),
                             updated: v.start, published: v.start, summary: PageContext.versionText(v.entry), content: note)
        }
        let updated = index.versionSteps.last?.createdAt ?? data.profile?.createdAt ?? index.today.start(in: options.calendar)
        return AtomFeed.render(entries: Array(entries), title: "Changelog | \(options.title)", baseURL: options.baseURL, updated: updated,
                               feedPath: "changelog/feed.xml", pagePath: "changelog/index.html", id: data.profile?.id)
    }

    // MARK: history

    func history() throws -> Data {
        let path = "history/index.html"
        let all = data.completions.filter { $0.deletedAt == nil }
        func rate(_ a: Int, _ total: Int) -> String { total == 0 ? "-" : "\(Int((Double(a) * 100 / Double(total)).rounded()))%" }
        struct Tally { var assigned = 0, applied = 0, skipped = 0, failed = 0 }
        // Counts by the bug's place in `index.bugs` (completions of fixes without a live bug are not counted).
        func tally<S: Sequence>(_ completions: S) -> [Tally] where S.Element == (FixCompletion, Int?) {
            var out = [Tally](repeating: Tally(), count: index.bugs.count)
            for case let (c, i?) in completions {
                out[i].assigned += 1
                if c.outcome == .applied { out[i].applied += 1 } else if c.outcome == .skipped { out[i].skipped += 1 } else if c.outcome == .failed { out[i].failed += 1 }
            }
            return out
        }
        let byTime = all.sorted { $0.dayInstant != $1.dayInstant ? $0.dayInstant < $1.dayInstant : $0.id.sortsBefore($1.id) }.map { c in (c, index.fixFacts[c.fixId]?.bugIndex) }
        let overall = tally(byTime)
        let byBug = index.bugs.indices.compactMap { i -> TemplateValue? in
            let bug = index.bugs[i], t = overall[i]
            guard t.assigned > 0 else { return nil }
            return ["slug": .text(bug.slug), "title": .text(bug.title), "assigned": .text(String(t.assigned)), "applied": .text(String(t.applied)),
                    "skipped": .text(String(t.skipped)), "failed": .text(String(t.failed)), "rate": .text(rate(t.applied, t.applied + t.skipped + t.failed))]
        }
        let versions = changelogVersions
        var under = [[(FixCompletion, Int?)]](repeating: [], count: versions.count)
        for (outcome, place) in zip(byTime, PageContext.versionPlaces(byTime.map(\.0), versions: versions)) { under[place].append(outcome) }
        let byVersion = zip(versions, under).reversed().compactMap { v, outcomes -> TemplateValue? in
            guard !outcomes.isEmpty else { return nil }
            let counts = tally(outcomes)
            let rows = index.bugs.indices.compactMap { i -> TemplateValue? in
                let bug = index.bugs[i], t = counts[i]
                guard t.assigned > 0 else { return nil }
                return ["slug": .text(bug.slug), "title": .text(bug.title), "applied": .text(String(t.applied)), "skipped": .text(String(t.skipped)),
                        "failed": .text(String(t.failed)), "rate": .text(rate(t.applied, t.applied + t.skipped + t.failed))]
            }
            let end = v.end.map { index.recorded.day($0).description } ?? "now"
            return ["version": .text(v.version), "range": .text("\(startDay(of: v)) to \(end)"), "rows": .list(rows)]
        }
        let years = Period.all(.year, from: index.first, through: index.last).reversed().map { y -> TemplateValue in
            let from = max(y.start, index.first.isoWeekStart), through = min(y.end, index.last)
            let cells = index.graphCells(from: from, through: through)
            return ["year": .text(y.title),
                    "graph": .html(ContributionGraphSVG.html(cells, from: from, through: through, title: y.title)),
                    "table": .html(ContributionGraphTable.html(cells, from: from, through: through, title: "\(y.title)"))]
        }
        let c = counts(from: index.first, through: index.last)
        return try render("history", ["counts": countsModel(c, previous: nil), "byBug": .list(byBug), "byVersion": .list(byVersion), "years": .list(years)],
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

    /// The page of `index.bugs[place]`.
    func bugPage(_ place: Int) throws -> Data {
        let bug = index.bugs[place]
        let path = "bugs/\(bug.slug)/index.html"
        let mine = index.completionsByBug[place]
            .sorted { $0.dayInstant != $1.dayInstant ? $0.dayInstant > $1.dayInstant : $1.id.sortsBefore($0.id) }
        let crashes = data.crashes.filter { $0.deletedAt == nil && $0.bugId == bug.id }
            .sorted { $0.crashedAt != $1.crashedAt ? $0.crashedAt > $1.crashedAt : $1.id.sortsBefore($0.id) }
        var life = "Status: \(bug.stateWords)"
        if let a = bug.activatedAt {
            // A regression restarts the active period; the first activation stays worth saying.
            if !bug.isActive {
                life += ". First active \(index.recorded.day(a))"
            } else if bug.status == .active, let r = bug.regressedAt, r > a {
                life += ". Back to active \(index.recorded.day(r)), a regression; first active \(index.recorded.day(a))"
            } else {
                life += ". Active since \(index.recorded.day(a))"
            }
        }
        if let s = bug.stableSince { life += ". Stable since \(index.recorded.day(s)); retested every \(Thresholds.retestIntervalDays) days" }
        if let r = bug.resolvedAt { life += ". Resolved \(index.recorded.day(r)). It can still regress" }
        life += "."
        var a = 0, s = 0, f = 0
        for c in mine {
            if c.outcome == .applied { a += 1 } else if c.outcome == .skipped { s += 1 } else if c.outcome == .failed { f += 1 }
        }
        let counts: TemplateValue = [["label": "assigned", "value": .text(String(mine.count)), "delta": .null],
                                 ["label": "applied", "value": .text(String(a)), "delta": .null],
                                 ["label": "skipped", "value": .text(String(s)), "delta": .null],
                                 ["label": "failed", "value": .text(String(f)), "delta": .null],
                                 ["label": "crashes", "value": .text(String(crashes.count)), "delta": .null]]
        let crashModels = try crashes.prefix(60).map { c -> TemplateValue in
            let d = index.recorded.day(of: c), at = time(c.crashedAt, on: d)
            var note: TemplateValue = .null
            if c.note != nil, let r = crashNotes[c.id] { note = .html(try r.get()) }
            return ["date": .text(at.isEmpty ? d.description : "\(d) \(at)"),
                    "rebooted": .text(c.rebootedAt.map { rebootDay($0).description }),
                    "note": note]
        }
        let page: TemplateObject = [
            "slug": .text(bug.slug), "soul": .html(soul(bug)), "description": .text(bug.description), "lifecycle": .text(life), "counts": counts,
            "fixes": .list(try mine.prefix(60).map { try fixModel($0, showDate: true) }), "crashes": .list(crashModels),
            // The lists stop at 60, and say so: the rest are on their weeks' pages.
            "fixesMore": .text(mine.count > 60 ? "The latest 60 of \(mine.count). The rest are on their weeks' pages, under reports." : nil),
            "crashesMore": .text(crashes.count > 60 ? "The latest 60 of \(crashes.count). The rest are on their weeks' pages, under reports." : nil),
        ]
        // The help block goes first on this page too when a reflection or note it shows reads like a crisis.
        let crisis = mine.prefix(60).contains { $0.reflection.map(CrisisLanguage.detect) == true }
            || crashes.prefix(60).contains { $0.note.map(CrisisLanguage.detect) == true }
        return try render("bug", page, path: path, title: bug.title, crisis: crisis)
    }

    // MARK: patterns

    func patterns() throws -> Data {
        // Dismissed ones last, as `egofix patterns` lists them, and marked (they came first, unmarked).
        let list = PatternSurfacing.page(patternRun.patterns, history: data.patterns).map { l -> TemplateValue in
            var row = patternRow(l.pattern)
            row.dismissed = l.dismissed
            return row.value
        }
        let waiting = patternRun.statuses.filter { !$0.isReady }.map { ["text": .text($0.line)] as TemplateValue }
        return try render("patterns", ["patterns": .list(list), "waiting": .list(waiting)], path: "patterns/index.html", title: "Patterns")
    }

    // MARK: how the numbers work

    func how() throws -> Data {
        let T = Thresholds.self
        let sections: [(String, [String])] = [
            ("Version", ["A new practice is v1.0.",
                         "Every \(T.fixesPerMinorVersion) applied fixes bump the minor number: 1.0 to 1.1.",
                         "After 1.\(T.minorVersionsPerMajor - 1) comes \(2).0, a major update.",
                         "Skipped and failed fixes do not count. Crashes and reboots are logged under the current number and do not change it."]),
            ("Streak", ["A day counts when you open a fix, mark an outcome, log a crash or complete a diagnostic.",
                        "A missed day resets the streak to 0, silently, unless this week's freeze is unused; then the freeze covers that one day.",
                        "A day the calendar skips between two places (flying east over the date line) is not a missed day.",
                        "A freeze is used only when it keeps the streak: two missed days in one freeze week end it, and the freeze stays unused.",
                        "\(PatternCopy.sentence(Plural.inWords(T.streakFreezesPerWeek, "freeze", "freezes"))) a week; freeze weeks start on Sunday.",
                        "The longest streak is kept. The number means nothing about your growth."]),
            ("Daily fix", ["One fix per local day, the same one all day.",
                           "Severity follows how long the bug has been active: low before day \(T.mediumSeverityAfterDays), medium from day \(T.mediumSeverityAfterDays), high from day \(T.highSeverityAfterDays).",
                           "On Mondays, after \(T.weeklyOverhaulAfterDays) days active, a weekly system overhaul instead, of that severity or lower.",
                           "Never a fix already applied while unseen ones are left. A skipped fix waits \(T.skippedCooldownDays) days; a failed one \(T.failedCooldownDays) days.",
                           "Active bugs take turns. When no active bug has an unseen fix, a rerun: a fix applied at least \(T.rerunAfterDays) days ago, the longest ago first, marked as a rerun.",
                           "When a bug is down to \(T.unseenFixesLowWarning) unseen fixes, the day's card says so once.",
                           "A rest day only when nothing at all is eligible.",
                           "A bug activated again restarts at low severity: its days active count from the latest activation."]),
            ("Crash and reboot", ["A crash names a bug (your primary bug if none) and queues a quick fix for that bug, shown before the day's fix; the day's fix still comes.",
                                  "A quick fix left unmarked for \(T.quickFixExpiryDays) days expires and shows as expired in the history.",
                                  "A reboot closes every open crash. Neither changes the version."]),
            ("Bug lifecycle", ["identified > active > stable > resolved, and back to active on a regression. A bug never activated is listed as inactive.",
                               "Stable: active at least \(T.stableMinimumActiveDays) days, the last \(T.stableQuietWeeks) diagnostics said quiet, no crash about it for \(T.stableCrashFreeDays) days. A regression, or activating it again, starts the active days and the ratings that count afresh.",
                               "Resolved: stable for \(T.resolvedAfterStableDays) days with no crash, and no present or loud rating in the last \(T.resolvedAfterStableDays) days.",
                               "Regression: a crash, a loud rating or a failed retest. Stable bugs are retested every \(T.retestIntervalDays) days."]),
            ("Weekly diagnostic", ["Open from Sunday \(T.diagnosticOpensSundayHour):00 through Monday, in your time zone.",
                                   "At most \(T.diagnosticMaxBugs) bugs, the least recently asked first. Skipping records nothing."]),
            ("Reminders", PageContext.reminderRules),
            ("Patterns", ["Avoidance: more than \(Int(Thresholds.avoidanceSkipShare * 100))% of a bug's fixes skipped, at least \(Thresholds.avoidanceMinimumSkips) skips.",
                          "Temporal: more than \(Int(Thresholds.temporalWeekdayShare * 100))% of crashes on one weekday, or more than \(Int(Thresholds.temporalTimeShare * 100))% in one time of day, at least \(Thresholds.temporalWeekdayMinimumCrashes) crashes.",
                          "Context: more than \(Int(Thresholds.contextLoudShare * 100))% of loud ratings in one context, at least \(Thresholds.contextMinimumLoud).",
                          "Correlated bugs: Pearson r above \(Thresholds.correlationMinimumR) over at least \(Thresholds.correlationMinimumWeeks) weeks.",
                          "Plateau: \(Thresholds.plateauMinimumWeeks)+ weeks present or loud despite \(Thresholds.plateauMinimumFixesApplied)+ fixes applied.",
                          "Improvement: a downward trend ending in quiet over \(Thresholds.improvementMinimumWeeks)+ weeks. Regression: a stable bug back.",
                          "Each pattern carries p: the chance that data with no real pattern looks at least this strong, corrected for the number of things checked (the smaller, the surer). It sets the severity: observation, insight or alert.",
                          "At most one pattern a day, whichever command shows it; the same type not within \(Thresholds.patternCooldownDays) days. Alerts come before the daily fix, insights after an outcome, observations only on the patterns page."]),
            ("The graph", ["Color is the outcome: applied green, skipped yellow, failed orange, crash red; no outcome (opened, a diagnostic or a reboot at most) a gray outline; nothing, empty.",
                           "A day with several outcomes shows the heaviest: crash, failed, applied, skipped, opened.",
                           "Shade is depth: the severity of a fix applied or failed (low, medium, high; a skipped fix's severity does not count), plus a reflection; a crash is darker with a note. A second crash on the same day does not change the shade."]),
            ("Privacy", ["Everything comes from one local SQLite file. Nothing is sent anywhere.",
                         "Pages outside share/ are private. share/ holds only catalogue text: the fix, its comment and its bug's name (together, the cards show which bugs you work on), never a streak, version, date, outcome or reflection."]),
        ]
        let model = sections.map { ["title": .text($0.0), "rules": .list($0.1.map { .text($0) })] as TemplateValue }
        return try render("how", ["sections": .list(model)], path: "how/index.html", title: "How the numbers work")
    }

    // MARK: assets, feed, share

    /// The theme's files (the stylesheet with a colour per bug) and the changelog feed.
    func extraPlan(assets: AssetSet) -> [FilePlan] {
        var out: [FilePlan] = []
        for f in assets.files where f.path != "share.css" && f.path != "share/share.css" {
            if f.path == "style.css" {
                out.append(FilePlan(path: "style.css") { ctx in
                    var css = String(decoding: f.data, as: UTF8.self)
                    // After the stylesheet, but under `:where()`, which counts for nothing: a rule of
                    // the workspace's own Assets/style.css for a bug's class wins wherever it stands
                    // (a plain `.bug-x` here came later and so beat it, without a word).
                    css += "\n/* one colour per bug (generated from the catalogue; a .bug-SLUG rule of your own wins) */\n"
                    // (A slug of another shape, from a store an older egofix imported, would close the rule.)
                    for b in ctx.index.bugs where NameShape.isHexColor(b.color) && NameShape.isSlug(b.slug) {
                        css += ":where(.bug-\(b.slug)) { --bug: \(b.color); }\n"
                    }
                    css += ContributionGraphSVG.scrollRules()
                    return Data(css.utf8)
                })
            } else {
                out.append(FilePlan(path: f.path) { _ in f.data })
            }
        }
        out.append(FilePlan(path: "changelog/feed.xml") { Data(try $0.feed().utf8) })
        out.append(FilePlan(path: "reminders.ics") { $0.remindersCalendar() })
        return out
    }

    /// The shared fixes' cards: the fixShared events' fixes, by number. Catalogue text only.
    func shareCards() throws -> [ShareCard] {
        try data.sharedFixIds.compactMap { id -> ShareCard? in
            guard let fix = index.fixesById[id], let bug = index.bugsById[fix.bugId] else { return nil }
            return try ShareCard(fix: fix, bug: bug)
        }.sorted { $0.number < $1.number }
    }

    /// Shared fixes as pages and SVG cards, and an index (the PNG cards are drawn on their own).
    func sharePlan(assets: AssetSet, cards: [ShareCard]) -> [FilePlan] {
        var out: [FilePlan] = []
        // The share folder's stylesheet: Assets/share.css, or Assets/share/share.css, where it is
        // published (both named it twice: "site file 'share/share.css' was produced twice").
        if let css = assets.file("share/share.css") ?? assets.file("share.css") {
            out.append(FilePlan(path: "share/share.css") { _ in css.data })
        }
        for card in cards {
            out.append(FilePlan(path: "share/\(card.slug)/index.html") { ctx in
                let base = ctx.options.baseURL.map { $0 + "share/\(card.slug)/" }
                let prompt = card.prompt
                let short = prompt.count > 60 ? String(prompt.prefix(57)) + "..." : prompt
                let page: TemplateObject = [
                    "label": .text(card.label), "prompt": .text(prompt), "promptShort": .text(short), "comment": .text(card.inlineComment),
                    "commentLines": FixRow.lines(card.inlineComment), "bugTitle": .text(card.bugTitle),
                    "imageURL": .text((base ?? "") + "card.png"), "pageURL": .text(base),
                ]
                return try ctx.templates.renderBytes("share/page", page)
            })
            out.append(FilePlan(path: "share/\(card.slug)/card.svg") { _ in Data(ShareCardSVG.render(card).utf8) })
        }
        out.append(FilePlan(path: "share/index.html") { ctx in
            let list: TemplateObject = ["cards": .list(cards.map { ["slug": .text($0.slug), "label": .text($0.label), "prompt": .text($0.prompt)] })]
            return try ctx.templates.renderBytes("share/index", list)
        })
        return out
    }
}
