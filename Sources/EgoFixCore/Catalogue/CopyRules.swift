import Foundation

/// The voice as rules a machine can check: no "!", no emoji, no praise, no guilt, no wellness clichés.
/// The banned phrases live here and nowhere else.
public enum CopyRules {
    public static let bannedPhrases: [String] = [
        // praise
        "great job", "well done", "proud of you", "amazing", "awesome", "you got this", "you're doing great",
        "you are doing great", "keep it up", "nailed it", "crushing it", "crush it", "congratulations",
        // guilt
        "you failed", "ashamed", "disappointing", "lost your streak", "you haven't opened", "don't break",
        // wellness and hustle clichés
        "journey", "self-care", "mindful", "deep breath", "inner peace", "inner child", "best self",
        "manifest", "healing", "vibes", "namaste", "gratitude", "be kind to yourself", "love yourself",
        "positive energy", "empower", "unlock", "level up", "badge", "xp",
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
    public static func violations(_ text: String, limit: Int? = nil) -> [String] {
        var out: [String] = []
        if text.contains("!") { out.append("contains '!'") }
        if let e = text.unicodeScalars.first(where: isEmoji) {
            out.append("contains an emoji (U+\(String(e.value, radix: 16, uppercase: true)))")
        }
        let lower = text.lowercased()
        for phrase in bannedPhrases where containsPhrase(lower, phrase) {
            out.append("banned phrase '\(phrase)'")
        }
        if let limit, text.count > limit { out.append("\(text.count) characters, over the limit of \(limit)") }
        return out
    }

    static func containsPhrase(_ lower: String, _ phrase: String) -> Bool {
        var search = lower[...]
        while let r = search.range(of: phrase) {
            let before = r.lowerBound == lower.startIndex ? nil : lower[lower.index(before: r.lowerBound)]
            let after = r.upperBound == lower.endIndex ? nil : lower[r.upperBound]
            let isWord: (Character?) -> Bool = { c in c.map { $0.isLetter || $0.isNumber } ?? false }
            // Whole words for short phrases ("xp" must not match "expect"); prefixes allowed for longer stems ("mindful" in "mindfulness").
            if !isWord(before) && (phrase.count > 4 || !isWord(after)) { return true }
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
