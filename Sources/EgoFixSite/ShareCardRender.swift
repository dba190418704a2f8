import EgoFixCore
import CCairo
import Foundation

/// A share card as a 1200×630 SVG: monospace, dark palette, the prompt wrapped, the comment under
/// it, a small "EgoFix" mark. Same card, same bytes.
public enum ShareCardSVG {
    public static func render(_ card: ShareCard) -> String {
        let layout = ShareCardLayout.make(card, measure: ShareCardLayout.monospaceMeasure)
        let w = ShareCardLayout.width, h = ShareCardLayout.height
        let summary = XMLEscape.escape(accessibleText(card))
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" "
            + "role=\"img\" aria-label=\"\(summary)\" "
            + "font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n"
        svg += "<title>\(summary)</title>\n"
        svg += "<rect width=\"\(w)\" height=\"\(h)\" fill=\"\(ShareCardLayout.background)\"/>\n"
        let rule = layout.rule
        svg += "<path d=\"M\(rule.x1) \(rule.y)H\(rule.x2)\" stroke=\"\(ShareCardLayout.ruleColor)\" stroke-width=\"2\"/>\n"
        for line in layout.lines {
            let anchor = line.anchor == .end ? " text-anchor=\"end\"" : ""
            svg += "<text x=\"\(line.x)\" y=\"\(line.y)\" font-size=\"\(line.size)\" fill=\"\(line.color)\"\(anchor)>"
                + XMLEscape.escape(line.text) + "</text>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    /// The same, for a template (`{{{card}}}`).
    public static func html(_ card: ShareCard) -> RawHTML {
        RawHTML(trusted: render(card))
    }

    /// The card's words, for `aria-label`, `alt` and link-preview descriptions.
    public static func accessibleText(_ card: ShareCard) -> String {
        var parts = ["\(card.label) (\(card.bugTitle)): \(card.prompt)"]
        if let comment = card.inlineComment {
            parts.append(comment.split(separator: "\n").map { String($0).trimmingWhitespace() }.joined(separator: " "))
        }
        return parts.joined(separator: " ")
    }
}

/// A share card as a 1200×630 PNG for link previews, drawn with cairo in DejaVu Sans Mono (or the
/// system's monospace fallback) and written by `PNGEncoder`: only IHDR, IDAT and IEND chunks, so it
/// carries no timestamp or text metadata; the same card gives the same bytes on the same system.
public enum ShareCardPNG {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case cairo(String)
        case png(String)
        /// libcairo could not be loaded (it is opened when the first card is drawn).
        case noCairo(String)

        public var description: String {
            switch self {
            case .noCairo(let why): return "share card: cannot load cairo to draw the PNG (\(why)). On Debian: apt-get install libcairo2."
            case .cairo(let what): return "share card: cairo could not draw the image (\(what))."
            case .png(let what): return "share card: the PNG cairo wrote is not valid (\(what))."
            }
        }
    }

    static let fontFamily = "DejaVu Sans Mono"
    /// Where Debian keeps that family's regular face. Read straight from the file, the font is the
    /// same on every machine that has it, and fontconfig (whose set-up costs more than drawing all
    /// of a site's cards) is not needed; without the file the family is looked up by name.
    static let fontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    /// Where a card's PNG goes in the site.
    public static func path(_ card: ShareCard) -> String { "share/\(card.slug)/card.png" }

    /// Names the PNG's bytes: the same key, the same card drawn by the same renderer. `salt`
    /// stands for the renderer (the egofix build); the text is everything the card draws.
    public static func key(_ card: ShareCard, salt: String) -> String {
        let parts = ["share-card-png-1", salt, card.label, card.bugTitle, card.prompt, card.inlineComment ?? "\u{0}none"]
        return String(StableHash.fnv1a(parts), radix: 16) + "-" + String(StableHash.fnv1a(parts.reversed()), radix: 16)
    }

    public static func render(_ card: ShareCard) throws -> Data {
        var seconds = (draw: 0.0, encode: 0.0)
        return try render(card, seconds: &seconds)
    }

    /// The same, adding the time spent drawing and encoding to `seconds` (for `egofix bench-card`).
    /// `fresh` draws on newly cleared memory instead of a reused buffer, and `fontByName` finds the
    /// font through fontconfig instead of reading its file (for tests: the bytes must not differ).
    public static func render(_ card: ShareCard, seconds: inout (draw: Double, encode: Double), fresh: Bool = false,
                              fontByName: Bool = false) throws -> Data {
        let started = Date()
        try loadCairo()
        let w = Int32(ShareCardLayout.width), h = Int32(ShareCardLayout.height)
        let stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, w)
        guard stride > 0 else { throw Error.cairo("no stride for the card width") }
        // Every pixel is painted over before anything reads it, so a buffer from an earlier card
        // serves as well as new memory, without clearing or faulting in 3 MB a card.
        let bytes = Int(stride) * Int(h)
        let buffer = fresh ? PixelBuffers.zeroed(bytes) : PixelBuffers.shared.take(bytes)
        defer { if fresh { PixelBuffers.release(buffer) } else { PixelBuffers.shared.give(buffer) } }
        guard let surface = cairo_image_surface_create_for_data(buffer.pointer.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, w, h, stride) else {
            throw Error.cairo("no surface")
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        guard let cr = cairo_create(surface) else { throw Error.cairo("no context") }
        defer { cairo_destroy(cr) }
        try check(cairo_status(cr))

        setUpText(cr, fontByName: fontByName)
        let advances = AdvanceWidths(cr)
        let layout = ShareCardLayout.make(card, measure: advances.width)

        setColor(cr, ShareCardLayout.background)
        cairo_paint(cr)

        setColor(cr, ShareCardLayout.ruleColor)
        cairo_set_line_width(cr, 2)
        cairo_move_to(cr, Double(layout.rule.x1), Double(layout.rule.y))
        cairo_line_to(cr, Double(layout.rule.x2), Double(layout.rule.y))
        cairo_stroke(cr)

        for line in layout.lines {
            cairo_set_font_size(cr, Double(line.size))
            var x = Double(line.x)
            if line.anchor == .end {
                var extents = cairo_text_extents_t()
                cairo_text_extents(cr, line.text, &extents)
                x -= extents.x_advance
            }
            setColor(cr, line.color)
            cairo_move_to(cr, x, Double(line.y))
            cairo_show_text(cr, line.text)
        }
        try check(cairo_status(cr))
        cairo_surface_flush(surface)

        guard let pixels = cairo_image_surface_get_data(surface) else { throw Error.cairo("no pixel data") }
        let drawn = Date()
        let png = PNGEncoder.encodeRGB24(pixels: pixels, width: Int(w), height: Int(h),
                                         stride: Int(cairo_image_surface_get_stride(surface)))
        seconds.draw += drawn.timeIntervalSince(started)
        seconds.encode += Date().timeIntervalSince(drawn)
        return png
    }

    /// The card's text settings on `cr`: fixed font options, so the bytes do not depend on desktop
    /// font settings, and the card font.
    private static func setUpText(_ cr: OpaquePointer, fontByName: Bool = false) {
        if let options = cairo_font_options_create() {
            cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
            cairo_set_font_options(cr, options)
            cairo_font_options_destroy(options)
        }
        if !fontByName, let face = egofix_cairo_font_file(fontFile) {
            cairo_set_font_face(cr, face)
        } else {
            cairo_select_font_face(cr, fontFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        }
    }

    /// Whether cards here read their font from `fontFile` (for tests).
    static var fontIsReadFromItsFile: Bool { (try? loadCairo()) != nil && egofix_cairo_font_file(fontFile) != nil }

    /// Measures with the card's text settings on a scratch context (for tests).
    static func withCardText<T>(_ body: (AdvanceWidths) throws -> T) throws -> T {
        try loadCairo()
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1) else { throw Error.cairo("no surface") }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw Error.cairo("no context") }
        defer { cairo_destroy(cr) }
        try check(cairo_status(cr))
        setUpText(cr)
        return try body(AdvanceWidths(cr))
    }

    /// Opens libcairo on first use (see CCairo.h); no cairo function may be called before this.
    private static func loadCairo() throws {
        guard egofix_cairo_load() == 1 else { throw Error.noCairo(String(cString: egofix_cairo_load_error())) }
    }

    private static func check(_ status: cairo_status_t) throws {
        guard status == CAIRO_STATUS_SUCCESS else {
            let text = cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
            throw Error.cairo(text)
        }
    }

    /// "#rrggbb" to cairo's source colour.
    private static func setColor(_ cr: OpaquePointer, _ hex: String) {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        cairo_set_source_rgb(cr, Double(v >> 16) / 255, Double((v >> 8) & 0xff) / 255, Double(v & 0xff) / 255)
    }
}

/// Text widths for the layout, as `cairo_text_extents` gives them with no current point, from one
/// cairo call a character and size instead of one a string. cairo's toy text API draws one glyph a
/// character, neither kerned nor shaped, and its advance for a string is the glyphs' advances
/// added left to right from zero, so the same sum here is bit for bit the same number.
final class AdvanceWidths {
    private let cr: OpaquePointer
    private final class Table {
        /// The context's font at one size, held so that measuring a character does not look it up again.
        let font: OpaquePointer?
        var ascii = [Double](repeating: .nan, count: 128)
        var other: [UInt32: Double] = [:]
        init(font: OpaquePointer?) { self.font = font }
        deinit { if let font { cairo_scaled_font_destroy(font) } }
    }
    private var tables: [Int: Table] = [:]

    init(_ cr: OpaquePointer) { self.cr = cr }

    /// The advance width of `text` at font size `size`; like a C string, it ends at a NUL.
    func width(_ text: String, _ size: Int) -> Double {
        let table = self.table(size)
        var w = 0.0
        for u in text.unicodeScalars {
            let v = u.value
            if v == 0 { break }
            if v < 128 {
                var advance = table.ascii[Int(v)]
                if advance.isNaN {
                    advance = measure(u, table)
                    table.ascii[Int(v)] = advance
                }
                w += advance
            } else if let advance = table.other[v] {
                w += advance
            } else {
                let advance = measure(u, table)
                table.other[v] = advance
                w += advance
            }
        }
        return w
    }

    /// cairo's own measure of `text` (what `width` stands for).
    func cairoWidth(_ text: String, _ size: Int) -> Double {
        cairo_set_font_size(cr, Double(size))
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    private func table(_ size: Int) -> Table {
        if let t = tables[size] { return t }
        cairo_set_font_size(cr, Double(size))
        let font = cairo_get_scaled_font(cr)
        let t = Table(font: font.flatMap { cairo_scaled_font_status($0) == CAIRO_STATUS_SUCCESS ? cairo_scaled_font_reference($0) : nil })
        tables[size] = t
        return t
    }

    private func measure(_ u: Unicode.Scalar, _ table: Table) -> Double {
        guard let font = table.font else { return 0 }
        var extents = cairo_text_extents_t()
        cairo_scaled_font_text_extents(font, String(u), &extents)
        return extents.x_advance
    }
}

/// Pixel memory for share cards, handed back after each card and reused by the next (at most one
/// buffer a core is kept).
///
/// A buffer is 3 MB that cairo writes over in full, so on Linux it is mapped on its own, aligned to
/// 2 MiB and marked for transparent huge pages: where the kernel has them (the `madvise` setting),
/// the first card on a thread takes two page faults instead of about 740, at about 2 µs each on
/// this project's machines. Where it has none, or the mapping fails, it is ordinary memory.
final class PixelBuffers: @unchecked Sendable {
    static let shared = PixelBuffers()
    private let lock = NSLock()
    private var free: [Buffer] = []

    struct Buffer {
        let pointer: UnsafeMutableRawPointer
        let bytes: Int
        /// The length of its own mapping, 0 for memory from the allocator.
        let mapped: Int
    }

    func take(_ bytes: Int) -> Buffer {
        lock.lock()
        defer { lock.unlock() }
        if let i = free.firstIndex(where: { $0.bytes == bytes }) { return free.remove(at: i) }
        return PixelBuffers.hugeMapped(bytes)
            ?? Buffer(pointer: UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64), bytes: bytes, mapped: 0)
    }

    func give(_ buffer: Buffer) {
        lock.lock()
        defer { lock.unlock() }
        if free.count < max(2, Parallel.cores) {
            free.append(buffer)
        } else {
            PixelBuffers.release(buffer)
        }
    }

    static func release(_ buffer: Buffer) {
        if buffer.mapped > 0 {
            #if os(Linux)
            munmap(buffer.pointer, buffer.mapped)
            #endif
        } else {
            buffer.pointer.deallocate()
        }
    }

    /// `bytes` of zeroed memory in a mapping of its own, aligned to 2 MiB and advised for huge
    /// pages; nil where that is not to be had.
    static func hugeMapped(_ bytes: Int) -> Buffer? {
        #if os(Linux)
        let unit = 2 << 20
        let length = (bytes + unit - 1) / unit * unit
        // Map one unit more than needed and trim both ends, so the buffer starts on a 2 MiB boundary.
        guard let raw = mmap(nil, length + unit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        let start = Int(bitPattern: raw)
        let aligned = (start + unit - 1) / unit * unit
        if aligned > start { munmap(raw, aligned - start) }
        let end = start + length + unit
        if end > aligned + length, let tail = UnsafeMutableRawPointer(bitPattern: aligned + length) {
            munmap(tail, end - (aligned + length))
        }
        guard let pointer = UnsafeMutableRawPointer(bitPattern: aligned) else { return nil }
        _ = madvise(pointer, length, MADV_HUGEPAGE)  // a hint: without it the memory still works
        return Buffer(pointer: pointer, bytes: bytes, mapped: length)
        #else
        return nil
        #endif
    }

    static func zeroed(_ bytes: Int) -> Buffer {
        let p = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        return Buffer(pointer: p, bytes: bytes, mapped: 0)
    }
}

/// Reading and filtering PNG chunks. Chunks are copied verbatim with their CRCs.
public enum PNGChunks {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public struct Chunk: Equatable, Sendable {
        public let type: String
        /// The whole chunk: length, type, data and CRC.
        public let range: Range<Int>
        public let dataRange: Range<Int>
    }

    /// The chunks of a PNG, in order. Throws if the signature, a length or the final IEND is wrong.
    public static func chunks(_ png: Data) throws -> [Chunk] {
        let bytes = [UInt8](png)
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw ShareCardPNG.Error.png("no PNG signature")
        }
        var out: [Chunk] = []
        var i = 8
        while i < bytes.count {
            guard i + 12 <= bytes.count else { throw ShareCardPNG.Error.png("truncated chunk at byte \(i)") }
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length <= 0x7fff_ffff, i + 12 + length <= bytes.count else {
                throw ShareCardPNG.Error.png("chunk at byte \(i) runs past the end")
            }
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            out.append(Chunk(type: type, range: i..<(i + 12 + length), dataRange: (i + 8)..<(i + 8 + length)))
            i += 12 + length
            if type == "IEND" { break }
        }
        guard out.last?.type == "IEND" else { throw ShareCardPNG.Error.png("no IEND chunk") }
        return out
    }

    /// The PNG with only the chunks whose type is in `types`, in their original order.
    public static func keepingOnly(_ types: Set<String>, in png: Data) throws -> Data {
        var out = Data(signature)
        for chunk in try chunks(png) where types.contains(chunk.type) {
            out.append(png.subdata(in: chunk.range))
        }
        return out
    }
}
