/// UTF-8 text built by appending, for the generated SVG and tables: no intermediate strings, and
/// escaping that works on bytes (the characters escaping changes are all ASCII, so this is the
/// same as escaping per Unicode scalar).
struct ByteText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Decimal digits, written straight into the bytes.
    mutating func append(_ n: Int) {
        if n >= 0 && n < 10 {
            bytes.append(UInt8(0x30 + n))
            return
        }
        if n < 0 { bytes.append(0x2d) }
        // Lowest digit first, then turned round.
        let start = bytes.count
        var v = n.magnitude
        repeat {
            bytes.append(UInt8(0x30 + v % 10))
            v /= 10
        } while v > 0
        bytes[start...].reverse()
    }

    /// `XMLEscape.escape(s)`.
    mutating func appendXMLEscaped(_ s: String) {
        var s = s
        // Most text has nothing to escape: then it goes in whole.
        let plain = s.withUTF8 { buf -> Bool? in
            var clean = true
            for b in buf {
                if b >= 0x80 { return nil }
                if b < 0x20 || b == 0x26 || b == 0x3c || b == 0x3e || b == 0x22 || b == 0x27 || b == 0x7f { clean = false }
            }
            if clean { bytes.append(contentsOf: buf) }
            return clean
        }
        if plain == true { return }
        guard plain != nil else {
            append(XMLEscape.escape(s))
            return
        }
        s.withUTF8 { buf in
            for b in buf {
                switch b {
                case 0x26: append("&amp;")
                case 0x3c: append("&lt;")
                case 0x3e: append("&gt;")
                case 0x22: append("&quot;")
                case 0x27: append("&apos;")
                case 0x09, 0x0a, 0x0d: bytes.append(b)
                default: if b >= 0x20 && b != 0x7f { bytes.append(b) }
                }
            }
        }
    }

    /// `HTMLEscape.escape(s)`.
    mutating func appendHTMLEscaped(_ s: String) {
        TemplateRenderer.appendEscaped(s, to: &bytes)
    }
}
