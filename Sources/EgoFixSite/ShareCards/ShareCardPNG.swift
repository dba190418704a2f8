import EgoFixCore
import CCairo
import Foundation

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
