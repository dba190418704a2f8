import Foundation

/// HTML escaping per Unicode scalar. Escaping per Swift `Character` would let `"` or `<`
/// followed by a combining mark (U+0301) through, because the pair is one Character.
public enum HTMLEscape {
    public static func escape(_ s: String) -> String {
        // Control characters other than tab, newline and carriage return are dropped.
        escapeScalars(s, apostrophe: "&#39;") { u in (u.value < 0x20 && u != "\t" && u != "\n" && u != "\r") || u.value == 0x7f }
    }

    /// `s` a Unicode scalar at a time: & < > and " as entities, ' as `apostrophe`, and the
    /// scalars `removed` picks left out (XML's escaping is this with its own two).
    static func escapeScalars(_ s: String, apostrophe: String, removed: (Unicode.Scalar) -> Bool) -> String {
        var out = String.UnicodeScalarView()
        out.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: apostrophe.unicodeScalars)
            default:
                if removed(u) { continue }
                out.append(u)
            }
        }
        return String(out)
    }

    /// Whether any of the eight bytes in `w` may be one escaping changes (& < > " ' DEL and
    /// anything below 0x20, tab, newline and carriage return included, which it keeps). Never
    /// false for such a byte; true now and then for others ("#", "$", "%" and "=" sit in the
    /// ranges tested, and a byte below 0x20 can mark the one after it), which only sends the text
    /// to the byte-by-byte path. Bytes of 0x80 and above (UTF-8 beyond ASCII) never need escaping.
    @inline(__always)
    static func mayNeedEscaping(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // Each byte's low seven bits: sums below stay within their byte.
        let x = w & ~highs
        let below20 = (x &- ones &* 0x20) & ~x
        // Bit 7 of x + (0x80 - a) is set exactly when the byte is at least a.
        let quoteToApostrophe = (x &+ ones &* (0x80 - 0x22)) & ~(x &+ ones &* (0x80 - 0x28))  // 0x22...0x27
        let angles = (x &+ ones &* (0x80 - 0x3c)) & ~(x &+ ones &* (0x80 - 0x3f))  // 0x3c...0x3e
        let delete = x &+ ones  // 0x7f
        return (below20 | quoteToApostrophe | angles | delete) & ~w & highs != 0
    }

    /// Whether escaping leaves the bytes as they are, looked at eight at a time: a short text is
    /// padded with a letter to a word, and the last eight bytes of a longer one are read as a word
    /// (overlapping the ones before) rather than one by one. A tab, newline or carriage return
    /// counts as not plain (`mayNeedEscaping`); the slow path keeps them.
    @inline(__always)
    static func isPlain(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buf.baseAddress else { return true }
        let n = buf.count
        let raw = UnsafeRawPointer(base)
        guard n >= 8 else {
            var w: UInt64 = 0x6161_6161_6161_6161
            for k in 0..<n { w = w & ~(0xff << UInt64(8 * k)) | UInt64(base[k]) << UInt64(8 * k) }
            return !mayNeedEscaping(w)
        }
        var i = 0
        while i + 8 <= n {
            if mayNeedEscaping(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
            i += 8
        }
        return i == n || !mayNeedEscaping(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
    }

    /// `escape(s)` in UTF-8 pieces, handed to `emit` in order: runs of the text itself and the
    /// replacements. The characters escaping changes are all ASCII, so working on UTF-8 bytes is
    /// the same as working per Unicode scalar.
    @inline(__always)
    static func pieces(_ s: String, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        // A native String's bytes are read in place (no copy of the String, which `withUTF8` needs).
        if s.utf8.withContiguousStorageIfAvailable({ pieces(utf8: $0, emit) }) != nil { return }
        var s = s
        s.withUTF8 { pieces(utf8: $0, emit) }
    }

    /// `pieces` for UTF-8 bytes.
    @inline(__always)
    static func pieces(utf8 buf: UnsafeBufferPointer<UInt8>, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        if isPlain(buf) {
            emit(buf)
            return
        }
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
