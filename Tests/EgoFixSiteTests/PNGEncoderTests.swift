import XCTest
import EgoFixCore
@testable import EgoFixSite

/// The share-card PNG writer: what it writes must decode to exactly the pixels it was given.
final class PNGEncoderTests: XCTestCase {
    /// Inflates a zlib stream of fixed-Huffman blocks (all the encoder writes) and checks its Adler-32.
    func inflateFixed(_ z: [UInt8]) throws -> [UInt8] {
        XCTAssertEqual(z[0], 0x78)
        XCTAssertEqual((Int(z[0]) << 8 | Int(z[1])) % 31, 0)
        var pos = 2, bit = 0
        func bits(_ n: Int) throws -> Int {
            var v = 0
            for k in 0..<n {
                guard pos < z.count - 4 else { throw NSError(domain: "inflate", code: 1) }
                v |= Int((z[pos] >> UInt8(bit)) & 1) << k
                bit += 1
                if bit == 8 { bit = 0; pos += 1 }
            }
            return v
        }
        /// A Huffman code is read most significant bit first.
        func code(_ n: Int) throws -> Int {
            var v = 0
            for _ in 0..<n { v = v << 1 | (try bits(1)) }
            return v
        }
        func literalLength() throws -> Int {
            var c = try code(7)
            if c <= 0b0010111 { return 256 + c }
            c = c << 1 | (try bits(1))
            if c >= 0b00110000 && c <= 0b10111111 { return c - 0b00110000 }
            if c >= 0b11000000 && c <= 0b11000111 { return 280 + c - 0b11000000 }
            c = c << 1 | (try bits(1))
            return 144 + c - 0b110010000
        }
        let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        var out: [UInt8] = []
        var final = 0
        repeat {
            final = try bits(1)
            XCTAssertEqual(try bits(2), 1, "fixed Huffman block")
            while true {
                let sym = try literalLength()
                if sym < 256 { out.append(UInt8(sym)); continue }
                if sym == 256 { break }
                let length = bases[sym - 257] + (try bits(extra[sym - 257]))
                let dist = try code(5)
                XCTAssertEqual(dist, 0, "only distance-one matches")
                for _ in 0..<length { out.append(out[out.count - 1]) }
            }
        } while final == 0
        var a: UInt32 = 1, b: UInt32 = 0
        for x in out { a = (a + UInt32(x)) % 65_521; b = (b + a) % 65_521 }
        let tail = z.suffix(4).map(UInt32.init)
        XCTAssertEqual(tail[0] << 24 | tail[1] << 16 | tail[2] << 8 | tail[3], b << 16 | a, "Adler-32")
        return out
    }

    func decode(_ png: Data) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        let chunks = try PNGChunks.chunks(png)
        XCTAssertEqual(chunks.map(\.type), ["IHDR", "IDAT", "IEND"])
        let bytes = [UInt8](png)
        for c in chunks {
            // Each chunk's CRC covers its type and data.
            let covered = Array(bytes[(c.range.lowerBound + 4)..<c.dataRange.upperBound])
            let stored = bytes[c.dataRange.upperBound..<c.range.upperBound].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            var crc = PNGEncoder.CRC32()
            covered.withUnsafeBufferPointer { crc.update($0) }
            XCTAssertEqual(crc.value, stored, c.type)
        }
        let ihdr = Array(bytes[chunks[0].dataRange])
        let w = Int(ihdr[0]) << 24 | Int(ihdr[1]) << 16 | Int(ihdr[2]) << 8 | Int(ihdr[3])
        let h = Int(ihdr[4]) << 24 | Int(ihdr[5]) << 16 | Int(ihdr[6]) << 8 | Int(ihdr[7])
        XCTAssertEqual(Array(ihdr[8...]), [8, 2, 0, 0, 0])
        let raw = try inflateFixed(Array(bytes[chunks[1].dataRange]))
        XCTAssertEqual(raw.count, h * (1 + 3 * w))
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            XCTAssertEqual(raw[y * (1 + 3 * w)], 2, "Up filter")
            for x in 0..<(3 * w) {
                let above = y > 0 ? rgb[(y - 1) * 3 * w + x] : 0
                rgb[y * 3 * w + x] = raw[y * (1 + 3 * w) + 1 + x] &+ above
            }
        }
        return (w, h, rgb)
    }

    func test_encodedPixelsDecodeToThePixelsGiven() throws {
        // Flat rows, repeated rows, noise, black, and runs of every length around the 258 limit.
        let w = 331, h = 83
        var rng = SplitMix64Local(seed: 3)
        var pixels = [UInt32](repeating: 0x1e1f22, count: w * h)
        for y in 0..<h {
            switch y % 7 {
            case 1: for x in 0..<w { pixels[y * w + x] = UInt32(truncatingIfNeeded: rng.next()) & 0xffffff }
            case 2: for x in stride(from: 0, to: w, by: 5) { pixels[y * w + x] = 0xabb2bf }
            case 3: for x in 0..<w { pixels[y * w + x] = 0 }
            case 4: for x in (y % 3)..<w where x % 2 == 0 { pixels[y * w + x] = pixels[(y - 1) * w + x] &+ 1 }
            case 5:
                // Runs of every length from 1 to 96 pixels between single changed pixels, at every
                // alignment; some changes are to the unused top byte only, some to one channel.
                var x = y % 5, run = y
                while x < w {
                    pixels[y * w + x] = y % 3 == 0 ? pixels[(y - 1) * w + x] | 0xff00_0000 : pixels[(y - 1) * w + x] ^ 0x0000_0100
                    x += 1 + run % 97
                    run += 7
                }
            default: break
            }
        }
        let png = pixels.withUnsafeBytes { raw in
            PNGEncoder.encodeRGB24(pixels: raw.bindMemory(to: UInt8.self).baseAddress!, width: w, height: h, stride: w * 4)
        }
        let decoded = try decode(png)
        XCTAssertEqual(decoded.width, w)
        XCTAssertEqual(decoded.height, h)
        for i in 0..<(w * h) {
            let p = pixels[i]
            XCTAssertEqual(Array(decoded.rgb[(3 * i)..<(3 * i + 3)]),
                           [UInt8(p >> 16 & 0xff), UInt8(p >> 8 & 0xff), UInt8(p & 0xff)], "pixel \(i)")
        }
    }

    func test_aShareCardDecodesToA1200x630Image() throws {
        let created = Date(timeIntervalSince1970: 1_795_000_000)
        let bug = Bug(id: UUID(), slug: "need-to-be-right", title: "Need to be right", description: "The compulsion to correct others.",
                      isActive: true, status: .active, activatedAt: created, createdAt: created)
        let fix = Fix(id: UUID(), number: 37, bugId: bug.id, severity: .medium, prompt: "Let someone else have the last word.",
                      inlineComment: "// This is harder when you're sure you're right.", createdAt: created)
        let card = try ShareCard(fix: fix, bug: bug)
        let decoded = try decode(try ShareCardPNG.render(card))
        XCTAssertEqual(decoded.width, 1200)
        XCTAssertEqual(decoded.height, 630)
        // The background colour in the top-left corner.
        XCTAssertEqual(Array(decoded.rgb[0..<3]), [0x1e, 0x1f, 0x22].map(UInt8.init))
    }
}

private struct SplitMix64Local {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
