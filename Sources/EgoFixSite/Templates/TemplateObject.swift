import Foundation

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
