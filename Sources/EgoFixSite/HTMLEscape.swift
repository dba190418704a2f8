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

    /// `escape(s)` in UTF-8 pieces, handed to `emit` in order: runs of the text itself and the
    /// replacements. The characters escaping changes are all ASCII, so working on UTF-8 bytes is
    /// the same as working per Unicode scalar.
    @inline(__always)
    static func pieces(_ s: String, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        var s = s
        s.withUTF8 { buf in
            var runStart = 0
            var i = 0
            let n = buf.count
            while i < n {
                let b = buf[i]
                let replacement: StaticString?
                switch b {
                case 0x26: replacement = "&amp;"
                case 0x3c: replacement = "&lt;"
                case 0x3e: replacement = "&gt;"
                case 0x22: replacement = "&quot;"
                case 0x27: replacement = "&#39;"
                case 0x09, 0x0a, 0x0d: i += 1; continue
                case 0x7f: replacement = nil
                default:
                    if b < 0x20 { replacement = nil } else { i += 1; continue }
                }
                if i > runStart { emit(UnsafeBufferPointer(rebasing: buf[runStart..<i])) }
                if let r = replacement { emit(UnsafeBufferPointer(start: r.utf8Start, count: r.utf8CodeUnitCount)) }
                i += 1
                runStart = i
            }
            if n > runStart { emit(UnsafeBufferPointer(rebasing: buf[runStart..<n])) }
        }
    }
}
