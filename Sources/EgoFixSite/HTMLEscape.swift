import Foundation

/// HTML escaping per Unicode scalar. Escaping per Swift `Character` would let `"` or `<`
/// followed by a combining mark (U+0301) through, because the pair is one Character.
public enum HTMLEscape {
    public static func escape(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            default:
                // Control characters other than tab, newline and carriage return are dropped.
                if u.value < 0x20 && u != "\t" && u != "\n" && u != "\r" { continue }
                if u.value == 0x7f { continue }
                out.append(u)
            }
        }
        return String(out)
    }
}
