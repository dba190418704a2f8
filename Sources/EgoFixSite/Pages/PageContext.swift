import EgoFixCore
import Foundation

/// Shared state for one build: the index, the options, the user's Markdown and caches.
final class PageContext {
    let index: SiteIndex
    let data: SiteData
    let content: SiteContent
    let options: SiteOptions
    let templates: TemplateSet
    let patternRun: PatternRun
    let weekNotes: [String: SiteContent.Document]
    let versionNotes: [String: SiteContent.Document]
    private var markdownCache: [String: RawHTML] = [:]

    init(data: SiteData, content: SiteContent, options: SiteOptions, templates: TemplateSet) throws {
        self.data = data
        self.content = content
        self.options = options
        self.templates = templates
        index = SiteIndex(data: data, calendar: options.calendar, now: options.now)
        var wn: [String: SiteContent.Document] = [:]
        for d in content.weeks { wn[d.name] = d }
        weekNotes = wn
        var vn: [String: SiteContent.Document] = [:]
        for d in content.versions { vn[d.name] = d }
        versionNotes = vn
        if let user = data.profile {
            let dc = DetectionContext(userId: user.id, now: options.now, calendar: options.calendar, bugs: data.bugs,
                                      fixes: data.fixes, completions: data.completions, crashes: data.crashes)
            patternRun = PatternEngine.run(events: data.events, diagnostics: data.diagnostics, context: dc)
        } else {
            patternRun = PatternRun(patterns: [], statuses: [])
        }
    }

    // MARK: - Common page parts

    static func root(for path: String) -> String {
        String(repeating: "../", count: path.split(separator: "/").count - 1)
    }

    var navItems: [(label: String, href: String)] {
        var items: [(String, String)] = [("dashboard", "index.html"), ("this week", Period.week(containing: index.today).path),
                                         ("reports", "reports/index.html"), ("changelog", "changelog/index.html"),
                                         ("history", "history/index.html"), ("patterns", "patterns/index.html"),
                                         ("how it works", "how/index.html")]
        for p in content.pages.sorted(by: { $0.name < $1.name }) { items.append((p.name.replacingOccurrences(of: "-", with: " "), "pages/\(p.name)/index.html")) }
        return items
    }

    func common(path: String, title: String, current: String? = nil, crisis: Bool = false) -> [String: Any] {
        let root = PageContext.root(for: path)
        return [
            "siteTitle": options.title, "pageTitle": title, "root": root,
            "nav": navItems.map { ["label": $0.label, "href": $0.href, "current": $0.href == (current ?? path)] as [String: Any] },
            "footer": footerLine, "crisis": crisis,
        ]
    }

    var footerLine: String {
        guard let u = data.profile else { return "No profile yet. `egofix init` starts one." }
        return "v\(u.currentVersion) · as of \(index.today)"
    }

    func render(_ template: String, _ page: [String: Any], path: String, title: String, current: String? = nil,
                crisis: Bool = false) throws -> String {
        var ctx = common(path: path, title: title, current: current, crisis: crisis)
        for (k, v) in page { ctx[k] = v }
        return try templates.render(template, ctx)
    }

    func markdown(_ text: String, name: String) throws -> RawHTML {
        if let cached = markdownCache[name] { return cached }
        let html = try Markdown.html(text, name: name)
        markdownCache[name] = html
        return html
    }

    // MARK: - Shared pieces of page models

    func bugSlug(_ id: UUID?) -> String { id.flatMap { index.bugsById[$0]?.slug } ?? "none" }
    func bugTitle(_ id: UUID?) -> String { id.flatMap { index.bugsById[$0]?.title } ?? "no bug named" }

    func time(_ d: Date) -> String {
        let c = options.calendar.dateComponents([.hour, .minute], from: d)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    func fixModel(_ c: FixCompletion, showDate: Bool) throws -> [String: Any] {
        let fix = index.fixesById[c.fixId]
        let reflection: Any = try c.reflection.map { try markdown($0, name: "reflection of \(fix?.label ?? "a fix") on \(LocalDay(c.assignedAt, calendar: options.calendar))") } ?? NSNull()
        var typeNote: Any = NSNull()
        if fix?.type == .quickFix { typeNote = "quick fix" }
        if fix?.type == .weekly { typeNote = "system overhaul" }
        return [
            "label": fix?.label ?? "FIX", "bugSlug": bugSlug(fix?.bugId), "bugTitle": bugTitle(fix?.bugId),
            "severity": fix?.severity.rawValue ?? "-", "typeNote": typeNote,
            "when": showDate ? LocalDay(c.assignedAt, calendar: options.calendar).description as Any : NSNull(),
            "outcome": c.outcome.rawValue, "outcomeText": c.outcome != .pending ? c.outcome.rawValue
                : (LocalDay(c.assignedAt, calendar: options.calendar) < index.today ? "not marked" : "pending"),
            "prompt": fix?.prompt ?? "(fix no longer in the catalogue)",
            "comment": fix?.inlineComment ?? NSNull(),
            "detail": fix.flatMap(PageContext.interactionDetail) ?? NSNull(),
            "interaction": interactionText(c, fix: fix) ?? NSNull(),
            "reflection": reflection,
        ]
    }

    /// What the fix asks beyond its prompt: the scenario, the quiz question, the timer, the steps, the count.
    static func interactionDetail(_ fix: Fix) -> String? {
        switch try? fix.configuration() {
        case .timed(let t)?:
            let mins = t.durationSeconds >= 60 ? "\(t.durationSeconds / 60) min" : "\(t.durationSeconds) s"
            return "Timer, \(mins)." + (t.prompt.map { " " + $0 } ?? "")
        case .multiStep(let m)?:
            return m.steps.enumerated().map { "\($0.offset + 1). \($0.element.instruction)" }.joined(separator: " ")
        case .quiz(let q)?: return "Quiz: " + q.question
        case .scenario(let s)?: return "Scenario: " + s.situation
        case .counter(let c)?: return "Count: " + c.targetDescription + "."
        default: return nil
        }
    }

    func interactionText(_ c: FixCompletion, fix: Fix?) -> String? {
        guard let fix, let data = c.outcomeData,
              let o = try? JSONDecoder().decode(InteractionOutcome.self, from: data) else { return nil }
        if let n = o.count {
            if case .counter(let cfg)? = try? fix.configuration() { return "Counted \(n) \(cfg.unit ?? "times"): \(cfg.targetDescription)." }
            return "Counted \(n)."
        }
        if let id = o.optionId {
            switch try? fix.configuration() {
            case .quiz(let q)?: return q.options.first { $0.id == id }.map { "Answered: \($0.text)" }
            case .scenario(let s)?: return s.options.first { $0.id == id }.map { "Chose: \($0.text)" }
            default: return nil
            }
        }
        if o.timerCompleted == true { return "Timer ran out." }
        if let s = o.stepsCompleted { return "\(s) steps done." }
        return nil
    }

    static func patternName(_ t: PatternType) -> String {
        switch t {
        case .avoidance: return "avoidance"
        case .temporalCrash: return "crash timing"
        case .contextualSpike: return "context spike"
        case .correlatedBugs: return "correlated bugs"
        case .plateau: return "plateau"
        case .regression: return "regression"
        case .improvement: return "improvement"
        }
    }

    func patternModel(_ p: DetectedPattern) -> [String: Any] {
        let conf: String
        if p.pValue >= 1 { conf = "confidence not computed" } else if p.pValue < 0.001 { conf = "p < 0.001" } else {
            conf = String(format: "p = %.3f", p.pValue)
        }
        return ["severity": p.severity.rawValue, "severityText": p.severity.rawValue, "type": PageContext.patternName(p.patternType),
                "basis": p.basis.isEmpty ? "\(p.dataPoints) data points" : p.basis, "confidence": conf,
                "title": p.title, "body": p.body]
    }

    /// The pattern the dashboard surfaces: the strongest, alert > insight > observation.
    var surfacedPattern: DetectedPattern? {
        patternRun.patterns.sorted(by: PatternEngine.order).first
    }

    /// Whether any of the user's text in these days reads like a crisis.
    func crisis(in days: [LocalDay]) -> Bool {
        for d in days {
            for c in index.completionsByDay[d] ?? [] where c.reflection.map(CrisisLanguage.detect) == true { return true }
            for c in index.crashesByDay[d] ?? [] where c.note.map(CrisisLanguage.detect) == true { return true }
        }
        return false
    }

    func questions(in days: [LocalDay]) -> [[String: Any]] {
        var out: [[String: Any]] = []
        for d in days {
            for c in index.completionsByDay[d] ?? [] {
                for q in AskedQuestions.extract(from: c.reflection ?? "") { out.append(["text": q, "date": d.description]) }
            }
            for c in index.crashesByDay[d] ?? [] {
                for q in AskedQuestions.extract(from: c.note ?? "") { out.append(["text": q, "date": d.description]) }
            }
        }
        return out
    }

    struct Counts {
        var applied = 0, skipped = 0, failed = 0, crashes = 0, reboots = 0, engaged = 0
    }

    func counts(_ days: [LocalDay]) -> Counts {
        var c = Counts()
        guard let first = days.first, let last = days.last else { return c }
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

    func countsModel(_ c: Counts, previous: Counts?) -> [[String: Any]] {
        func delta(_ a: Int, _ b: Int?) -> Any {
            guard let b else { return NSNull() }
            let d = a - b
            return d == 0 ? "same as before" : (d > 0 ? "+\(d) vs before" : "\(d) vs before")
        }
        return [
            ["label": "applied", "value": String(c.applied), "delta": delta(c.applied, previous?.applied)],
            ["label": "skipped", "value": String(c.skipped), "delta": delta(c.skipped, previous?.skipped)],
            ["label": "failed", "value": String(c.failed), "delta": delta(c.failed, previous?.failed)],
            ["label": "crashes", "value": String(c.crashes), "delta": delta(c.crashes, previous?.crashes)],
            ["label": "reboots", "value": String(c.reboots), "delta": delta(c.reboots, previous?.reboots)],
            ["label": "days engaged", "value": String(c.engaged), "delta": delta(c.engaged, previous?.engaged)],
        ]
    }

    func tidbit(trigger: EducationTrigger, seed: String) -> String? {
        guard let u = data.profile, let primary = u.primaryBugId.flatMap({ index.bugsById[$0] }) else { return nil }
        return MicroEducationPicker.pick(from: data.education, bugSlug: primary.slug, trigger: trigger, lastShownId: nil,
                                         seed: StableHash.fnv1a([u.id.uuidString, seed]))?.body
    }
}
