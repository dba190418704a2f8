/// Escaping for text embedded in SVG and Atom (XML 1.0), per Unicode scalar.
///
/// Control characters are removed (C0 except tab, newline and carriage return; DEL; C1), as are the
/// noncharacters U+FFFE and U+FFFF, which XML 1.0 does not allow.
public enum XMLEscape {
    public static func escape(_ s: String) -> String {
        asciiEscaped(s) ?? escapeScalars(s)
    }

    /// `escape` for text that is all ASCII, a byte at a time (nil for any other text): the text
    /// itself when nothing in it changes, as most text is.
    static func asciiEscaped(_ s: String) -> String? {
        var s = s
        switch s.withUTF8({ scan($0, changes: needsEscaping) }) {
        case .other: return nil
        case .unchanged: return s
        case .changes:
            var out: [UInt8] = []
            out.reserveCapacity(s.utf8.count + 16)
            for b in s.utf8 {
                switch b {
                case 0x26: out += [0x26, 0x61, 0x6d, 0x70, 0x3b]  // &amp;
                case 0x3c: out += [0x26, 0x6c, 0x74, 0x3b]  // &lt;
                case 0x3e: out += [0x26, 0x67, 0x74, 0x3b]  // &gt;
                case 0x22: out += [0x26, 0x71, 0x75, 0x6f, 0x74, 0x3b]  // &quot;
                case 0x27: out += [0x26, 0x61, 0x70, 0x6f, 0x73, 0x3b]  // &apos;
                default: if !isRemovedASCII(b) { out.append(b) }
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    enum Scan { case unchanged, changes, other }

    /// Whether `bytes` are all ASCII (`.other` when not) and any of them is one `changes` picks.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, changes: (UInt8) -> Bool) -> Scan {
        var changed = false
        for b in bytes {
            if b >= 0x80 { return .other }
            if changes(b) { changed = true }
        }
        return changed ? .changes : .unchanged
    }

    @inline(__always) static func isRemovedASCII(_ b: UInt8) -> Bool { (b < 0x20 && b != 0x09 && b != 0x0a && b != 0x0d) || b == 0x7f }

    @inline(__always) static func needsEscaping(_ b: UInt8) -> Bool {
        isRemovedASCII(b) || b == 0x26 || b == 0x3c || b == 0x3e || b == 0x22 || b == 0x27
    }

    /// `escape`, a Unicode scalar at a time.
    static func escapeScalars(_ s: String) -> String {
        HTMLEscape.escapeScalars(s, apostrophe: "&apos;", removed: isRemoved)
    }

    /// The text with removed characters dropped and nothing escaped (for measuring and drawing).
    public static func clean(_ s: String) -> String {
        var s = s
        switch s.withUTF8({ scan($0, changes: isRemovedASCII) }) {
        case .unchanged: return s
        case .changes: return String(decoding: s.utf8.filter { !isRemovedASCII($0) }, as: UTF8.self)
        case .other: return cleanScalars(s)
        }
    }

    /// `clean`, a Unicode scalar at a time.
    static func cleanScalars(_ s: String) -> String {
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
