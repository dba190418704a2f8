/// Whether text shows anything: the one test for a note, a reflection and the site's title.
public enum VisibleText {
    /// Whether every scalar of `s` is white space, a format character (general category Cf: U+200B
    /// zero width space, the joiners, U+2060, U+FEFF) or one a renderer ignores (variation
    /// selectors, U+3164 Hangul filler and the like). Such a note is none, as blank text is: typed,
    /// it is not stored; imported or synced from a store that kept one, it is not shown.
    public static func showsNothing(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { u in
            u.properties.isWhitespace || u.properties.isDefaultIgnorableCodePoint || u.properties.generalCategory == .format
        }
    }
}
