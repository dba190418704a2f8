import Foundation

/// A value a template can read. Page models hand templates either this tree or a `[String: Any]`
/// dictionary built from the same few kinds (converted with `TemplateValue(any:)`).
///
/// - `text`: printed with `{{name}}`, escaped per Unicode scalar. Numbers become text.
/// - `html`: rendered Markdown or generated SVG, printed raw with `{{{name}}}` (only these).
/// - `bool`, `list`, `object`: for sections (`{{#name}}...{{/name}}`).
/// - `null`: "present, but nothing": prints nothing and is false in a section. A key a template
///   reads must be in the context, so optional values are given as `null` rather than left out.
///
/// Empty text and empty HTML are false in a section, like `null`.
public indirect enum TemplateValue: Sendable, Equatable {
    case text(String)
    case html(RawHTML)
    case bool(Bool)
    case list([TemplateValue])
    case object([String: TemplateValue])
    case null

    /// Converts a `[String: Any]` tree. Accepted leaves: `String`, `Substring`, `Character`, integers,
    /// `Double` (printed as Swift prints it), `Bool`, `RawHTML`, `TemplateValue`, `NSNull` and
    /// `Optional.none`; containers: arrays and `[String: Any]` dictionaries.
    public init(any value: Any) throws {
        self = try TemplateValue.convert(value, path: "")
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
            var out: [String: TemplateValue] = [:]
            out.reserveCapacity(v.count)
            for (key, element) in v {
                out[key] = try convert(element, path: path.isEmpty ? key : path + "." + key)
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
