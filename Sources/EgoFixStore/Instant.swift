import EgoFixCore
import Foundation

/// Exact ISO 8601 instants for the export file.
///
/// A `Date` is a Double of seconds since 2001-01-01. The text is the whole UTC second
/// ("2026-03-02T08:00:00") followed by the shortest decimal fraction that, added to that second,
/// reads back as the very same Double (at least three digits): `2026-03-02T08:00:00.123Z`,
/// `2026-03-02T08:00:00.1234567Z`. Formatting then parsing gives back the identical Date, so
/// export → import → export is byte-identical and nothing is rounded away.
enum Instant {
    /// Seconds between 1970-01-01 and 2001-01-01.
    private static let referenceOffset: Int64 = 978_307_200

    /// The instant as text; nil outside the years 0001–9999 (or for a NaN), which `parse` could not read back.
    static func format(_ date: Date) -> String? {
        let t = date.timeIntervalSinceReferenceDate
        let whole = t.rounded(.down)
        let frac = t - whole // exact: both are Doubles and the difference is representable
        guard let w = Int64(exactly: whole), abs(w) < 400_000_000_000 else { return nil }
        let unix = w + referenceOffset
        let days = floorDiv(unix, 86_400)
        let secs = unix - days * 86_400
        let c = LocalDay.civilFromDays(Int(days))
        let (y, m, d) = (Int64(c.year), Int64(c.month), Int64(c.day))
        guard (1...9999).contains(y) else { return nil }
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
            + pad(secs / 3600, 2) + ":" + pad(secs % 3600 / 60, 2) + ":" + pad(secs % 60, 2)
            + "." + shortestFraction(whole: whole, frac: frac, t: t) + "Z"
    }

    /// The digits after "0." of the shortest decimal fraction (three digits at least) that `parse`
    /// reads back as `t` (whole + fraction). A stamp one millisecond on reads ".001", not
    /// ".001000046730041504" (the Double nearest that instant, written out by itself).
    private static func shortestFraction(whole: Double, frac: Double, t: Double) -> String {
        var scale = 1000.0
        for n in 3...9 {
            let units = (frac * scale).rounded()
            if units < scale, whole + units / scale == t {
                let text = String(Int64(units))
                var digits = String(repeating: "0", count: max(0, n - text.count)) + text
                while digits.count > 3 && digits.hasSuffix("0") { digits.removeLast() }
                if whole + (Double("0." + digits) ?? -1) == t { return digits }
            }
            scale *= 10
        }
        return fractionDigits(frac)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z`; nil for anything else.
    static func parse(_ text: String) -> Date? {
        let u = Array(text.utf8)
        guard u.count >= 20, u.last == UInt8(ascii: "Z"), let whole = InstantText.wholeSeconds(u) else { return nil }
        var frac = 0.0
        if u.count > 20 {
            guard u[19] == UInt8(ascii: "."), u.count > 21 else { return nil }
            for c in u[20..<(u.count - 1)] where c < 48 || c > 57 { return nil }
            guard let f = Double("0." + String(decoding: u[20..<(u.count - 1)], as: UTF8.self)), f < 1 else { return nil }
            frac = f
        } else if u.count != 20 {
            return nil
        }
        // whole + frac is exact when the text came from `format`.
        return Date(timeIntervalSinceReferenceDate: Double(Int64(whole) - referenceOffset) + frac)
    }

    // MARK: - Helpers

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// The digits after "0." of the shortest decimal that reads back as `frac` (0 ≤ frac < 1), at least three.
    private static func fractionDigits(_ frac: Double) -> String {
        var digits: String
        if frac == 0 {
            digits = ""
        } else {
            // Swift prints the shortest round-tripping form: "0.125" or "1.5e-05".
            let s = "\(frac)"
            if let e = s.firstIndex(of: "e") {
                let mantissa = s[s.startIndex..<e].replacingOccurrences(of: ".", with: "")
                let exponent = Int(s[s.index(after: e)...]) ?? 0 // negative: frac < 1
                digits = String(repeating: "0", count: max(0, -exponent - 1)) + mantissa
            } else if let dot = s.firstIndex(of: ".") {
                digits = String(s[s.index(after: dot)...])
            } else {
                digits = ""
            }
            while digits.hasSuffix("0") { digits.removeLast() }
        }
        while digits.count < 3 { digits += "0" }
        return digits
    }
}
