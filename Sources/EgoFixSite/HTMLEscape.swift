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

    /// Whether any of the eight bytes in `w` is one escaping changes (or a tab, newline or
    /// carriage return, which it keeps): a zero-byte test on `w` against each of them.
    @inline(__always)
    static func mayNeedEscaping(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let below20 = (w &- ones &* 0x20) & ~w & highs != 0
        return below20 || hasZeroByte(w ^ (ones &* 0x26)) || hasZeroByte(w ^ (ones &* 0x3c)) || hasZeroByte(w ^ (ones &* 0x3e))
            || hasZeroByte(w ^ (ones &* 0x22)) || hasZeroByte(w ^ (ones &* 0x27)) || hasZeroByte(w ^ (ones &* 0x7f))
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
                // Eight plain bytes at a time: none of & < > " ' DEL and nothing below 0x20.
                if i + 8 <= n, let base = buf.baseAddress,
                   !HTMLEscape.mayNeedEscaping(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
                    i += 8
                    continue
                }
                let end = min(i + 8, n)
                while i < end {
                    let b = buf[i]
                    let replacement: StaticString?
                    switch b {
                    case 0x26: replacement = "&amp;"
                    case 0x3c: replacement = "&lt;"
                    case 0x3e: replacement = "&gt;"
                    case 0x22: replacement = "&quot;"
                    case 0x27: replacement = "&#39;"
                    case 0x7f: replacement = nil
                    default:
                        if b < 0x20 && b != 0x09 && b != 0x0a && b != 0x0d {
                            replacement = nil
                        } else {
                            i += 1
                            continue
                        }
                    }
                    if i > runStart { emit(UnsafeBufferPointer(rebasing: buf[runStart..<i])) }
                    if let r = replacement { emit(UnsafeBufferPointer(start: r.utf8Start, count: r.utf8CodeUnitCount)) }
                    i += 1
                    runStart = i
                }
            }
            if n > runStart { emit(UnsafeBufferPointer(rebasing: buf[runStart..<n])) }
        }
    }
}
