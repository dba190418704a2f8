import Foundation

/// Validates a Seeds folder: schema, references, unique ids and numbers, configurations matching
/// their interaction type, and the copy rules. Every issue names the file, the entry and the field.
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

        public var description: String { "\(file): \(entry): \(field): \(message)" }
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
            guard let v = JSONBytes.parse(data) ?? (try? JSONDecoder().decode(JSONValue.self, from: data)) else {
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
        func copy(_ text: String?, _ f: String, _ e: String, _ fld: String, _ limit: Int) {
            guard let text else { return }
            for v in CopyRules.violations(text, limit: limit) { issue(f, e, fld, v) }
        }
        func enumValue<T: RawRepresentable>(_ o: [String: JSONValue], _ k: String, _ t: T.Type, _ all: [T], _ f: String, _ e: String) -> T? where T.RawValue == String {
            guard let s = string(o, k, f, e) else { return nil }
            guard let v = T(rawValue: s) else {
                issue(f, e, k, "'\(s)' is not one of \(all.map(\.rawValue).joined(separator: ", "))"); return nil
            }
            return v
        }

        // bugs.json
        let bf = SeedCatalogue.bugsFile
        var bugIds: Set<UUID> = []
        var slugs: Set<String> = []
        for (i, o) in entries(bugs, bf).enumerated() {
            let slug = string(o, "slug", bf, "entry \(i + 1)")
            let e = slug.map { "bug '\($0)'" } ?? "entry \(i + 1)"
            if let id = checkId(o, bf, e) { bugIds.insert(id) }
            if let slug {
                if slugs.contains(slug) { issue(bf, e, "slug", "duplicate slug") }
                slugs.insert(slug)
                if !NameShape.isSlug(slug) {
                    issue(bf, e, "slug", "must be lowercase words joined by '-'")
                }
            }
            copy(string(o, "title", bf, e), bf, e, "title", CopyRules.Limits.bugTitle)
            copy(string(o, "description", bf, e), bf, e, "description", CopyRules.Limits.bugDescription)
            if let c = string(o, "color", bf, e), !NameShape.isHexColor(c) {
                issue(bf, e, "color", "'\(c)' is not a #rrggbb colour")
            }
        }

        // fixes.json
        let ff = SeedCatalogue.fixesFile
        var numbers: [Int: String] = [:]
        for (i, o) in entries(fixes, ff).enumerated() {
            var e = "entry \(i + 1)"
            if case .number(let n)? = o["number"], n == n.rounded(), n >= 1 {
                e = "FIX #" + Fix.pad(Int(n))
                if let first = numbers[Int(n)] { issue(ff, e, "number", "duplicate number, first used by \(first)") }
                else { numbers[Int(n)] = "entry \(i + 1)" }
            } else {
                issue(ff, e, "number", "must be a whole number from 1")
            }
            _ = checkId(o, ff, e)
            if let b = string(o, "bugId", ff, e) {
                if let u = UUID(uuidString: b) {
                    if !bugIds.contains(u) { issue(ff, e, "bugId", "no bug with id \(b) in \(bf)") }
                } else { issue(ff, e, "bugId", "'\(b)' is not a UUID") }
            }
            _ = enumValue(o, "type", FixType.self, FixType.allCases, ff, e)
            _ = enumValue(o, "severity", FixSeverity.self, FixSeverity.allCases, ff, e)
            let it = enumValue(o, "interactionType", InteractionType.self, InteractionType.allCases, ff, e)
            copy(string(o, "prompt", ff, e), ff, e, "prompt", CopyRules.Limits.prompt)
            if let c = string(o, "inlineComment", ff, e, optional: true) {
                copy(c, ff, e, "inlineComment", CopyRules.Limits.inlineComment)
                if c.split(separator: "\n", omittingEmptySubsequences: false).contains(where: { !$0.hasPrefix("// ") }) {
                    issue(ff, e, "inlineComment", "every line must start with '// '")
                }
            }
            copy(string(o, "validation", ff, e, optional: true), ff, e, "validation", CopyRules.Limits.validation)
            if let it { lintConfiguration(o["configuration"], it, ff, e, &issues) }
        }

        // micro_education.json
        let ef = SeedCatalogue.educationFile
        for (i, o) in entries(education, ef).enumerated() {
            let e = "entry \(i + 1)"
            _ = checkId(o, ef, e)
            if let s = string(o, "bugSlug", ef, e), !slugs.contains(s) { issue(ef, e, "bugSlug", "no bug '\(s)' in \(bf)") }
            _ = enumValue(o, "trigger", EducationTrigger.self, EducationTrigger.allCases, ef, e)
            copy(string(o, "body", ef, e), ef, e, "body", CopyRules.Limits.tidbit)
        }
        return issues
    }

    static func lintConfiguration(_ value: JSONValue?, _ type: InteractionType, _ f: String, _ e: String, _ issues: inout [Issue]) {
        func issue(_ fld: String, _ m: String) { issues.append(Issue(file: f, entry: e, field: fld, message: m)) }
        func copy(_ s: String?, _ fld: String, _ limit: Int) {
            guard let s else { return }
            for v in CopyRules.violations(s, limit: limit) { issue(fld, v) }
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
        do { config = try InteractionConfiguration.decode(type: type, data: value.canonicalData()) } catch {
            issue("configuration", "\(error)"); return
        }
        func uniqueIds(_ ids: [String], _ fld: String) {
            if Set(ids).count != ids.count { issue(fld, "option or step ids repeat") }
        }
        switch config {
        case .standard: break
        case .timed(let c):
            if c.durationSeconds > 86_400 { issue("configuration.durationSeconds", "over 24 hours") }
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
        }
    }

    /// Counts for `egofix lint --stats`, in a fixed order.
    public static func stats(_ c: SeedCatalogue) -> [(section: String, rows: [(String, Int)])] {
        let bugs = c.bugs.sorted { $0.slug < $1.slug }
        let slugById = Dictionary(uniqueKeysWithValues: c.bugs.map { ($0.id, $0.slug) })
        func count<T>(_ items: [T], _ keys: [String], _ key: (T) -> String) -> [(String, Int)] {
            keys.map { k in (k, items.filter { key($0) == k }.count) }
        }
        var out: [(String, [(String, Int)])] = [
            ("totals", [("bugs", c.bugs.count), ("fixes", c.fixes.count), ("tidbits", c.education.count),
                        ("inline comments", c.fixes.filter { $0.inlineComment != nil }.count)]),
            ("fixes per bug", count(c.fixes, bugs.map(\.slug)) { slugById[$0.bugId] ?? "?" }),
            ("severity", count(c.fixes, FixSeverity.allCases.map(\.rawValue)) { $0.severity.rawValue }),
            ("type", count(c.fixes, FixType.allCases.map(\.rawValue)) { $0.type.rawValue }),
            ("interaction type", count(c.fixes, InteractionType.allCases.map(\.rawValue)) { $0.interactionType.rawValue }),
            ("tidbits per bug", count(c.education, bugs.map(\.slug)) { $0.bugSlug }),
            ("trigger", count(c.education, EducationTrigger.allCases.map(\.rawValue)) { $0.trigger.rawValue }),
        ]
        for b in bugs {
            let mine = c.fixes.filter { $0.bugId == b.id }
            let tid = c.education.filter { $0.bugSlug == b.slug }
            var rows: [(String, Int)] = []
            rows += FixSeverity.allCases.map { s in ("severity " + s.rawValue, mine.filter { $0.severity == s }.count) }
            rows += FixType.allCases.map { t in ("type " + t.rawValue, mine.filter { $0.type == t }.count) }
            rows += InteractionType.allCases.map { t in ("interaction " + t.rawValue, mine.filter { $0.interactionType == t }.count) }
            rows.append(("inline comments", mine.filter { $0.inlineComment != nil }.count))
            rows += EducationTrigger.allCases.map { t in ("trigger " + t.rawValue, tid.filter { $0.trigger == t }.count) }
            out.append((b.slug, rows))
        }
        return out.map { (section: $0.0, rows: $0.1) }
    }
}
