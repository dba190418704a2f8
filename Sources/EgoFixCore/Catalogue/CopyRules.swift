import Foundation

/// The voice as rules a machine can check: no "!", no emoji, no praise, no guilt, no wellness or
/// therapy clichés. The banned phrases live here and nowhere else.
public enum CopyRules {
    /// Matched case-insensitively from the start of a word to the end of one ("energy" does not
    /// match "energetic"); a phrase ending in "*" may run on into a longer word ("mindful*"
    /// matches "mindfulness"). Curly apostrophes count as straight ones.
    public static let bannedPhrases: [String] = [
        // praise
        "great job", "well done*", "proud of you*", "amazing*", "awesome*", "you got this*", "you're doing great*",
        "you are doing great*", "keep it up*", "nailed it*", "crushing it*", "crush it", "congratulations*",
        // guilt
        "you failed*", "ashamed*", "disappointing*", "lost your streak*", "you haven't opened*", "don't break*",
        "you should have*", "don't forget*", "do not forget*", "you forgot*", "missed again*",
        // wellness and hustle clichés
        "journey*", "self-care*", "mindful*", "deep breath*", "inner peace*", "inner child*", "best self*",
        "manifest*", "healing*", "vibes*", "namaste*", "gratitude*", "be kind to yourself*", "love yourself*",
        "positive energy*", "empower*", "unlock*", "level up*", "badge*", "xp",
        // therapy and wellness-app words (issue 35; docs/style.md)
        "you're allowed", "you are allowed", "it's allowed", "is allowed", "permission", "hold space", "holding space",
        "let it run", "let it pass", "let the feeling", "sit with it", "sit with that", "sit with the feeling",
        "sit with the discomfort", "sitting with it", "sitting with the feeling", "honor your", "honor yourself",
        "honoring your", "validate your", "validate yourself", "feelings are valid", "feeling is valid", "valid feelings",
        "boundaries", "set a boundary", "energy", "energies", "trauma*", "toxic*", "gentle", "compassion*",
        "self-compassion*", "nourish*", "safe space", "process your", "process the feeling", "process what happened",
        "processing your", "carry the feeling", "carrying the feeling", "carrying it", "yours to carry",
        "theirs to carry", "yours to hold", "theirs to hold", "that's okay", "that is okay", "that's ok",
        "it's fine", "it is fine", "and that's enough",
    ]

    public struct Limits {
        public static let prompt = 160
        public static let inlineComment = 140
        public static let validation = 160
        public static let tidbit = 320
        public static let optionText = 100
        public static let insight = 200
        public static let question = 200
        public static let step = 140
        public static let bugTitle = 40
        public static let bugDescription = 160
        /// Reminder or one-line output.
        public static let line = 120
    }

    /// Problems with one piece of copy, as short phrases ("contains '!'").
    /// A character catalogue text may not hold, said as a problem: a control character (a NUL cut
    /// the text short in the store; tabs and line breaks are fine) or a direction control
    /// (U+202A to U+202E, U+2066 to U+2069), which turned the rest of a page's line around
    /// ("... thgir · severity low"). Nil when there is none.
    public static func unsafeCharacter(_ text: String) -> String? {
        for u in text.unicodeScalars {
            let v = u.value
            if ControlText.isRefused(u) {
                return "holds the control character U+\(String(format: "%04X", v))"
            }
            if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                return "holds the direction control U+\(String(format: "%04X", v)), which turns the text after it around on a page"
            }
        }
        return nil
    }

    public static func violations(_ text: String, limit: Int? = nil) -> [String] {
        var out: [String] = []
        if text.contains("!") { out.append("contains '!'") }
        if let e = text.unicodeScalars.first(where: isEmoji) {
            out.append("contains an emoji (U+\(String(e.value, radix: 16, uppercase: true)))")
        }
        let lower = text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
        for entry in bannedPhrases {
            let stem = entry.hasSuffix("*")
            let phrase = stem ? String(entry.dropLast()) : entry
            if containsPhrase(lower, phrase, runsOn: stem) { out.append("banned phrase '\(phrase)'") }
        }
        if let limit, text.count > limit { out.append("\(text.count) characters, over the limit of \(limit)") }
        return out
    }

    /// Whether `phrase` occurs in `lower` starting at a word start and, unless `runsOn`, ending at a word end.
    static func containsPhrase(_ lower: String, _ phrase: String, runsOn: Bool) -> Bool {
        var search = lower[...]
        while let r = search.range(of: phrase) {
            let before = r.lowerBound == lower.startIndex ? nil : lower[lower.index(before: r.lowerBound)]
            let after = r.upperBound == lower.endIndex ? nil : lower[r.upperBound]
            let isWord: (Character?) -> Bool = { c in c.map { $0.isLetter || $0.isNumber } ?? false }
            if !isWord(before) && (runsOn || !isWord(after)) { return true }
            search = lower[r.upperBound...]
        }
        return false
    }

    public static func isEmoji(_ u: Unicode.Scalar) -> Bool {
        if u.value == 0xFE0F || u.value == 0x200D { return true }
        if (0x1F000...0x1FAFF).contains(u.value) || (0x2600...0x27BF).contains(u.value) { return true }
        return u.properties.isEmojiPresentation
    }
}
