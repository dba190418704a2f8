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

    /// Decodes the three files with JSONDecoder. Catalogue timestamps are fixed (`loadedAt`), so the result is
    /// deterministic; a fix marked `"retired": true` gets `retiredAt` = `loadedAt` (the store keeps its first
    /// retirement date). Throws `SeedLint.Failure` naming the file (and the entry and field, where JSONDecoder
    /// says) when one does not decode; run the lint for every problem at once.
    public static func decode(bugs: Data, fixes: Data, education: Data,
                              loadedAt: Date = Date(timeIntervalSince1970: 0)) throws -> SeedCatalogue {
        let d = JSONDecoder()
        func load<T: Decodable>(_ type: T.Type, _ data: Data, _ file: String) throws -> T {
            do { return try d.decode(T.self, from: data) } catch {
                throw SeedLint.Failure(issues: [issue(file: file, error)])
            }
        }
        let b = try load([BugSeed].self, bugs, bugsFile)
        let f = try load([FixSeed].self, fixes, fixesFile)
        let e = try load([EducationSeed].self, education, educationFile)
        return SeedCatalogue(
            bugs: b.map { Bug(id: $0.id, slug: $0.slug, title: $0.title, description: $0.description, color: $0.color, createdAt: loadedAt) },
            fixes: try f.map { s in
                Fix(id: s.id, number: s.number, bugId: s.bugId, type: s.type, severity: s.severity,
                    interactionType: s.interactionType, prompt: s.prompt, inlineComment: s.inlineComment,
                    validation: s.validation, configurationData: try s.configuration.map { try $0.canonicalData() },
                    createdAt: loadedAt, retiredAt: s.retired == true ? loadedAt : nil)
            },
            education: e.map { MicroEducation(id: $0.id, bugSlug: $0.bugSlug, trigger: $0.trigger, body: $0.body, createdAt: loadedAt) })
    }

    /// A decoding error as one lint line: the entry (by its place in the file, from 1), the field, and what is wrong.
    static func issue(file: String, _ error: Error) -> SeedLint.Issue {
        let path: [CodingKey], message: String
        switch error as? DecodingError {
        case .keyNotFound(let key, let ctx)?: (path, message) = (ctx.codingPath + [key], "is missing")
        case .valueNotFound(_, let ctx)?: (path, message) = (ctx.codingPath, "is missing")
        case .dataCorrupted(let ctx)? where ctx.codingPath.isEmpty: (path, message) = ([], "not valid JSON")
        case .typeMismatch(_, let ctx)?, .dataCorrupted(let ctx)?: (path, message) = (ctx.codingPath, ctx.debugDescription)
        default: (path, message) = ([], "\(error)")
        }
        var entry = "-", fields = path[...]
        if let i = fields.first?.intValue {
            entry = "entry \(i + 1)"
            fields = fields.dropFirst()
        }
        let field = fields.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return SeedLint.Issue(file: file, entry: entry, field: field.isEmpty ? "-" : field,
                              message: message.split(whereSeparator: \.isNewline).joined(separator: " "))
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

    /// The value as JSONEncoder writes it with sorted keys and unescaped slashes: no spaces, whole numbers
    /// as integers, non-ASCII text as UTF-8. Throws only for a number JSON cannot hold (NaN, infinity).
    public func canonicalData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
