import Foundation

/// A value a template can read: what page models give their templates.
///
/// - `text`: printed with `{{name}}`, escaped per Unicode scalar. Numbers become text.
/// - `html`: rendered Markdown or generated SVG, printed raw with `{{{name}}}` (only these).
/// - `bool`, `list`, `object`: for sections (`{{#name}}...{{/name}}`).
/// - `null`: "present, but nothing": prints nothing and is false in a section. A key a template
///   reads must be in the context, so optional values are given as `null` rather than left out.
///
/// Empty text and empty HTML are false in a section, like `null`.
///
/// Pages build these directly (`["title": .text(t), "items": .list(rows)]`); an object is an
/// ordered list of fields read by a linear scan, which for the dozen keys a page object has is
/// faster than hashing, and costs one allocation to build. The first field with a name wins.
public enum TemplateValue: Sendable {
    case text(String)
    case html(RawHTML)
    case bool(Bool)
    case list([TemplateValue])
    case object(TemplateObject)
    case null

    /// Text, or null when there is none.
    public static func text(_ s: String?) -> TemplateValue { s.map { .text($0) } ?? .null }
    /// HTML, or null when there is none.
    public static func html(_ h: RawHTML?) -> TemplateValue { h.map { .html($0) } ?? .null }
    /// An object, or null when there is none.
    public static func object(_ o: TemplateObject?) -> TemplateValue { o.map { .object($0) } ?? .null }

    /// The field `key` of an object; nil for anything else or a missing field.
    @inline(__always)
    func field(_ key: String) -> TemplateValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    /// A word for the kind, used in errors ("a list").
    var kindDescription: String {
        switch self {
        case .text: return "text"
        case .html: return "HTML (Markdown or SVG)"
        case .bool: return "a true/false value"
        case .list: return "a list"
        case .object: return "an object"
        case .null: return "null"
        }
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
                     ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(TemplateObject(fields: elements))
    }
}

/// An object for a template: named fields in order.
public struct TemplateObject: Sendable, ExpressibleByDictionaryLiteral {
    /// A name and its value. (A plain pair, so a literal's list of pairs is kept as it is, not copied.)
    public typealias Field = (String, TemplateValue)

    public var fields: [Field] = []

    public init() {}

    public init(fields: [Field]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        fields = elements
    }

    public subscript(key: String) -> TemplateValue? {
        get {
            // The fields are read in place, not copied out one by one, and the names compared by
            // `FieldName.same` (most are short, so most comparisons are two words).
            let k = FieldName(key)
            return fields.withUnsafeBufferPointer { buf -> TemplateValue? in
                for i in buf.indices where k.same(as: buf[i].0) { return buf[i].1 }
                return nil
            }
        }
        set {
            fields.removeAll { $0.0 == key }
            if let newValue { fields.append((key, newValue)) }
        }
    }

    /// Adds a field (without checking for an earlier one of the same name: the earlier one wins).
    public mutating func append(_ key: String, _ value: TemplateValue) {
        fields.append((key, value))
    }
}

/// A field name, compared with others without calling into String's comparison when both are
/// short. A String of at most 15 UTF-8 bytes made by the standard library is stored inline in its
/// two words (the bytes, the count and flags, nothing else), so two such strings are equal exactly
/// when their words are; a longer one (or a short one stored out of line) is compared as a String.
struct FieldName {
    let key: String
    private let words: (UInt64, UInt64)

    @inline(__always) init(_ key: String) {
        self.key = key
        words = FieldName.words(key)
    }

    @inline(__always) static func words(_ s: String) -> (UInt64, UInt64) { unsafeBitCast(s, to: (UInt64, UInt64).self) }

    /// Whether a String's words hold it inline (the small-string flag, bit 61 of the second word).
    @inline(__always) static func isInline(_ w: (UInt64, UInt64)) -> Bool { w.1 & (1 << 61) != 0 }

    @inline(__always) func same(as other: String) -> Bool {
        FieldName.same(words, FieldName.words(other)) ?? (other == key)
    }

    /// What two Strings' words say: equal when the words are, different when both are inline
    /// and the words are not, nil when the Strings themselves must be compared.
    @inline(__always) static func same(_ a: (UInt64, UInt64), _ b: (UInt64, UInt64)) -> Bool? {
        if a == b { return true }
        return isInline(a) && isInline(b) ? false : nil
    }
}

extension TemplateValue {
    /// Converts a `[String: Any]` tree (for tests and tools). Accepted leaves: `String`, `Substring`, `Character`, integers,
    /// `Double` (printed as Swift prints it), `Bool`, `RawHTML`, `TemplateValue`, `NSNull` and
    /// `Optional.none`; containers: arrays and `[String: Any]` dictionaries.
    public init(any value: Any) throws {
        self = try TemplateValue.convert(value, path: "")
    }

    private static func convert(_ value: Any, path: String) throws -> TemplateValue {
        switch value {
        case let v as TemplateValue: return v
        case let v as String: return .text(v)
        case let v as Substring: return .text(String(v))
        case let v as Character: return .text(String(v))
        case let v as Bool: return .bool(v)
        case let v as Int: return .text(String(v))
        case let v as Int64: return .text(String(v))
        case let v as Int32: return .text(String(v))
        case let v as UInt: return .text(String(v))
        case let v as Double: return .text(String(v))
        case let v as RawHTML: return .html(v)
        case is NSNull: return .null
        case let v as [String: Any]:
            // Fields in key order, so the same dictionary always gives the same object.
            var out = TemplateObject()
            out.fields.reserveCapacity(v.count)
            for key in v.keys.sorted() {
                guard let element = v[key] else { continue }
                out.append(key, try convert(element, path: path.isEmpty ? key : path + "." + key))
            }
            return .object(out)
        case let v as [Any]:
            var out: [TemplateValue] = []
            out.reserveCapacity(v.count)
            for (i, element) in v.enumerated() {
                out.append(try convert(element, path: path + "[\(i)]"))
            }
            return .list(out)
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                guard let wrapped = mirror.children.first?.value else { return .null }
                return try convert(wrapped, path: path)
            }
            throw TemplateError.unsupportedValue(path: path.isEmpty ? "(context)" : path,
                                                 type: String(describing: type(of: value)))
        }
    }
}
