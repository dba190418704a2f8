import EgoFixCore
import CCairo
import Foundation

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
