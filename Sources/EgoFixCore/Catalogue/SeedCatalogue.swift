import Foundation

/// The shipped content (bugs, fixes, micro-education) as decoded from a Seeds folder.
/// Seeds/bugs.json, Seeds/fixes.json and Seeds/micro_education.json; see Seeds/README.md.
public struct SeedCatalogue: Sendable, Equatable {
    public var bugs: [Bug]
    public var fixes: [Fix]
    public var education: [MicroEducation]

    public static let bugsFile = "bugs.json"
    public static let fixesFile = "fixes.json"
    public static let educationFile = "micro_education.json"

    public init(bugs: [Bug], fixes: [Fix], education: [MicroEducation]) {
        self.bugs = bugs
        self.fixes = fixes
        self.education = education
    }

    /// Seed records as they appear in the JSON files.
    public struct BugSeed: Codable, Sendable, Equatable {
        public var id: UUID
        public var slug: String
        public var title: String
        public var description: String
        public var color: String
    }

    public struct FixSeed: Codable, Sendable, Equatable {
        public var id: UUID
        public var number: Int
        public var bugId: UUID
        public var type: FixType
        public var severity: FixSeverity
        public var interactionType: InteractionType
        public var prompt: String
        public var inlineComment: String?
        public var validation: String?
        public var configuration: JSONValue?
        /// `"retired": true`: kept so old records still load it, never assigned again (absent: false).
        public var retired: Bool?
    }

    public struct EducationSeed: Codable, Sendable, Equatable {
        public var id: UUID
        public var bugSlug: String
        public var trigger: EducationTrigger
        public var body: String
    }

    /// Decodes the three files. Catalogue timestamps are fixed (`loadedAt`), so the result is deterministic;
    /// a fix marked `"retired": true` gets `retiredAt` = `loadedAt` (the store keeps its first retirement date).
    /// Throws `SeedLint.Failure` naming the file when one does not decode; run the lint for every problem at once.
    /// The shipped seeds come from `CompiledSeeds` instead of their JSON, unless `compiled` is false.
    public static func decode(bugs: Data, fixes: Data, education: Data, loadedAt: Date = Date(timeIntervalSince1970: 0),
                              compiled: Bool = true) throws -> SeedCatalogue {
        if compiled, CompiledSeeds.digest != 0, digest(bugs: bugs, fixes: fixes, education: education) == CompiledSeeds.digest {
            return CompiledSeeds.catalogue(loadedAt: loadedAt)
        }
        let d = JSONDecoder()
        func load<T: Decodable>(_ type: T.Type, _ data: Data, _ file: String) throws -> T {
            do { return try d.decode(T.self, from: data) } catch {
                throw SeedLint.Failure(issues: [SeedLint.Issue(file: file, entry: "-", field: "-",
                                                               message: InteractionConfiguration.describe(error))])
            }
        }
        let b: [BugSeed], f: [FixSeed], e: [EducationSeed]
        if let fast = Fast.seeds(bugs: bugs, fixes: fixes, education: education) {
            (b, f, e) = fast
        } else {
            b = try load([BugSeed].self, bugs, bugsFile)
            f = try load([FixSeed].self, fixes, fixesFile)
            e = try load([EducationSeed].self, education, educationFile)
        }
        return SeedCatalogue(
            bugs: b.map { Bug(id: $0.id, slug: $0.slug, title: $0.title, description: $0.description, color: $0.color, createdAt: loadedAt) },
            fixes: f.map { s in
                Fix(id: s.id, number: s.number, bugId: s.bugId, type: s.type, severity: s.severity,
                    interactionType: s.interactionType, prompt: s.prompt, inlineComment: s.inlineComment,
                    validation: s.validation, configurationData: s.configuration.map { $0.canonicalData() },
                    createdAt: loadedAt, retiredAt: s.retired == true ? loadedAt : nil)
            },
            education: e.map { MicroEducation(id: $0.id, bugSlug: $0.bugSlug, trigger: $0.trigger, body: $0.body, createdAt: loadedAt) })
    }
}

/// Any JSON value, kept so a configuration can be checked and re-encoded canonically (sorted keys).
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        // Each JSON kind decodes as exactly one of these, so the order only decides how many
        // failed attempts (thrown errors) a value costs: strings, the commonest, come first.
        if c.decodeNil() { self = .null }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The value as JSONEncoder writes it with sorted keys and unescaped slashes (see JSONBytes).
    public func canonicalData() -> Data { JSONBytes.canonical(self) }
}

extension SeedCatalogue {
    /// The three files read with JSONBytes and mapped by hand: the same seeds JSONDecoder gives,
    /// or nil when anything is not exactly as expected (then JSONDecoder runs and names the problem).
    enum Fast {
        /// The bugs and education are read on another core while the fixes are.
        static func seeds(bugs: Data, fixes: Data, education: Data) -> ([BugSeed], [FixSeed], [EducationSeed])? {
            let others = Parallel.Background { Others(bugs: list(bugs, bug), education: list(education, educationSeed)) }
            let f = list(fixes, fix)
            let o = others.wait()
            guard let b = o.bugs, let f, let e = o.education else { return nil }
            return (b, f, e)
        }

        struct Others: Sendable {
            let bugs: [BugSeed]?
            let education: [EducationSeed]?
        }

        static func list<T>(_ data: Data, _ make: ([String: JSONValue]) -> T?) -> [T]? {
            guard case .array(let items)? = JSONBytes.parse(data) else { return nil }
            var out: [T] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard case .object(let o) = item, let v = make(o) else { return nil }
                out.append(v)
            }
            return out
        }

        static func string(_ o: [String: JSONValue], _ k: String) -> String? {
            if case .string(let s)? = o[k] { return s }
            return nil
        }

        /// nil: absent or null; .some(nil): present but not a string (not accepted).
        static func optionalString(_ o: [String: JSONValue], _ k: String) -> String?? {
            switch o[k] {
            case nil, .null?: return .some(nil)
            case .string(let s)?: return .some(s)
            default: return nil
            }
        }

        static func uuid(_ o: [String: JSONValue], _ k: String) -> UUID? {
            string(o, k).flatMap { UUIDText.parse($0) ?? UUID(uuidString: $0) }
        }

        /// nil: absent or null (.some(nil)); a Bool; anything else is not accepted (nil).
        static func optionalBool(_ o: [String: JSONValue], _ k: String) -> Bool?? {
            switch o[k] {
            case nil, .null?: return .some(nil)
            case .bool(let b)?: return .some(b)
            default: return nil
            }
        }

        static func value<E: RawRepresentable>(_ o: [String: JSONValue], _ k: String) -> E? where E.RawValue == String {
            string(o, k).flatMap(E.init(rawValue:))
        }

        static func bug(_ o: [String: JSONValue]) -> BugSeed? {
            guard let id = uuid(o, "id"), let slug = string(o, "slug"), let title = string(o, "title"),
                  let description = string(o, "description"), let color = string(o, "color") else { return nil }
            return BugSeed(id: id, slug: slug, title: title, description: description, color: color)
        }

        static func fix(_ o: [String: JSONValue]) -> FixSeed? {
            guard let id = uuid(o, "id"), case .number(let n)? = o["number"], let number = Int(exactly: n),
                  let bugId = uuid(o, "bugId"), let type: FixType = value(o, "type"), let severity: FixSeverity = value(o, "severity"),
                  let interaction: InteractionType = value(o, "interactionType"), let prompt = string(o, "prompt"),
                  let comment = optionalString(o, "inlineComment"), let validation = optionalString(o, "validation"),
                  let retired = optionalBool(o, "retired") else { return nil }
            var configuration = o["configuration"]
            if configuration == .null { configuration = nil }
            return FixSeed(id: id, number: number, bugId: bugId, type: type, severity: severity, interactionType: interaction,
                           prompt: prompt, inlineComment: comment, validation: validation, configuration: configuration,
                           retired: retired)
        }

        static func educationSeed(_ o: [String: JSONValue]) -> EducationSeed? {
            guard let id = uuid(o, "id"), let slug = string(o, "bugSlug"), let trigger: EducationTrigger = value(o, "trigger"),
                  let body = string(o, "body") else { return nil }
            return EducationSeed(id: id, bugSlug: slug, trigger: trigger, body: body)
        }
    }
}
