/// Escaping for text embedded in SVG and Atom (XML 1.0), per Unicode scalar.
///
/// Control characters are removed (C0 except tab, newline and carriage return; DEL; C1), as are the
/// noncharacters U+FFFE and U+FFFF, which XML 1.0 does not allow.
public enum XMLEscape {
    public static func escape(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&apos;".unicodeScalars)
            default:
                if isRemoved(u) { continue }
                out.append(u)
            }
        }
        return String(out)
    }

    /// The text with removed characters dropped and nothing escaped (for measuring and drawing).
    public static func clean(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars where !isRemoved(u) { out.append(u) }
        return String(out)
    }

    static func isRemoved(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x20 { return !(u == "\t" || u == "\n" || u == "\r") }
        if v >= 0x7f && v <= 0x9f { return true }
        return v == 0xfffe || v == 0xffff
    }
}
