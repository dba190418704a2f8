import XCTest
import EgoFixCore
@testable import EgoFixSite

/// The share-card PNG writer: what it writes must decode, by a decoder not written here, to
/// exactly the pixels it was given.
final class PNGEncoderTests: XCTestCase {
    /// Python's own PNG reading: every chunk's CRC checked with `zlib.crc32`, the image data
    /// inflated by zlib, the rows unfiltered (all five filters); and, where Pillow is installed,
    /// Pillow's decoding, which must agree. Prints "width height" on a line, then the RGB bytes.
    static let decoder = #"""
    import struct, sys, zlib
    png = sys.stdin.buffer.read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "signature"
    pos, types, idat = 8, [], b""
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", png[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + data) == crc, "CRC of " + kind.decode()
        types.append(kind.decode())
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data)
            assert (depth, colour, interlace) == (8, 2, 0), "8-bit RGB, not interlaced"
        if kind == b"IDAT":
            idat += data
        pos += 12 + n
    assert types[0] == "IHDR" and types[-1] == "IEND", types
    raw, stride, rows, prev = zlib.decompress(idat), 3 * w, [], bytearray(3 * w)
    assert len(raw) == h * (stride + 1), "size"
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 2:
            line = bytearray((u + v) & 255 for u, v in zip(line, prev))
        for x in range(stride if f in (1, 3, 4) else 0):
            a = line[x - 3] if x >= 3 else 0
            b, c = prev[x], (prev[x - 3] if x >= 3 else 0)
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        assert f <= 4, "filter %d" % f
        rows.append(bytes(line))
        prev = line
    rgb = b"".join(rows)
    try:
        import io
        from PIL import Image
    except ImportError:
        pass
    else:
        image = Image.open(io.BytesIO(png))
        assert image.size == (w, h) and image.convert("RGB").tobytes() == rgb, "Pillow decodes it differently"
    sys.stdout.buffer.write(b"%d %d\n" % (w, h) + rgb)
    """#

    func decode(_ png: Data) throws -> (width: Int, height: Int, rgb: [UInt8]) {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("python3 is not installed: no independent PNG decoder")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", PNGEncoderTests.decoder]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        // Written on another thread: the decoder's output fills its pipe while it reads.
        let writer = Thread { input.fileHandleForWriting.write(png); try? input.fileHandleForWriting.close() }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, String(decoding: err, as: UTF8.self))
        let bytes = [UInt8](out)
        let newline = try XCTUnwrap(bytes.firstIndex(of: 10), "no size line")
        let size = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        XCTAssertEqual(size.count, 2)
        return (size.first ?? 0, size.last ?? 0, Array(bytes[(newline + 1)...]))
    }

    func test_encodedPixelsDecodeToThePixelsGiven() throws {
        // Flat rows, repeated rows, noise, black, and runs of every length around the 258 limit.
        let w = 331, h = 83
        var rng = SplitMix64(seed: 3)
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
        let png = try pixels.withUnsafeBytes { raw in
            PNGEncoder.encodeRGB24(pixels: try XCTUnwrap(raw.bindMemory(to: UInt8.self).baseAddress), width: w, height: h, stride: w * 4)
        }
        let decoded = try decode(png)
        XCTAssertEqual(decoded.width, w)
        XCTAssertEqual(decoded.height, h)
        XCTAssertEqual(decoded.rgb.count, w * h * 3)
        var expected: [UInt8] = []
        for p in pixels { expected += [UInt8(p >> 16 & 0xff), UInt8(p >> 8 & 0xff), UInt8(p & 0xff)] }
        if let i = zip(decoded.rgb, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            XCTFail("pixel \(i / 3) differs")
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
