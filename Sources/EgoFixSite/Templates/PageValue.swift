/// The page models' own value tree: what `TemplateValue` is, built without dynamic casts or hashing.
///
/// Pages build these directly (`["title": .text(t), "items": .list(rows)]`); an object is an
/// ordered list of fields read by a linear scan, which for the dozen keys a page object has is
/// faster than hashing, and costs one allocation to build. The first field with a name wins.
enum PageValue: Sendable {
    case text(String)
    case html(RawHTML)
    case bool(Bool)
    case list([PageValue])
    case object(PageObject)
    case null

    /// Text, or null when there is none.
    static func text(_ s: String?) -> PageValue { s.map { .text($0) } ?? .null }
    /// HTML, or null when there is none.
    static func html(_ h: RawHTML?) -> PageValue { h.map { .html($0) } ?? .null }
    /// An object, or null when there is none.
    static func object(_ o: PageObject?) -> PageValue { o.map { .object($0) } ?? .null }

    init(_ value: TemplateValue) {
        switch value {
        case .text(let s): self = .text(s)
        case .html(let h): self = .html(h)
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        case .list(let items): self = .list(items.map(PageValue.init))
        case .object(let dict):
            var o = PageObject()
            o.fields.reserveCapacity(dict.count)
            for (k, v) in dict { o.fields.append((k, PageValue(v))) }
            self = .object(o)
        }
    }

    /// The field `key` of an object; nil for anything else or a missing field.
    @inline(__always)
    func field(_ key: String) -> PageValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    /// A word for the kind, used in errors ("a list"); the same words as `TemplateValue`.
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

extension PageValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
                     ExpressibleByDictionaryLiteral {
    init(stringLiteral value: String) { self = .text(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: PageValue...) { self = .list(elements) }
    init(dictionaryLiteral elements: (String, PageValue)...) {
        self = .object(PageObject(fields: elements))
    }
}

/// An object for a template: named fields in order.
struct PageObject: Sendable, ExpressibleByDictionaryLiteral {
    /// A name and its value. (A plain pair, so a literal's list of pairs is kept as it is, not copied.)
    typealias Field = (String, PageValue)

    var fields: [Field] = []

    init() {}

    init(fields: [Field]) { self.fields = fields }

    init(dictionaryLiteral elements: (String, PageValue)...) {
        fields = elements
    }

    subscript(key: String) -> PageValue? {
        get {
            // The fields are read in place, not copied out one by one, and the names compared by
            // `FieldName.same` (most are short, so most comparisons are two words).
            let k = FieldName(key)
            return fields.withUnsafeBufferPointer { buf -> PageValue? in
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
    mutating func append(_ key: String, _ value: PageValue) {
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
