import Foundation

/// Validates a Seeds folder: schema, references, unique ids and numbers, configurations matching
/// their interaction type, the copy rules, and the house style of docs/style.md that a machine can
/// check (`HouseStyle`). Every issue names the file, the entry and the field.
///
/// A fix marked `"retired": true` keeps, word for word, the text old records showed: it is checked
/// for schema, references, ids and its configuration's shape, not for copy rules or house style
/// (both may have grown since it shipped), and takes no part in the cross-entry rules.
public enum SeedLint {
    public struct Issue: Equatable, Sendable, CustomStringConvertible {
        public let file: String
        public let entry: String
        public let field: String
        public let message: String

        public init(file: String, entry: String, field: String, message: String) {
            self.file = file
            self.entry = entry
            self.field = field
            self.message = message
        }

        /// "file: entry: field: message", without the parts that are "-" (a whole file's problem
        /// read "bugs.json: -: -: not valid JSON").
        public var description: String { ([file, entry, field].filter { $0 != "-" } + [message]).joined(separator: ": ") }
    }

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let issues: [Issue]
        public init(issues: [Issue]) { self.issues = issues }
        public var description: String { issues.map(\.description).joined(separator: "\n") }
    }

    /// Lints the three files' contents (nil = file missing). Returns every issue found, in file order.
    public static func lint(bugs: Data?, fixes: Data?, education: Data?) -> [Issue] {
        var issues: [Issue] = []
        var ids: [String: String] = [:]   // id → where first seen
        func issue(_ f: String, _ e: String, _ fld: String, _ m: String) { issues.append(Issue(file: f, entry: e, field: fld, message: m)) }

        func entries(_ data: Data?, _ file: String) -> [[String: JSONValue]] {
            guard let data else { issue(file, "-", "-", "file is missing"); return [] }
            guard let v = try? JSONDecoder().decode(JSONValue.self, from: data) else {
                issue(file, "-", "-", "not valid JSON"); return []
            }
            guard case .array(let arr) = v else { issue(file, "-", "-", "top level must be an array"); return [] }
            return arr.enumerated().compactMap { i, e in
                if case .object(let o) = e { return o }
                issue(file, "entry \(i + 1)", "-", "must be an object")
                return nil
            }
        }
        func string(_ o: [String: JSONValue], _ k: String, _ f: String, _ e: String, optional: Bool = false) -> String? {
            switch o[k] {
            case .string(let s)?:
                if s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { issue(f, e, k, "is empty") }
                return s
            case .null?, nil:
                if !optional { issue(f, e, k, "is missing") }
                return nil
            default:
                issue(f, e, k, "must be a string"); return nil
            }
        }
        func checkId(_ o: [String: JSONValue], _ f: String, _ e: String) -> UUID? {
            guard let s = string(o, "id", f, e) else { return nil }
            guard let u = UUID(uuidString: s) else { issue(f, e, "id", "'\(s)' is not a UUID"); return nil }
            if let first = ids[u.uuidString] { issue(f, e, "id", "duplicate id, first used by \(first)") }
            else { ids[u.uuidString] = "\(f) \(e)" }
            return u
        }
        /// The copy rules and the house style; neither for a retired fix (`style` false).
        func copy(_ text: String?, _ f: String, _ e: String, _ fld: String, _ limit: Int, style: Bool = true) {
            if let text, let bad = CopyRules.unsafeCharacter(text) { issue(f, e, fld, bad) }
            guard let text, style else { return }
            for v in CopyRules.violations(text, limit: limit) { issue(f, e, fld, v) }
            for v in HouseStyle.spelling(text) + HouseStyle.quotes(text) { issue(f, e, fld, v) }
        }
        func enumValue<T: RawRepresentable>(_ o: [String: JSONValue], _ k: String, _ t: T.Type, _ all: [T], _ f: String, _ e: String) -> T? where T.RawValue == String {
            guard let s = string(o, k, f, e) else { return nil }
            guard let v = T(rawValue: s) else {
                issue(f, e, k, "'\(s)' is not one of \(all.map(\.rawValue).joined(separator: ", "))"); return nil
            }
            return v
        }

        // bugs.json
        let (bf, ff, ef) = (SeedCatalogue.bugsFile, SeedCatalogue.fixesFile, SeedCatalogue.educationFile)
        // A file that cannot be read as a list of entries is the one problem said: the entries
        // of the others would each fail on it (a truncated bugs.json gave 690 more lines).
        let (bugEntries, fixEntries, educationEntries) = (entries(bugs, bf), entries(fixes, ff), entries(education, ef))
        if issues.contains(where: { $0.entry == "-" }) { return issues }
        var bugIds: Set<UUID> = []
        var slugs: Set<String> = []
        var bugOrder: [String] = []   // bug ids as written, in file order
        var slugOrder: [String] = []
        var bugNames: [String: String] = [:]   // bug id -> slug, for messages
        for (i, o) in bugEntries.enumerated() {
            let slug = string(o, "slug", bf, "entry \(i + 1)")
            let e = slug.map { "bug '\($0)'" } ?? "entry \(i + 1)"
            if let id = checkId(o, bf, e) {
                bugIds.insert(id)
                bugOrder.append(id.uuidString)
                bugNames[id.uuidString] = slug
            }
            if let slug {
                slugOrder.append(slug)
                if slugs.contains(slug) { issue(bf, e, "slug", "duplicate slug") }
                slugs.insert(slug)
                if !NameShape.isSlug(slug) {
                    issue(bf, e, "slug", "must be lowercase words joined by '-'")
                }
            }
            copy(string(o, "title", bf, e), bf, e, "title", CopyRules.Limits.bugTitle)
            copy(string(o, "description", bf, e), bf, e, "description", CopyRules.Limits.bugDescription)
            if let c = string(o, "color", bf, e), !NameShape.isHexColor(c) {
                issue(bf, e, "color", "'\(c)' is not a #rrggbb color")
            }
        }

        // fixes.json
        var numbers: [Int: String] = [:]
        var active: [ActiveFix] = []
        for (i, o) in fixEntries.enumerated() {
            var e = "entry \(i + 1)"
            if case .number(let n)? = o["number"], n == n.rounded(), n >= 1 {
                e = "FIX #" + Fix.pad(Int(n))
                if let first = numbers[Int(n)] { issue(ff, e, "number", "duplicate number, first used by \(first)") }
                else { numbers[Int(n)] = "entry \(i + 1)" }
            } else {
                issue(ff, e, "number", "must be a whole number from 1")
            }
            var retired = false
            switch o["retired"] {
            case nil, .null?: break
            case .bool(let b)?: retired = b
            default: issue(ff, e, "retired", "must be true or false")
            }
            let style = !retired
            _ = checkId(o, ff, e)
            let bugId = string(o, "bugId", ff, e)
            if let b = bugId {
                if let u = UUID(uuidString: b) {
                    if !bugIds.contains(u) { issue(ff, e, "bugId", "no bug with id \(b) in \(bf)") }
                } else { issue(ff, e, "bugId", "'\(b)' is not a UUID") }
            }
            _ = enumValue(o, "type", FixType.self, FixType.allCases, ff, e)
            _ = enumValue(o, "severity", FixSeverity.self, FixSeverity.allCases, ff, e)
            let it = enumValue(o, "interactionType", InteractionType.self, InteractionType.allCases, ff, e)
            let prompt = string(o, "prompt", ff, e)
            copy(prompt, ff, e, "prompt", CopyRules.Limits.prompt, style: style)
            let comment = string(o, "inlineComment", ff, e, optional: true)
            if let c = comment {
                copy(c, ff, e, "inlineComment", CopyRules.Limits.inlineComment, style: style)
                if c.split(separator: "\n", omittingEmptySubsequences: false).contains(where: { !$0.hasPrefix("// ") }) {
                    issue(ff, e, "inlineComment", "every line must start with '// '")
                }
                if style { for v in HouseStyle.commentShape(c) { issue(ff, e, "inlineComment", v) } }
            }
            let validation = string(o, "validation", ff, e, optional: true)
            copy(validation, ff, e, "validation", CopyRules.Limits.validation, style: style)
            if let it { lintConfiguration(o["configuration"], it, ff, e, style: style, &issues) }
            if style, let bugId, let prompt {
                active.append(ActiveFix(entry: e, bug: UUID(uuidString: bugId)?.uuidString ?? bugId, interaction: it,
                                        prompt: prompt, validation: validation, commented: comment != nil))
            }
        }
        lintAcrossFixes(active, bugOrder: bugOrder, bugNames: bugNames, ff, &issues)

        // micro_education.json
        var tidbits: [Tidbit] = []
        for (i, o) in educationEntries.enumerated() {
            let e = "entry \(i + 1)"
            _ = checkId(o, ef, e)
            let slug = string(o, "bugSlug", ef, e)
            if let s = slug, !slugs.contains(s) { issue(ef, e, "bugSlug", "no bug '\(s)' in \(bf)") }
            _ = enumValue(o, "trigger", EducationTrigger.self, EducationTrigger.allCases, ef, e)
            let body = string(o, "body", ef, e)
            copy(body, ef, e, "body", CopyRules.Limits.tidbit)
            if let slug, let body { tidbits.append(Tidbit(entry: e, bug: slug, body: body)) }
        }
        lintAcrossTidbits(tidbits, bugOrder: slugOrder, ef, &issues)
        return issues
    }

    struct ActiveFix {
        let entry: String
        let bug: String
        let interaction: InteractionType?
        let prompt: String
        let validation: String?
        let commented: Bool
    }

    struct Tidbit {
        let entry: String
        let bug: String
        let body: String
    }

    /// Across the active fixes: no validation twice; per bug, no opening shared by too many prompts,
    /// quiz and scenario prompts that vary their first word, and about 60 % with an inline comment.
    static func lintAcrossFixes(_ fixes: [ActiveFix], bugOrder: [String], bugNames: [String: String], _ ff: String, _ issues: inout [Issue]) {
        var validations: [String: String] = [:]
        for f in fixes {
            guard let v = f.validation else { continue }
            let key = v.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if let first = validations[key] {
                issues.append(Issue(file: ff, entry: f.entry, field: "validation", message: "same text as \(first): write one for this fix"))
            } else { validations[key] = f.entry }
        }
        let byBug = Dictionary(grouping: fixes, by: \.bug)
        for bug in bugOrder {
            guard let mine = byBug[bug] else { continue }
            let commented = mine.filter(\.commented).count
            let share = Double(commented) / Double(mine.count)
            if mine.count >= HouseStyle.commentShareMinimumFixes, !HouseStyle.commentShare.contains(share) {
                issues.append(Issue(file: ff, entry: "\(bugNames[bug] ?? bug) fixes", field: "inlineComment",
                                    message: "\(commented) of \(mine.count) active fixes carry a comment (\(Int((share * 100).rounded()))%); "
                                        + "about 60% should (\(Int(HouseStyle.commentShare.lowerBound * 100)) to \(Int(HouseStyle.commentShare.upperBound * 100))%): keep the best"))
            }
            var openings: [String: [String]] = [:]
            for f in mine {
                let o = HouseStyle.opening(f.prompt, words: 3)
                openings[o, default: []].append(f.entry)
                if openings[o, default: []].count > HouseStyle.sharedOpenings {
                    issues.append(Issue(file: ff, entry: f.entry, field: "prompt",
                                        message: "opens with \"\(o)\" like \(openings[o, default: []].dropLast().joined(separator: ", ")); "
                                            + "at most \(HouseStyle.sharedOpenings) of a bug's prompts may share their first three words"))
                }
            }
            var firstWords: [String: [String]] = [:]
            for f in mine where f.interaction == .quiz || f.interaction == .scenario {
                let w = HouseStyle.opening(f.prompt, words: 1)
                firstWords[w, default: []].append(f.entry)
                if firstWords[w, default: []].count > HouseStyle.sharedFirstWordInQuizzes {
                    issues.append(Issue(file: ff, entry: f.entry, field: "prompt",
                                        message: "opens with \"\(w)\" like the quizzes or scenarios \(firstWords[w, default: []].dropLast().joined(separator: ", ")); "
                                            + "vary the openings"))
                }
            }
        }
    }

    /// Across the tidbits: a proper name belongs to one bug, and at most a third of a bug's tidbits
    /// open with a name.
    static func lintAcrossTidbits(_ tidbits: [Tidbit], bugOrder: [String], _ ef: String, _ issues: inout [Issue]) {
        let rank = Dictionary(bugOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var known: Set<String> = []
        for t in tidbits { for run in HouseStyle.names(t.body) { known.formUnion(run) } }
        let names = tidbits.map { HouseStyle.names($0.body, known: known) }
        // Each name is owned by the first bug (in bugs.json order) whose tidbits use it.
        for (k, t) in tidbits.enumerated() {
            let mine = rank[t.bug] ?? Int.max
            var reported: Set<String> = []
            for run in names[k] {
                for (j, other) in tidbits.enumerated() where other.bug != t.bug && (rank[other.bug] ?? Int.max) < mine {
                    guard let hit = names[j].first(where: { HouseStyle.sameName($0, run) }) else { continue }
                    let shown = (hit.count <= run.count ? hit : run).joined(separator: " ")
                    if reported.insert(shown).inserted {
                        issues.append(Issue(file: ef, entry: t.entry, field: "body",
                                            message: "names \(shown), which \(other.bug) tidbits use (\(other.entry)): one bug per name"))
                    }
                }
            }
        }
        for bug in bugOrder {
            let mine = tidbits.filter { $0.bug == bug }
            let opening = mine.filter { HouseStyle.opensWithName($0.body, known: known) }
            if !mine.isEmpty, Double(opening.count) > Double(mine.count) * HouseStyle.tidbitsOpeningWithAName {
                issues.append(Issue(file: ef, entry: "\(bug) tidbits", field: "body",
                                    message: "\(opening.count) of \(mine.count) open with a name (\(opening.map(\.entry).joined(separator: ", "))); at most a third may"))
            }
        }
    }

    static func lintConfiguration(_ value: JSONValue?, _ type: InteractionType, _ f: String, _ e: String, style: Bool,
                                  _ issues: inout [Issue]) {
        func issue(_ fld: String, _ m: String) { issues.append(Issue(file: f, entry: e, field: fld, message: m)) }
        func copy(_ s: String?, _ fld: String, _ limit: Int) {
            if let s, let bad = CopyRules.unsafeCharacter(s) { issue(fld, bad) }
            guard let s, style else { return }
            for v in CopyRules.violations(s, limit: limit) { issue(fld, v) }
            for v in HouseStyle.spelling(s) + HouseStyle.quotes(s) { issue(fld, v) }
        }
        let present: Bool
        if case .object? = value { present = true } else { present = false }
        if type == .standard {
            if present { issue("configuration", "a standard fix takes no configuration") }
            return
        }
        guard present, let value else {
            issue("configuration", "a \(type.rawValue) fix needs a configuration object"); return
        }
        let config: InteractionConfiguration
        do { config = try InteractionConfiguration.decode(type: type, data: try value.canonicalData()) } catch {
            issue("configuration", "\(error)"); return
        }
        func uniqueIds(_ ids: [String], _ fld: String) {
            if Set(ids).count != ids.count { issue(fld, "option or step ids repeat") }
        }
        switch config {
        case .standard: break
        case .timed(let c):
            if c.durationSeconds > 86_400 { issue("configuration.durationSeconds", "over 24 hours") }
            if style, c.durationSeconds < HouseStyle.minimumTimerSeconds {
                issue("configuration.durationSeconds", "\(c.durationSeconds) seconds; a timer runs at least \(HouseStyle.minimumTimerSeconds)")
            }
            copy(c.prompt, "configuration.prompt", CopyRules.Limits.prompt)
        case .multiStep(let c):
            uniqueIds(c.steps.map(\.id), "configuration.steps")
            for (i, s) in c.steps.enumerated() { copy(s.instruction, "configuration.steps[\(i)].instruction", CopyRules.Limits.step) }
        case .quiz(let c):
            copy(c.question, "configuration.question", CopyRules.Limits.question)
            uniqueIds(c.options.map(\.id), "configuration.options")
            for (i, o) in c.options.enumerated() {
                copy(o.text, "configuration.options[\(i)].text", CopyRules.Limits.optionText)
                copy(o.insight, "configuration.options[\(i)].insight", CopyRules.Limits.insight)
                if !(-1...1).contains(o.weightModifier) { issue("configuration.options[\(i)].weightModifier", "must be between -1 and 1") }
            }
        case .scenario(let c):
            copy(c.situation, "configuration.situation", CopyRules.Limits.question)
            uniqueIds(c.options.map(\.id), "configuration.options")
            for (i, o) in c.options.enumerated() {
                copy(o.text, "configuration.options[\(i)].text", CopyRules.Limits.optionText)
                copy(o.insight, "configuration.options[\(i)].insight", CopyRules.Limits.insight)
            }
        case .counter(let c):
            copy(c.targetDescription, "configuration.targetDescription", CopyRules.Limits.line)
            copy(c.unit, "configuration.unit", CopyRules.Limits.line)
        }
    }

    /// Counts for `egofix lint --stats`, in a fixed order. "active" fixes are the ones still offered
    /// (not retired); "daily eligible" the active daily fixes, the pool the daily rule draws from.
    public static func stats(_ c: SeedCatalogue) -> [(section: String, rows: [(String, Int)])] {
        let bugs = c.bugs
        let slugById = Dictionary(uniqueKeysWithValues: c.bugs.map { ($0.id, $0.slug) })
        let active = c.fixes.filter(\.isOffered)
        func count<T>(_ items: [T], _ keys: [String], _ key: (T) -> String) -> [(String, Int)] {
            keys.map { k in (k, items.filter { key($0) == k }.count) }
        }
        var out: [(String, [(String, Int)])] = [
            ("totals", [("bugs", c.bugs.count), ("fixes", c.fixes.count), ("active fixes", active.count),
                        ("retired fixes", c.fixes.count - active.count),
                        ("daily eligible", active.filter { $0.type == .daily }.count), ("tidbits", c.education.count),
                        ("inline comments (active)", active.filter { $0.inlineComment != nil }.count)]),
            ("active fixes per bug", count(active, bugs.map(\.slug)) { slugById[$0.bugId] ?? "?" }),
            ("severity", count(active, FixSeverity.allCases.map(\.rawValue)) { $0.severity.rawValue }),
            ("type", count(active, FixType.allCases.map(\.rawValue)) { $0.type.rawValue }),
            ("interaction type", count(active, InteractionType.allCases.map(\.rawValue)) { $0.interactionType.rawValue }),
            ("tidbits per bug", count(c.education, bugs.map(\.slug)) { $0.bugSlug }),
            ("trigger", count(c.education, EducationTrigger.allCases.map(\.rawValue)) { $0.trigger.rawValue }),
        ]
        for b in bugs {
            let all = c.fixes.filter { $0.bugId == b.id }
            let mine = all.filter(\.isOffered)
            let daily = mine.filter { $0.type == .daily }
            let tid = c.education.filter { $0.bugSlug == b.slug }
            var rows: [(String, Int)] = [("active fixes", mine.count), ("daily eligible", daily.count),
                                         ("retired", all.count - mine.count)]
            rows += FixType.allCases.map { t in ("type " + t.rawValue, mine.filter { $0.type == t }.count) }
            rows += FixSeverity.allCases.map { s in ("daily severity " + s.rawValue, daily.filter { $0.severity == s }.count) }
            rows += InteractionType.allCases.map { t in ("interaction " + t.rawValue, mine.filter { $0.interactionType == t }.count) }
            rows.append(("inline comments", mine.filter { $0.inlineComment != nil }.count))
            rows.append(("tidbits", tid.count))
            rows += EducationTrigger.allCases.map { t in ("trigger " + t.rawValue, tid.filter { $0.trigger == t }.count) }
            out.append((b.slug, rows))
        }
        return out.map { (section: $0.0, rows: $0.1) }
    }
}
