import Foundation

/// UTF-8 text built by appending, for the generated SVG, tables and the manifest: no intermediate
/// strings, and escaping that works on bytes (the characters escaping changes are all ASCII, so this
/// is the same as escaping per Unicode scalar).
///
/// The bytes live in one buffer it owns (it cannot be copied), so an append is a bounds check and
/// a copy, with none of an array's uniqueness checks.
struct ByteText: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(32, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// The bytes as `Data`, which takes the buffer over (no copy).
    consuming func data() -> Data {
        let (p, n) = (base, count)
        discard self
        return Data(bytesNoCopy: p, count: n, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// The number of bytes so far.
    var length: Int { count }

    /// The byte at `i` (which must be below `length`).
    subscript(i: Int) -> UInt8 { base[i] }

    /// Puts `bytes` in at `index`, moving what follows along.
    mutating func insert(_ bytes: [UInt8], at index: Int) {
        bytes.withUnsafeBufferPointer { buf in
            guard let start = buf.baseAddress, !buf.isEmpty else { return }
            _ = room(buf.count)
            memmove(base + index + buf.count, base + index, count - index)  // the regions overlap
            (base + index).update(from: start, count: buf.count)
            count += buf.count
        }
    }

    /// Where the next `n` bytes go (the buffer grows when they do not fit).
    @inline(__always) private mutating func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity - count < n { grow(count + n) }
        return base + count
    }

    private mutating func grow(_ needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        room(bytes.count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) mutating func append(byte: UInt8) {
        room(1).pointee = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        room(n).update(from: s.utf8Start, count: n)
        count += n
    }

    /// Text from a variable. (Literals go to the `StaticString` overload, which copies without
    /// looking at the string's storage; a separate label keeps them from landing here.)
    mutating func append(string s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for b in s.utf8 { append(byte: b) }
        }
    }

    /// Decimal digits, written straight into the bytes.
    mutating func append(_ n: Int) {
        // Numbers below 1000 (coordinates, counts) without a loop.
        if n >= 0 && n < 1000 {
            let p = room(3)
            if n < 10 {
                p[0] = UInt8(truncatingIfNeeded: 0x30 &+ n)
                count += 1
            } else if n < 100 {
                p[0] = UInt8(truncatingIfNeeded: 0x30 &+ n / 10)
                p[1] = UInt8(truncatingIfNeeded: 0x30 &+ n % 10)
                count += 2
            } else {
                p[0] = UInt8(truncatingIfNeeded: 0x30 &+ n / 100)
                p[1] = UInt8(truncatingIfNeeded: 0x30 &+ n / 10 % 10)
                p[2] = UInt8(truncatingIfNeeded: 0x30 &+ n % 10)
                count += 3
            }
            return
        }
        // Digits lowest first into a scratch area at the end of the room, then copied in order.
        let p = room(21)
        var v = n.magnitude
        var digits = 0
        let scratch = p + 20
        repeat {
            (scratch - digits).pointee = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            v /= 10
            digits += 1
        } while v > 0
        var at = p
        if n < 0 {
            at.pointee = 0x2d
            at += 1
        }
        at.update(from: scratch - digits + 1, count: digits)
        count += digits + (n < 0 ? 1 : 0)
    }

    /// `XMLEscape.escape(s)`.
    mutating func appendXMLEscaped(_ s: String) {
        var s = s
        // Most text has nothing to escape: then it goes in whole.
        let plain = s.withUTF8 { buf -> Bool? in
            var clean = true
            // Eight bytes at a time while they are plain ASCII with nothing to escape.
            var start = 0
            if let base = buf.baseAddress {
                while start + 8 <= buf.count {
                    let w = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
                    if w & 0x8080_8080_8080_8080 != 0 || HTMLEscape.mayNeedEscaping(w) { break }
                    start += 8
                }
            }
            for b in UnsafeBufferPointer(rebasing: buf[start...]) {
                if b >= 0x80 { return nil }
                if b < 0x20 || b == 0x26 || b == 0x3c || b == 0x3e || b == 0x22 || b == 0x27 || b == 0x7f { clean = false }
            }
            if clean { append(buf) }
            return clean
        }
        if plain == true { return }
        guard plain != nil else {
            append(string: XMLEscape.escape(s))
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
                case 0x09, 0x0a, 0x0d: append(byte: b)
                default: if b >= 0x20 && b != 0x7f { append(byte: b) }
                }
            }
        }
    }

    /// `HTMLEscape.escape(s)`.
    mutating func appendHTMLEscaped(_ s: String) {
        HTMLEscape.pieces(s) { append($0) }
    }
}
