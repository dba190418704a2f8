import EgoFixCore
import Foundation

/// Shared state for one build: the index, the options, the user's Markdown (each document
/// rendered once) and the per-day facts the pages read. Nothing in it changes after `init`, so
/// pages render on several threads at once.
final class PageContext: Sendable {
    let index: SiteIndex
    let data: Practice
    let content: SiteContent
    let options: SiteOptions
    let templates: TemplateSet
    let patternRun: PatternRun
    let weekNotes: [String: SiteContent.Document]
    let versionNotes: [String: SiteContent.Document]
    /// Reflections by completion and crash notes by crash, rendered once; an error is kept for
    /// the page that shows the text, so it reports the same page it always did.
    let reflections: [UUID: Result<RawHTML, Markdown.Error>]
    let crashNotes: [UUID: Result<RawHTML, Markdown.Error>]
    /// What each fix asks beyond its prompt, by fix.
    let fixDetails: [UUID: FixDetail]
    /// The pattern the dashboard surfaces: the strongest, alert > insight > observation.
    let surfacedPattern: DetectedPattern?
    /// Stored patterns with the local day they were detected on, in `data.patterns` order.
    let storedPatterns: [(day: LocalDay, pattern: DetectedPattern)]
    /// Days whose text reads like a crisis, oldest first.
    let crisisDays: [LocalDay]
    /// "Questions you asked yourself", per day (oldest first): reflections first, then crash notes.
    let questionsByDay: [(day: LocalDay, questions: [String])]
    let navItems: [(label: String, href: String)]
    /// The navigation list for each page that is itself in it, and for every other page.
    let navByCurrent: [String: TemplateValue]
    let navNone: TemplateValue
    let footerLine: String
    let currentWeek: Period
    /// The week whose diagnostic is open now (Sunday 18:00 through Monday), else nil.
    let openDiagnosticWeek: LocalDay?
    /// Per bug and day, what was marked and crashed (the period pages' bug rows).
    let bugTallies: BugTallies
    /// Days with records after the site's last day (`SiteHorizon`), and the latest of them.
    let daysAhead: (count: Int, latest: LocalDay)?

    init(data all: Practice, content: SiteContent, options: SiteOptions, templates: TemplateSet) throws {
        // Records from a clock that ran ahead wait for their days (`SiteHorizon`).
        let (data, ahead) = SiteHorizon.clip(all, now: options.now, calendar: options.calendar)
        daysAhead = ahead
        self.data = data
        self.content = content
        self.options = options
        self.templates = templates
        // The detectors run on another core while the rest is read.
        let detection = Parallel.Background { () -> PatternRun in
            guard let user = data.profile else { return PatternRun(patterns: [], statuses: []) }
            let dc = DetectionContext(userId: user.id, now: options.now, calendar: options.calendar, bugs: data.bugs,
                                      fixes: data.fixes, completions: data.completions, crashes: data.crashes)
            return PatternEngine.run(events: data.events, diagnostics: data.diagnostics, context: dc)
        }
        // Crisis language and questions are read on another core as soon as the days' records are
        // sorted, while this one finishes the index and renders the Markdown.
        var crisisWork: Parallel.Background<([LocalDay], [(day: LocalDay, questions: [String])])>?
        let index = SiteIndex(data: data, calendar: options.calendar, now: options.now) { completions, crashes in
            crisisWork = Parallel.Background { PageContext.crisisAndQuestions(completionsByDay: completions, crashesByDay: crashes) }
        }
        self.index = index
        var wn: [String: SiteContent.Document] = [:]
        for d in content.weeks { wn[d.name] = d }
        weekNotes = wn
        var vn: [String: SiteContent.Document] = [:]
        for d in content.versions { vn[d.name] = d }
        versionNotes = vn
        currentWeek = Period.week(containing: index.today)
        openDiagnosticWeek = DiagnosticSchedule.reviewedWeek(now: options.now, calendar: options.calendar)
        bugTallies = BugTallies(index)

        // The user's Markdown: every reflection and crash note on some page, rendered once, in parallel.
        struct Job: Sendable {
            let id: UUID
            let text: String
            let name: String
            let isCrash: Bool
        }
        var jobs: [Job] = []
        var fixesUsed = Set<UUID>()
        for (day, list) in index.completionsByDay {
            for c in list {
                fixesUsed.insert(c.fixId)
                guard let text = c.reflection, !VisibleText.showsNothing(text) else { continue }
                let label = index.fixesById[c.fixId]?.label ?? "a fix"
                jobs.append(Job(id: c.id, text: text, name: "reflection of \(label) on \(day)", isCrash: false))
            }
        }
        for c in data.completions where c.deletedAt == nil { fixesUsed.insert(c.fixId) }
        for (day, list) in index.crashesByDay {
            for c in list {
                guard let text = c.note, !VisibleText.showsNothing(text) else { continue }
                jobs.append(Job(id: c.id, text: text, name: "crash note of \(day) \(index.clock.time(c.crashedAt))", isCrash: true))
            }
        }
        // A reflection's or note's "#" is an h4: on a week page they sit under the day's h3.
        let rendered = Parallel.map(jobs) { job in Result { try Markdown.html(job.text, name: job.name, headingsFrom: 4) }.mapError { e in
            (e as? Markdown.Error) ?? Markdown.Error.renderFailed(name: job.name)
        } }
        var refl: [UUID: Result<RawHTML, Markdown.Error>] = [:], notes: [UUID: Result<RawHTML, Markdown.Error>] = [:]
        for (job, result) in zip(jobs, rendered) {
            if job.isCrash { notes[job.id] = result } else { refl[job.id] = result }
        }
        reflections = refl
        crashNotes = notes
        // Each fix's configuration is decoded from its JSON once, on every core.
        let used = fixesUsed.compactMap { index.fixesById[$0] }
        var details: [UUID: FixDetail] = [:]
        for (fix, detail) in zip(used, Parallel.map(used, PageContext.interactionDetail)) {
            if let detail { details[fix.id] = detail }
        }
        fixDetails = details

        (crisisDays, questionsByDay) = crisisWork?.wait()
            ?? PageContext.crisisAndQuestions(completionsByDay: index.completionsByDay, crashesByDay: index.crashesByDay)

        var items: [(String, String)] = [("dashboard", "index.html"), ("this week", currentWeek.path),
                                         ("reports", "reports/index.html"), ("changelog", "changelog/index.html"),
                                         ("history", "history/index.html"), ("patterns", "patterns/index.html"),
                                         ("how the numbers work", "how/index.html")]
        if content.pages.count > PageContext.navPageLimit {
            items.append(("pages", PageContext.pagesIndexPath))
        } else {
            for p in content.pages.sorted(by: { $0.name < $1.name }) { items.append((PageContext.pageLabel(p), "pages/\(p.name)/index.html")) }
        }
        navItems = items
        func nav(_ current: String?) -> TemplateValue {
            .list(items.map { ["label": .text($0.0), "href": .text($0.1), "current": .bool($0.1 == current)] })
        }
        var byCurrent: [String: TemplateValue] = [:]
        for (_, href) in items where byCurrent[href] == nil { byCurrent[href] = nav(href) }
        navByCurrent = byCurrent
        navNone = nav(nil)
        if let u = data.profile {
            footerLine = "v\(u.currentVersion) · as of \(index.today)"
        } else {
            footerLine = "No practice yet. `egofix init` starts one."
        }
        patternRun = detection.wait()
        // The dashboard and the week pages follow the surfacing rules that apply to a page:
        // no observation, nothing dismissed (`egofix patterns --dismiss TYPE` said so).
        let shows = PatternSurfacing.showsOnPages(history: data.patterns)
        storedPatterns = (options.patternsAreDetection ? patternRun.patterns : data.patterns).filter(shows)
            .map { (LocalDay($0.detectedAt, calendar: options.calendar), $0) }
        surfacedPattern = patternRun.patterns.filter(shows).sorted(by: PatternEngine.order).first
    }

    /// Days whose text reads like a crisis, and "questions you asked yourself" per day (reflections
    /// first, then crash notes), read once; both oldest day first.
    static func crisisAndQuestions(completionsByDay: [LocalDay: [FixCompletion]], crashesByDay: [LocalDay: [Crash]])
        -> ([LocalDay], [(day: LocalDay, questions: [String])]) {
        var crisis = Set<LocalDay>()
        var questions: [LocalDay: [String]] = [:]
        for (day, list) in completionsByDay {
            var qs: [String] = []
            for c in list {
                if let r = c.reflection, CrisisLanguage.detect(r) { crisis.insert(day) }
                qs += AskedQuestions.extract(from: c.reflection ?? "")
            }
            if !qs.isEmpty { questions[day] = qs }
        }
        for (day, list) in crashesByDay {
            var qs: [String] = []
            for c in list {
                if let n = c.note, CrisisLanguage.detect(n) { crisis.insert(day) }
                qs += AskedQuestions.extract(from: c.note ?? "")
            }
            if !qs.isEmpty { questions[day, default: []].append(contentsOf: qs) }
        }
        return (crisis.sorted(), questions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    // MARK: - Common page parts

    /// How many pages of one's own (content/pages) the navigation lists one by one; with more,
    /// it lists one "pages" entry, a page that lists them all (every page's navigation listing
    /// every one made the site grow with the square of their number: 500 pages, 29 MB).
    static let navPageLimit = 8
    static let pagesIndexPath = "pages/index.html"

    /// A page of one's own as the navigation and the pages index name it: its file's name, its
    /// dashes spaces.
    static func pageLabel(_ doc: SiteContent.Document) -> String { doc.name.replacingOccurrences(of: "-", with: " ") }

    static func root(for path: String) -> String {
        // One "../" a folder: the slashes between segments (empty segments do not count).
        String(repeating: "../", count: max(0, path.utf8.split(separator: UInt8(ascii: "/")).count - 1))
    }

    /// The 404 page: a server sends it for any missing address, at any depth, so its links start
    /// at the site's root (the base URL's path, else "/") instead of beside the page.
    func notFoundPage() throws -> Data {
        let f = frame(path: "404.html", title: "Not found", current: "404.html", crisis: false)
        return try render("notfound", [:], frame: PageFrame(siteTitle: f.siteTitle, pageTitle: f.pageTitle,
                                                            root: PageContext.serverRoot(baseURL: options.baseURL), nav: f.nav,
                                                            current: f.current, footer: f.footer, crisis: false))
    }

    /// The path a server puts the site at: the base URL's ("https://example.org/me/" is "/me/"), else "/".
    static func serverRoot(baseURL: String?) -> String {
        guard let base = baseURL, let scheme = base.range(of: "://") else { return "/" }
        let afterHost = base[scheme.upperBound...]
        guard let slash = afterHost.firstIndex(of: "/") else { return "/" }
        let path = afterHost[slash...].prefix { $0 != "?" && $0 != "#" }
        return path.hasSuffix("/") ? String(path) : path + "/"
    }

    /// Renders a page: its own fields first (they win), then the parts every page has.
    func render(_ template: String, _ page: TemplateObject, path: String, title: String, current: String? = nil,
                crisis: Bool = false) throws -> Data {
        try render(template, page, frame: frame(path: path, title: title, current: current ?? path, crisis: crisis))
    }

    func render(_ template: String, _ page: TemplateObject, frame: PageFrame) throws -> Data {
        var ctx = page
        ctx.fields.reserveCapacity(page.fields.count + 6)
        frame.append(to: &ctx, nav: navByCurrent[frame.current] ?? navNone)
        return try templates.renderBytes(template, ctx)
    }

    /// The parts every page has: `current` is the navigation entry marked as this page.
    func frame(path: String, title: String, current: String, crisis: Bool) -> PageFrame {
        PageFrame(siteTitle: options.title, pageTitle: title, root: PageContext.root(for: path), nav: navItems, current: current,
                  footer: footerLine, crisis: crisis)
    }

    func markdown(_ text: String, name: String) throws -> RawHTML {
        try Markdown.html(text, name: name)
    }

    // MARK: - Shared pieces of page models

    func bugSlug(_ id: UUID?) -> String { id.flatMap { index.bugsById[$0]?.slug } ?? FixFacts.noBugSlug }
    func bugTitle(_ id: UUID?) -> String { id.flatMap { index.bugsById[$0]?.title } ?? FixFacts.noBugTitle }

    func time(_ d: Date) -> String { index.clock.time(d) }

    /// The time of day of a record listed on `day` (the day it counted where it was made), in the
    /// zone the site is built in; nothing when that zone puts the instant on another day or
    /// another hour than it was made at (a crash logged at 15:00 on a Friday in Los Angeles is
    /// 07:00 on Saturday in Tokyo: "Friday 07:00" happened nowhere; one logged at 20:00 in Tokyo
    /// read "12:00" on a site built in London). A time in UTC instead put a UTC time beside the
    /// local day, a day off near midnight.
    func time(_ d: Date, on day: LocalDay) -> String {
        index.clock.day(d) == day && index.recorded.keepsItsHour(d) ? index.clock.time(d) : ""
    }

    /// The day a reboot was made on, where it was made (`token`: its entry's, when known; a
    /// crash's `rebootedAt` has none).
    func rebootDay(_ d: Date, token: String? = nil) -> LocalDay { index.recorded.day(d, madeWith: .crashRebooted, token: token) }

    /// The day a version of the changelog began: day one for the first, else the day its entry
    /// was made on, where it was made.
    func startDay(of v: ChangelogVersion) -> LocalDay {
        v.entry == nil ? (index.practiceStart ?? index.clock.day(v.start)) : index.recorded.day(v.start)
    }

    func fixModel(_ c: FixCompletion, showDate: Bool) throws -> TemplateValue { try fixRow(c, showDate: showDate).value }

    func fixRow(_ c: FixCompletion, showDate: Bool) throws -> FixRow {
        let facts = index.fixFacts[c.fixId]
        let fix = facts?.fix
        var reflection: RawHTML?
        if c.reflection != nil, let r = reflections[c.id] { reflection = try r.get() }
        var typeNote = fix?.type.note
        if index.reruns.contains(c.id) { typeNote = (typeNote.map { $0 + ", " } ?? "") + "rerun" }
        return FixRow(
            label: fix?.label ?? "FIX", bugSlug: facts?.bugSlug ?? FixFacts.noBugSlug, bugTitle: facts?.bugTitle ?? FixFacts.noBugTitle,
            severity: fix?.severity.rawValue ?? "-", typeNote: typeNote,
            when: showDate ? index.recorded.day(of: c).description : nil,
            outcome: c.outcome.rawValue,
            outcomeText: PendingFixRule.outcomeText(c, fix: fix, today: index.today, dayOf: { index.recorded.day($0) },
                                                    stillPending: index.timedPastItsDay),
            prompt: fix?.prompt ?? "(fix no longer in the catalogue)", comment: fix?.inlineComment,
            detail: fix.flatMap { fixDetails[$0.id] }, interaction: fix.flatMap { InteractionSummary.text(c, fix: $0) }, reflection: reflection)
    }

    /// What the fix asks beyond its prompt: the scenario, the quiz question, the timer, the count;
    /// a multi-step fix's steps as a list (one paragraph ran "1. ... 2. ... 3. ..." together).
    static func interactionDetail(_ fix: Fix) -> FixDetail? {
        switch try? fix.configuration() {
        case .timed(let t)?:
            return FixDetail(text: "Timer, \(Plural.duration(seconds: t.durationSeconds))." + (t.prompt.map { " " + $0 } ?? ""))
        case .multiStep(let m)?:
            return m.steps.isEmpty ? nil : FixDetail(text: nil, steps: m.steps.map(\.instruction))
        case .quiz(let q)?: return FixDetail(text: "Quiz: " + q.question)
        case .scenario(let s)?: return FixDetail(text: "Scenario: " + s.situation)
        case .counter(let c)?: return FixDetail(text: "Count: " + c.targetDescription + ".")
        default: return nil
        }
    }

    func patternModel(_ p: DetectedPattern) -> TemplateValue { patternRow(p).value }

    func patternRow(_ p: DetectedPattern) -> PatternRow {
        let conf = PatternCopy.confidence(p.pValue, of: p.patternType) ?? "p not computed"
        return PatternRow(severity: p.severity.rawValue, severityText: p.severity.rawValue, type: PatternCopy.name(p.patternType),
                          basis: p.basis.isEmpty ? "\(p.dataPoints) data points" : p.basis, confidence: conf, title: p.title, body: p.body)
    }

    /// Whether the user's text on any day from `first` through `last` reads like a crisis.
    func crisis(from first: LocalDay, through last: LocalDay) -> Bool {
        let i = crisisDays.lowerBound(of: first) { $0 }
        return i < crisisDays.count && crisisDays[i] <= last
    }

    /// The questions of the days from `first` through `last`, oldest day first.
    /// The questions asked from `first` through `last`, oldest first, each once: one asked again
    /// is dated "asked 5 times, 2026-03-02 to 2026-03-09" where it was first asked (a year page
    /// listed one question 5,498 times).
    func questions(from first: LocalDay, through last: LocalDay) -> [TemplateValue] {
        var order: [String] = [], seen: [String: (count: Int, first: LocalDay, last: LocalDay)] = [:]
        var i = questionsByDay.lowerBound(of: first) { $0.day }
        while i < questionsByDay.count, questionsByDay[i].day <= last {
            let day = questionsByDay[i].day
            for q in questionsByDay[i].questions {
                if let s = seen[q] {
                    seen[q] = (s.count + 1, s.first, day)
                } else {
                    seen[q] = (1, day, day)
                    order.append(q)
                }
            }
            i += 1
        }
        return order.map { q in
            let s = seen[q] ?? (1, first, first)
            let date = s.count == 1 ? s.first.description
                : "asked \(s.count == 2 ? "twice" : "\(s.count) times"), " + (s.first == s.last ? s.first.description : "\(s.first) to \(s.last)")
            return ["text": .text(q), "date": .text(date)]
        }
    }

    struct Counts: Equatable {
        var applied = 0, skipped = 0, failed = 0, crashes = 0, reboots = 0, engaged = 0
    }

    func counts(_ days: [LocalDay]) -> Counts {
        guard let first = days.first, let last = days.last else { return Counts() }
        return counts(from: first, through: last)
    }

    func counts(from first: LocalDay, through last: LocalDay) -> Counts {
        var c = Counts()
        guard first <= last else { return c }
        for a in index.ledger.days(from: first, to: last.adding(days: 1)) {
            c.applied += a.applied
            c.skipped += a.skipped
            c.failed += a.failed
            c.crashes += a.crashes
            c.reboots += a.reboots
            if a.engaged { c.engaged += 1 }
        }
        return c
    }

    func countsModel(_ c: Counts, previous: Counts?) -> TemplateValue { .list(countRows(c, previous: previous).map(\.pageValue)) }

    /// `soFar`: the period is under way, and `previous` counts as many of its days.
    func countRows(_ c: Counts, previous: Counts?, soFar: Bool = false) -> [CountRow] {
        let before = soFar ? "the same days before" : "before"
        func row(_ label: String, _ a: Int, _ b: Int?) -> CountRow {
            var delta: String?
            if let b {
                let d = a - b
                // ("same as the same days before" said "same" twice.)
                delta = d == 0 ? (soFar ? "unchanged vs \(before)" : "same as before") : (d > 0 ? "+\(d) vs \(before)" : "\(d) vs \(before)")
            }
            return CountRow(label: label, value: String(a), delta: delta)
        }
        return [
            row("applied", c.applied, previous?.applied), row("skipped", c.skipped, previous?.skipped),
            row("failed", c.failed, previous?.failed), row("crashes", c.crashes, previous?.crashes),
            row("reboots", c.reboots, previous?.reboots), row("days engaged", c.engaged, previous?.engaged),
        ]
    }
}
