/// Control characters in stored text, which no command, import or sync accepts any more (tabs and
/// line breaks excepted), shown instead as the `\u{1B}` a terminal shows for them.
public enum ControlText {
    /// Whether a stored text may not hold `c`: C0 controls but tab, line feed and carriage
    /// return, DEL and the C1 controls (what import refuses).
    public static func isRefused(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || (0x7F...0x9F).contains(c.value)
    }

    /// `text` with each refused control character written as `\u{` hex `}`; the same text when
    /// it holds none.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isRefused) else { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            if isRefused(c) {
                out.append(contentsOf: ("\\u{" + String(c.value, radix: 16, uppercase: true) + "}").unicodeScalars)
            } else {
                out.append(c)
            }
        }
        return String(out)
    }
}
