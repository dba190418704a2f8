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
