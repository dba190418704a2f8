/// The shapes of names egofix checks (a bug's colour and slug, a content file's name), read byte
/// by byte. They were regular expressions, whose compilation alone was a noticeable part of a build
/// (docs/performance.md); these also take only ASCII digits where `\d` took any Unicode digit.
public enum NameShape {
    /// `#rrggbb`: a hash and six hex digits.
    public static func isHexColor(_ s: String) -> Bool {
        let b = Array(s.utf8)
        return b.count == 7 && b[0] == UInt8(ascii: "#") && b.dropFirst().allSatisfy(isHexDigit)
    }

    /// Lowercase words of letters and digits joined by single hyphens: `ego-defense`, `bug2`.
    public static func isSlug(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, let last = b.last, isLowerOrDigit(first), isLowerOrDigit(last) else { return false }
        return zip(b, b.dropFirst()).allSatisfy { a, c in
            c == UInt8(ascii: "-") ? a != UInt8(ascii: "-") : isLowerOrDigit(c)
        }
    }

    /// A page name: a lowercase letter or digit, then letters, digits and hyphens.
    public static func isPageName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, isLowerOrDigit(first) else { return false }
        return b.allSatisfy { isLowerOrDigit($0) || $0 == UInt8(ascii: "-") }
    }

    /// An ISO week name, `2026-W47`: four digits, `-W`, two digits.
    public static func isISOWeekName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 8, b[4] == UInt8(ascii: "-"), b[5] == UInt8(ascii: "W") else { return false }
        return [0, 1, 2, 3, 6, 7].allSatisfy { isDigit(b[$0]) }
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    static func isLowerOrDigit(_ c: UInt8) -> Bool { isDigit(c) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) }

    static func isHexDigit(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"))
    }
}
