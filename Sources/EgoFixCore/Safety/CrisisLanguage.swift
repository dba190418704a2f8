import Foundation

/// Notices language in the user's own text that reads like more than a bad ego day, so a private
/// page that contains it can show a plain help block first. It never rewrites or reports anything.
public enum CrisisLanguage {
    public static let phrases: [String] = [
        "kill myself", "killing myself", "suicide", "suicidal", "end my life", "ending my life",
        "want to die", "wanted to die", "hurt myself", "hurting myself", "self-harm", "self harm",
        "no reason to live", "better off dead", "can't go on", "cannot go on", "don't want to be here anymore",
    ]

    public static func detect(_ text: String) -> Bool {
        if let ascii = detectASCII(text) { return ascii }
        let lower = text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
        return phrases.contains { lower.contains($0) }
    }

    static let phraseBytes: [[UInt8]] = phrases.map { Array($0.utf8) }

    /// The same answer for plain ASCII text, found on bytes (nil for any other text): lowercasing
    /// ASCII is per byte, and there is nothing for Unicode matching to fold.
    static func detectASCII(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { buf -> Bool? in
            var lower = [UInt8](repeating: 0, count: buf.count)
            for (i, b) in buf.enumerated() {
                guard b < 0x80 else { return nil }
                lower[i] = b >= 0x41 && b <= 0x5a ? b + 0x20 : b
            }
            for phrase in phraseBytes where phrase.count <= lower.count {
                let first = phrase[0]
                var i = 0
                let last = lower.count - phrase.count
                while i <= last {
                    if lower[i] == first {
                        var k = 1
                        while k < phrase.count && lower[i + k] == phrase[k] { k += 1 }
                        if k == phrase.count { return true }
                    }
                    i += 1
                }
            }
            return false
        }
    }
}
