import Foundation

/// What `TemplateParser` reads: the template's Characters, or its Unicode scalars when each
/// Character is one scalar. Both answer the same questions the same way there.
protocol LayoutUnit: Equatable {
    /// The ASCII value, as `Character.asciiValue` gives it ("\r\n" counts as "\n").
    var asciiValue: UInt8? { get }
    var isNewline: Bool { get }
    var isWhitespace: Bool { get }
    /// The unit for an ASCII character.
    init(ascii: UInt8)
    /// The UTF-8 bytes of a run of units.
    static func bytes(_ units: [Self]) -> [UInt8]
    static func string(_ units: [Self]) -> String
}

extension Character: LayoutUnit {
    init(ascii: UInt8) { self.init(Unicode.Scalar(ascii)) }
    static func bytes(_ units: [Character]) -> [UInt8] { Array(String(units).utf8) }
    static func string(_ units: [Character]) -> String { String(units) }
}

/// A Unicode scalar standing for the Character it is (in text where every Character is one
/// scalar), answering as `Character` answers for it.
struct ScalarUnit: LayoutUnit {
    let scalar: Unicode.Scalar

    init(_ scalar: Unicode.Scalar) { self.scalar = scalar }
    init(ascii: UInt8) { scalar = Unicode.Scalar(ascii) }

    var asciiValue: UInt8? { scalar.isASCII ? UInt8(scalar.value) : nil }
    /// `Character.isNewline`: "\n", vertical tab, form feed, "\r", U+0085, U+2028, U+2029.
    var isNewline: Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
    /// `Character.isWhitespace`: the scalar's White_Space property.
    var isWhitespace: Bool {
        scalar.isASCII ? (scalar.value >= 0x09 && scalar.value <= 0x0D) || scalar.value == 0x20 : scalar.properties.isWhitespace
    }

    static func bytes(_ units: [ScalarUnit]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        for u in units {
            if u.scalar.isASCII { out.append(UInt8(u.scalar.value)) } else { out.append(contentsOf: String(u.scalar).utf8) }
        }
        return out
    }

    static func string(_ units: [ScalarUnit]) -> String { String(decoding: bytes(units), as: UTF8.self) }
}
