import Foundation

/// Text on its way to a terminal: a stored string (a version, a title, a note) may hold control
/// characters, and written raw they would drive the terminal (set its title, clear the screen).
package enum Terminal {
    /// `text` with every control character but newline and tab shown as `\u{..}` instead. With
    /// `keepingStyle`, the colour sequences egofix itself writes (ESC [ digits and ';' m) are kept.
    package static func neutralised(_ text: String, keepingStyle: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if keepingStyle, c == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
                var j = i + 2
                while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
                if j < scalars.count, scalars[j] == "m" {
                    out.append(contentsOf: scalars[i...j])
                    i = j + 1
                    continue
                }
            }
            if isControl(c) && c != "\n" && c != "\t" {
                out.append(contentsOf: visible(String(c)).unicodeScalars)
            } else {
                out.append(c)
            }
            i += 1
        }
        return String(out)
    }

    /// `text` on one line with every control character (newlines too) shown as `\u{..}`: for a
    /// value quoted in an error message.
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            if isControl(c) { out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    /// C0 and C1 control characters and DEL.
    static func isControl(_ c: Unicode.Scalar) -> Bool {
        c.value < 0x20 || (0x7F...0x9F).contains(c.value)
    }
}
