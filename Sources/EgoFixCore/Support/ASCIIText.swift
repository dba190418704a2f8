/// A short string put together on the stack: labels, keys and paths ("2026-W47",
/// "weeks/2026-W47/index.html", "3 applied, 1 skipped, 0 failed, 2 crashes"). Each part is a few
/// stores rather than an interpolation's formatting machinery, and the String is made
/// once at the end (held in its own two words when it is at most 15 bytes, one allocation
/// otherwise). Text longer than the 64 bytes kept on the stack goes on in an ordinary String.
public struct ASCIIText {
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    /// All of the text, once it outgrew the storage.
    private var long: String?
    static let capacity = 64

    public init() {}

    @inline(__always) public mutating func append(byte b: UInt8) {
        guard long == nil, count < ASCIIText.capacity else { return appendLong(String(decoding: CollectionOfOne(b), as: UTF8.self)) }
        withUnsafeMutableBytes(of: &storage) { $0[count] = b }
        count += 1
    }

    /// A literal's bytes.
    @inline(__always) public mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { u in
            let n = u.count
            guard long == nil, count + n <= ASCIIText.capacity, let from = u.baseAddress else {
                if n > 0 { appendLong(String(decoding: u, as: UTF8.self)) }
                return
            }
            let at = count
            withUnsafeMutableBytes(of: &storage) { buf in
                guard let to = buf.baseAddress else { return }
                (to + at).copyMemory(from: from, byteCount: n)
            }
            count += n
        }
    }

    /// A string's UTF-8 bytes. (Labelled, so a literal goes to the `StaticString` overload.)
    public mutating func append(text s: String) {
        var s = s
        let stored = s.withUTF8 { u -> Bool in
            guard long == nil, count + u.count <= ASCIIText.capacity, let from = u.baseAddress else { return u.isEmpty }
            let at = count
            withUnsafeMutableBytes(of: &storage) { buf in
                guard let to = buf.baseAddress else { return }
                (to + at).copyMemory(from: from, byteCount: u.count)
            }
            count += u.count
            return true
        }
        if !stored { appendLong(s) }
    }

    /// `n` in decimal, as `String(n)` writes it; at least `width` digits, zero-padded after the
    /// sign (as `%0*d` pads, the sign counted in the width).
    @inline(__always) public mutating func append(_ n: Int, width: Int = 0) {
        // Dates, counts and numbers of fixes: up to four digits, written in place as one word
        // (the bytes after them in the word are zeros, as the storage there already is).
        guard n >= 0 && n < 10_000 && width <= 4, long == nil, count + 4 <= ASCIIText.capacity else {
            return append(text: ASCIIText.decimal(n, width: width))
        }
        let length = max(n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : 4, width)
        let d0 = UInt32(truncatingIfNeeded: n / 1000), d1 = UInt32(truncatingIfNeeded: n / 100 % 10)
        let d2 = UInt32(truncatingIfNeeded: n / 10 % 10), d3 = UInt32(truncatingIfNeeded: n % 10)
        // The four digits, most significant first in memory, then the first 4 - length dropped.
        let four = (0x30 + d0) | (0x30 + d1) << 8 | (0x30 + d2) << 16 | (0x30 + d3) << 24
        let word = four >> (8 * UInt32(4 - length))
        let at = count
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: word.littleEndian, toByteOffset: at, as: UInt32.self) }
        count = at + length
    }

    /// The same as a String, for any number.
    static func decimal(_ n: Int, width: Int) -> String {
        let digits = String(n.magnitude)
        let pad = String(repeating: "0", count: max(0, width - (n < 0 ? 1 : 0) - digits.count))
        return (n < 0 ? "-" : "") + pad + digits
    }

    private mutating func appendLong(_ s: String) {
        if long == nil { long = short }
        long?.append(s)
    }

    private var short: String {
        if count <= 15, let small = String.smallASCII((storage.0, storage.1), count: count) { return small }
        var s = storage
        let n = count
        return withUnsafeBytes(of: &s) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[..<n]), as: UTF8.self) }
    }

    public var string: String { long ?? short }
}

extension String {
    /// The String of `count` (at most 15) bytes held in `words` in memory order, the bytes after
    /// them zero, when they are all ASCII: made as the standard library holds such a string, in
    /// its own two words (the bytes, then a last byte for the kind and the count), without the
    /// validation `String(decoding:as:)` does byte by byte. Nil when the bytes are not all ASCII,
    /// or when this standard library does not hold strings that way (`smallASCIIWorks`).
    @inline(__always)
    static func smallASCII(_ words: (UInt64, UInt64), count: Int) -> String? {
        guard count >= 0, count <= 15, (words.0 | words.1) & 0x8080_8080_8080_8080 == 0, String.smallASCIIWorks else { return nil }
        return unsafeBitCast((words.0, words.1 | UInt64(0xE0 | count) << 56), to: String.self)
    }

    /// Whether strings of up to 15 ASCII bytes are held as `smallASCII` makes them (64-bit, little
    /// endian, the standard library's small-string form): checked once against literals.
    static let smallASCIIWorks: Bool = {
        guard MemoryLayout<String>.size == 16, 1.littleEndian == 1 else { return false }
        func words(_ s: StaticString) -> (UInt64, UInt64) {
            var w: (UInt64, UInt64) = (0, 0)
            let n = s.withUTF8Buffer { u in
                withUnsafeMutableBytes(of: &w) { buf in
                    for i in u.indices { buf[i] = u[i] }
                }
                return u.count
            }
            return (w.0, w.1 | UInt64(0xE0 | n) << 56)
        }
        func same(_ literal: String, _ s: StaticString) -> Bool {
            let a = unsafeBitCast(literal, to: (UInt64, UInt64).self), b = words(s)
            return a == b && unsafeBitCast(b, to: String.self) == literal
        }
        // A made-up string must also equal one the standard library makes at run time.
        let made = String(decoding: Array("weeks-W47".utf8), as: UTF8.self)
        return same("", "") && same("2026-11-22", "2026-11-22") && same("ab", "ab") && same("Week 2026-W47", "Week 2026-W47")
            && same("123456789012345", "123456789012345") && same(made, "weeks-W47")
    }()
}
