import Foundation

/// A small PNG writer for share cards: 8-bit RGB, no interlace, exactly three chunks (IHDR, one
/// IDAT, IEND), so it carries no timestamp or text.
///
/// A card is a flat background with some text, so the writer is built for that: every row uses
/// the Up filter, so a pixel the same as the one above is three zero bytes, found by comparing
/// pixels rather than bytes; the zlib stream is one fixed-Huffman deflate block in which runs of
/// zeros are distance-one matches and everything else is a literal. That is a fraction of a
/// millisecond a card where libpng's adaptive filters and zlib at its default level took about
/// 30 ms; the file is larger. Same pixels, same bytes.
enum PNGEncoder {
    /// Encodes pixels in cairo's RGB24 layout (native-endian 32-bit words, 0x00RRGGBB), for widths up
    /// to 2^25 pixels (the Adler-32 sums are reduced once a row).
    static func encodeRGB24(pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> Data {
        // The whole file is made in one buffer: the signature, IHDR and the IDAT chunk's length and
        // type go in front of the zlib stream, which is written in place, its CRC and IEND after it.
        let front = PNGChunks.signature.count + 25 + 8, back = 4 + 12
        let (file, idat): (UnsafeMutablePointer<UInt8>, Int) = Deflate.literalCodes.withUnsafeBufferPointer { lit in
            Deflate.matchCodes.withUnsafeBufferPointer { match in
                Deflate.runCodes.withUnsafeBufferPointer { runs in
                    var z = Deflate(capacity: height * (1 + width * 3) * 9 / 8 + 1024, front: front, back: back,
                                    literals: lit, matches: match, runs: runs)
                    z.header()
                    z.rows(pixels: pixels, width: width, height: height, stride: stride)
                    return z.finish()
                }
            }
        }
        var at = 0
        func put(_ bytes: [UInt8]) {
            for b in bytes { file[at] = b; at += 1 }
        }
        func crc(from start: Int, count: Int) {
            var c = CRC32()
            c.update(UnsafeBufferPointer(start: file + start, count: count))
            put(bigEndian(c.value))
        }
        put(PNGChunks.signature)
        put(bigEndian(13) + Array("IHDR".utf8) + bigEndian(UInt32(width)) + bigEndian(UInt32(height)))
        put([8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, adaptive filters, no interlace
        crc(from: at - 17, count: 17)
        put(bigEndian(UInt32(idat)) + Array("IDAT".utf8))
        at += idat
        crc(from: front - 4, count: idat + 4)
        put(bigEndian(0) + Array("IEND".utf8))
        crc(from: at - 4, count: 4)
        return Data(bytesNoCopy: file, count: at, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    /// CRC-32 (PNG's, zlib's), eight bytes a step.
    struct CRC32 {
        static let tables: [UInt32] = {
            var t = [UInt32](repeating: 0, count: 8 * 256)
            for n in 0..<256 {
                var c = UInt32(n)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
                t[n] = c
            }
            for k in 1..<8 {
                for n in 0..<256 { t[k * 256 + n] = (t[(k - 1) * 256 + n] >> 8) ^ t[Int(t[(k - 1) * 256 + n] & 0xff)] }
            }
            return t
        }()
        private var c: UInt32 = 0xFFFF_FFFF

        mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
            CRC32.tables.withUnsafeBufferPointer { t in
                var c = self.c
                var i = 0
                let n = bytes.count
                while i + 8 <= n {
                    let lo = c ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                    c = t[7 * 256 + Int(lo & 0xff)] ^ t[6 * 256 + Int((lo >> 8) & 0xff)]
                        ^ t[5 * 256 + Int((lo >> 16) & 0xff)] ^ t[4 * 256 + Int(lo >> 24)]
                        ^ t[3 * 256 + Int(bytes[i + 4])] ^ t[2 * 256 + Int(bytes[i + 5])]
                        ^ t[256 + Int(bytes[i + 6])] ^ t[Int(bytes[i + 7])]
                    i += 8
                }
                while i < n {
                    c = t[Int((c ^ UInt32(bytes[i])) & 0xff)] ^ (c >> 8)
                    i += 1
                }
                self.c = c
            }
        }

        var value: UInt32 { c ^ 0xFFFF_FFFF }
    }

    /// One final fixed-Huffman deflate block in a zlib stream, with the stream's Adler-32.
    struct Deflate {
        /// The whole buffer, and where the stream starts in it.
        private let buffer: UnsafeMutablePointer<UInt8>
        private let out: UnsafeMutablePointer<UInt8>
        private let capacity: Int
        private var n = 0
        private var bits: UInt64 = 0
        private var count: UInt64 = 0
        /// Whether the last byte of the uncompressed stream, which a distance-one match repeats, is a zero.
        private var afterZero = false
        /// Adler-32 sums, reduced now and then (64 bits leave ample room in between).
        private var a: UInt64 = 1
        private var b: UInt64 = 0
        private var sinceReduce = 0

        /// Fixed literal/length codes, bit-reversed for the LSB-first stream: code | length << 16.
        static let literalCodes: [UInt32] = (0..<288).map { v -> UInt32 in
            let code: UInt32, len: UInt32
            switch v {
            case 0..<144: code = UInt32(0x30 + v); len = 8
            case 144..<256: code = UInt32(0x190 + v - 144); len = 9
            case 256..<280: code = UInt32(v - 256); len = 7
            default: code = UInt32(0xC0 + v - 280); len = 8
            }
            return reverse(code, Int(len)) | len << 16
        }

        /// Per match length 3...258, the whole match with distance one: bits | count << 32.
        static let matchCodes: [UInt64] = {
            let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                         131, 163, 195, 227, 258]
            let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
            var table = [UInt64](repeating: 0, count: 259)
            for length in 3...258 {
                var k = bases.count - 1
                while bases[k] > length { k -= 1 }
                let lit = literalCodes[257 + k]
                var value = UInt64(lit & 0xffff), used = UInt64(lit >> 16)
                value |= UInt64(length - bases[k]) << used
                used += UInt64(extra[k])
                used += 5  // distance code 0 (distance one), five zero bits
                table[length] = value | used << 32
            }
            return table
        }()

        /// The longest run of pixels `runCodes` holds: 3 × 86 zero bytes fit in one match.
        static let shortRun = 86

        /// Per run of k = 1...shortRun zero pixels (3k zero bytes), what `zeros(3k)` writes, as one
        /// code (bits | count << 32): at index k after a byte that is not zero, at shortRun + 1 + k
        /// after a zero. After a byte that is not zero that is a literal zero, then a match (or two
        /// more literal zeros); after a zero, one match.
        static let runCodes: [UInt64] = {
            var table = [UInt64](repeating: 0, count: 2 * (shortRun + 1))
            let zero = UInt64(literalCodes[0] & 0xffff), zeroBits = UInt64(literalCodes[0] >> 16)
            for k in 1...shortRun {
                let m = matchCodes[3 * k]
                table[shortRun + 1 + k] = m
                if k == 1 {
                    table[k] = zero | zero << zeroBits | zero << (2 * zeroBits) | (3 * zeroBits) << 32
                } else {
                    let rest = matchCodes[3 * k - 1]
                    table[k] = zero | (rest & 0xffff_ffff) << zeroBits | (zeroBits + rest >> 32) << 32
                }
            }
            return table
        }()

        /// The codes `zeros(length)` writes (code | bit count << 32), by the same rules.
        static func zeroCodes(_ length: Int, afterZero: Bool, literals lit: UnsafeBufferPointer<UInt32>,
                              matches match: UnsafeBufferPointer<UInt64>) -> [UInt64] {
            let zero = UInt64(lit[0] & 0xffff) | UInt64(lit[0] >> 16) << 32
            var codes: [UInt64] = []
            var left = length
            if !afterZero || left < 3 {
                let first = afterZero ? left : 1
                codes += Array(repeating: zero, count: max(0, first))
                left -= first
            }
            while left > 0 {
                if left < 3 {
                    codes += Array(repeating: zero, count: left)
                    break
                }
                var m = min(left, 258)
                if left - m > 0 && left - m < 3 { m = left - 3 }
                codes.append(match[m])
                left -= m
            }
            return codes
        }

        static func reverse(_ code: UInt32, _ length: Int) -> UInt32 {
            var r: UInt32 = 0
            for i in 0..<length where code & (1 << UInt32(i)) != 0 { r |= 1 << UInt32(length - 1 - i) }
            return r
        }

        private let lit: UnsafeBufferPointer<UInt32>
        private let match: UnsafeBufferPointer<UInt64>
        private let runs: UnsafeBufferPointer<UInt64>

        /// `literals`, `matches` and `runs` are `literalCodes`, `matchCodes` and `runCodes`, borrowed
        /// for the encoder's life.
        /// The stream is written after `front` bytes of the buffer, which keeps `back` bytes free after it.
        init(capacity: Int, front: Int = 0, back: Int = 0, literals: UnsafeBufferPointer<UInt32>,
             matches: UnsafeBufferPointer<UInt64>, runs: UnsafeBufferPointer<UInt64>) {
            self.capacity = capacity + 16
            buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: front + self.capacity + back)
            out = buffer + front
            lit = literals
            match = matches
            self.runs = runs
        }

        @inline(__always) private mutating func put(_ value: UInt64, _ width: UInt64) {
            Deflate.put(value, width, bits: &bits, count: &count, n: &n, out: out, capacity: capacity)
        }

        /// `width` bits of `value` after the `count` pending in `bits`, whole words of them stored at
        /// `out + n`. (Its state is passed in, so `rows` can keep it in locals.)
        @inline(__always) static func put(_ value: UInt64, _ width: UInt64, bits: inout UInt64, count: inout UInt64,
                                          n: inout Int, out: UnsafeMutablePointer<UInt8>, capacity: Int) {
            bits |= value &<< count
            count &+= width
            if count >= 32 {
                // Room is reserved up front: at most 9 bits a byte, and a match is shorter than its bytes.
                guard n &+ 4 <= capacity else { return }
                UnsafeMutableRawPointer(out + n).storeBytes(of: UInt32(truncatingIfNeeded: bits).littleEndian, as: UInt32.self)
                n &+= 4
                bits &>>= 32
                count &-= 32
            }
        }

        /// Every row, Up-filtered: the filter byte, then each pixel less the one above it. A run of
        /// pixels the same as above is found sixteen at a time (then eight, for where it ends) and
        /// written as one run of zeros; a pixel that differs is its three bytes as literals.
        ///
        /// The stream's state is kept in locals here (its bits, its length, the sums): as fields of
        /// `self` the compiler stores them to memory after every pixel, since the writes through
        /// `out` might change them. They go back to `self` for the few long runs `zeros` writes.
        mutating func rows(pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) {
            let rowBytes = 4 * max(0, width)
            let blank = UnsafeMutableRawPointer.allocate(byteCount: max(4, rowBytes), alignment: 8)  // the row above the first
            blank.initializeMemory(as: UInt8.self, repeating: 0, count: max(4, rowBytes))
            defer { blank.deallocate() }
            // A row the same as the one above: the filter byte, then zeros(3 * width) after it.
            let sameRow = [UInt64(lit[2] & 0xffff) | UInt64(lit[2] &>> 16) &<< 32]
                + Deflate.zeroCodes(3 * width, afterZero: false, literals: lit, matches: match)
            let out = self.out, capacity = self.capacity, lit = self.lit, runs = self.runs
            var bits = self.bits, count = self.count, n = self.n, a = self.a, b = self.b, afterZero = self.afterZero

            @inline(__always) func put(_ value: UInt64, _ width: UInt64) {
                Deflate.put(value, width, bits: &bits, count: &count, n: &n, out: out, capacity: capacity)
            }
            // `k` pixels the same as above: `zeros(3 * k)`, from `runCodes` when the run is short.
            @inline(__always) func zeroPixels(_ k: Int) {
                if k <= Deflate.shortRun {
                    let code = runs[afterZero ? Deflate.shortRun &+ 1 &+ k : k]
                    put(code & 0xffff_ffff, code &>> 32)
                    afterZero = true
                    b &+= a &* UInt64(3 &* k)  // zeros leave `a` as it is
                    return
                }
                (self.bits, self.count, self.n, self.a, self.b, self.afterZero) = (bits, count, n, a, b, afterZero)
                zeros(3 &* k)
                (bits, count, n, a, b, afterZero) = (self.bits, self.count, self.n, self.a, self.b, self.afterZero)
            }
            // A pixel less the one above, red, green, blue: three literals written as one.
            @inline(__always) func pixel(_ p: UInt32, _ q: UInt32) {
                // p - q in each of the low three bytes at once, without borrows between them.
                let d = ((p | 0x80_8080) &- (q & 0x7f_7f7f)) ^ ((p ^ ~q) & 0x80_8080)
                let r = UInt64(truncatingIfNeeded: d &>> 16) & 0xff, g = UInt64(truncatingIfNeeded: d &>> 8) & 0xff
                let bl = UInt64(truncatingIfNeeded: d) & 0xff
                let cr = lit[Int(r)], cg = lit[Int(g)], cb = lit[Int(bl)]
                let lr = UInt64(cr &>> 16), lg = UInt64(cg &>> 16)
                let code = UInt64(cr & 0xffff) | UInt64(cg & 0xffff) &<< lr | UInt64(cb & 0xffff) &<< (lr &+ lg)
                put(code, lr &+ lg &+ UInt64(cb &>> 16))
                afterZero = bl == 0
                // The sums after the three bytes, at once: b gains 3a + 3r + 2g + bl.
                b &+= 3 &* (a &+ r) &+ 2 &* g &+ bl
                a &+= r &+ g &+ bl
            }

            for y in 0..<height {
                let row = UnsafeRawPointer(pixels + y * stride)
                let above = y > 0 ? UnsafeRawPointer(pixels + (y - 1) * stride) : UnsafeRawPointer(blank)
                // Once a row: the sums are left unreduced within it, which 64 bits hold for rows of
                // up to 2^25 pixels.
                a %= 65_521
                b %= 65_521
                if width > 0 && memcmp(row, above, rowBytes) == 0 {
                    for code in sameRow { put(code & 0xffff_ffff, code &>> 32) }
                    afterZero = true
                    a &+= 2
                    b &+= a &+ a &* UInt64(3 * width)
                    continue
                }
                // The Up filter's byte.
                let filter = lit[2]
                put(UInt64(filter & 0xffff), UInt64(filter &>> 16))
                afterZero = false
                a &+= 2
                b &+= a
                // Byte offsets of pixels in the row.
                var o = 0
                while o < rowBytes {
                    // The run of pixels the same as above from o, and the first one that differs.
                    var e = o
                    var differs = false
                    // Sixteen pixels a step while they all match (the compiler makes this vector
                    // compares), then eight a step to find the one that differs.
                    while e &+ 64 <= rowBytes {
                        let d0 = Deflate.difference(row, above, e), d1 = Deflate.difference(row, above, e &+ 16)
                        let d2 = Deflate.difference(row, above, e &+ 32), d3 = Deflate.difference(row, above, e &+ 48)
                        let d = (d0 | d1) | (d2 | d3)
                        if d[0] | d[1] != 0 { break }
                        e &+= 64
                    }
                    while e &+ 32 <= rowBytes {
                        let d0 = row.loadUnaligned(fromByteOffset: e, as: UInt64.self)
                            ^ above.loadUnaligned(fromByteOffset: e, as: UInt64.self)
                        let d1 = row.loadUnaligned(fromByteOffset: e &+ 8, as: UInt64.self)
                            ^ above.loadUnaligned(fromByteOffset: e &+ 8, as: UInt64.self)
                        let d2 = row.loadUnaligned(fromByteOffset: e &+ 16, as: UInt64.self)
                            ^ above.loadUnaligned(fromByteOffset: e &+ 16, as: UInt64.self)
                        let d3 = row.loadUnaligned(fromByteOffset: e &+ 24, as: UInt64.self)
                            ^ above.loadUnaligned(fromByteOffset: e &+ 24, as: UInt64.self)
                        if d0 | d1 | d2 | d3 == 0 {
                            e &+= 32
                            continue
                        }
                        // In memory order, the first pixel of a word is its low half.
                        let (word, d) = d0 != 0 ? (0, d0) : d1 != 0 ? (8, d1) : d2 != 0 ? (16, d2) : (24, d3)
                        e &+= word &+ (UInt64(littleEndian: d).trailingZeroBitCount >> 5) &<< 2
                        differs = true
                        break
                    }
                    if !differs {
                        while e < rowBytes && row.loadUnaligned(fromByteOffset: e, as: UInt32.self)
                                == above.loadUnaligned(fromByteOffset: e, as: UInt32.self) { e &+= 4 }
                    }
                    if e > o {
                        zeroPixels((e &- o) &>> 2)
                        o = e
                        if o >= rowBytes { break }
                    }
                    // Pixels that differ, until one does not.
                    var p = row.loadUnaligned(fromByteOffset: o, as: UInt32.self)
                    var q = above.loadUnaligned(fromByteOffset: o, as: UInt32.self)
                    repeat {
                        pixel(p, q)
                        o &+= 4
                        guard o < rowBytes else { break }
                        p = row.loadUnaligned(fromByteOffset: o, as: UInt32.self)
                        q = above.loadUnaligned(fromByteOffset: o, as: UInt32.self)
                    } while p != q
                }
            }
            (self.bits, self.count, self.n, self.a, self.b, self.afterZero) = (bits, count, n, a % 65_521, b % 65_521, afterZero)
            sinceReduce = 0
        }

        /// Sixteen bytes of `row` and `above` from `offset`, exclusive-or'd.
        @inline(__always) static func difference(_ row: UnsafeRawPointer, _ above: UnsafeRawPointer, _ offset: Int) -> SIMD2<UInt64> {
            let p: SIMD2<UInt64> = row.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
            let q: SIMD2<UInt64> = above.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
            return p ^ q
        }

        mutating func header() {
            out[0] = 0x78  // deflate, 32 KiB window
            out[1] = 0x01  // fastest, no dictionary; 0x7801 is a multiple of 31
            n = 2
            put(1, 1)  // BFINAL
            put(1, 2)  // BTYPE 01: fixed Huffman codes
        }

        @inline(__always) private mutating func adler(_ byte: UInt8) {
            a &+= UInt64(byte)
            b &+= a
            sinceReduce &+= 1
            if sinceReduce >= 4096 { reduce() }
        }

        private mutating func reduce() {
            a %= 65_521
            b %= 65_521
            sinceReduce = 0
        }

        /// One byte of the uncompressed stream, as a literal.
        @inline(__always) mutating func literal(_ byte: UInt8) {
            let code = lit[Int(byte)]
            put(UInt64(code & 0xffff), UInt64(code &>> 16))
            afterZero = byte == 0
            adler(byte)
        }

        /// `length` zero bytes: a literal zero unless the last byte was one, then distance-one matches.
        mutating func zeros(_ length: Int) {
            var left = length
            if !afterZero || left < 3 {
                let first = afterZero ? left : 1
                for _ in 0..<first { literal(0) }
                left &-= first
            }
            guard left > 0 else { return }
            // Zeros leave `a` as it is and add it to `b` once each. `a` stays below 2^21 between
            // reductions and `left` below 2^34, so the product fits.
            b &+= a &* UInt64(left)
            sinceReduce &+= left
            if sinceReduce >= 4096 { reduce() }
            while left > 0 {
                if left < 3 {
                    for _ in 0..<left { putLiteralZeroKeepingAdler() }
                    break
                }
                var m = min(left, 258)
                if left &- m > 0 && left &- m < 3 { m = left &- 3 }  // leave at least 3 for the next match
                let code = match[m]
                put(code & 0xffff_ffff, code &>> 32)
                left &-= m
            }
        }

        /// A zero literal whose Adler-32 share has already been counted.
        private mutating func putLiteralZeroKeepingAdler() {
            let code = lit[0]
            put(UInt64(code & 0xffff), UInt64(code &>> 16))
            afterZero = true
        }

        /// Ends the stream: the buffer (the caller's to deallocate) and the stream's length in it,
        /// after the front bytes.
        mutating func finish() -> (buffer: UnsafeMutablePointer<UInt8>, length: Int) {
            let code = lit[256]
            put(UInt64(code & 0xffff), UInt64(code >> 16))
            while count > 0 && n < capacity {
                out[n] = UInt8(truncatingIfNeeded: bits)
                n += 1
                bits >>= 8
                count = count >= 8 ? count - 8 : 0
            }
            reduce()
            for byte in PNGEncoder.bigEndian(UInt32(b << 16 | a)) where n < capacity {
                out[n] = byte
                n += 1
            }
            return (buffer, n)
        }
    }
}
