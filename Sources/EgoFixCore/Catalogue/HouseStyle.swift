import Foundation

/// The catalogue's house style (docs/style.md) as far as a machine can check it: one spelling
/// (American), one quote style (straight, double for quotations), the comment shape, the timer
/// minimum, and the word-level tests the cross-entry rules in `SeedLint` are built on (openings,
/// proper names in tidbits). The banned words stay in `CopyRules`, which checks all copy.
public enum HouseStyle {
    /// An inline comment: at most this many lines...
    public static let commentLines = 2
    /// ...each at most this many characters, "// " included.
    public static let commentLineLength = 60
    /// A timed fix runs at least a minute: shorter timers end up started mid-conversation.
    public static let minimumTimerSeconds = 60
    /// At most this many of a bug's active prompts may open with the same three words.
    public static let sharedOpenings = 3
    /// At most this many of a bug's quiz and scenario prompts may open with the same word
    /// (the first edition opened 25 of 30 scenarios with "Rehearse").
    public static let sharedFirstWordInQuizzes = 2
    /// The share of a bug's active fixes that carry an inline comment: about 60 % (the spec), the
    /// best ones; a comment on every fix stops being read.
    public static let commentShare = 0.55...0.65
    /// ...checked for a bug with at least this many active fixes (a small catalogue of one's own
    /// is not held to a share).
    public static let commentShareMinimumFixes = 40
    /// At most this share of a bug's tidbits may open with a name.
    public static let tidbitsOpeningWithAName = 1.0 / 3.0

    // MARK: Spelling

    /// British spellings and the American ones the catalogue uses, lowercase whole words,
    /// with their common forms (realise, realised, realises, realising, realisation...).
    public static let americanSpelling: [String: String] = {
        var m: [String: String] = [:]
        // -our → -or
        for (b, a) in [("behaviour", "behavior"), ("colour", "color"), ("favour", "favor"), ("honour", "honor"),
                       ("humour", "humor"), ("labour", "labor"), ("neighbour", "neighbor"), ("rumour", "rumor"),
                       ("flavour", "flavor"), ("harbour", "harbor"), ("savour", "savor"), ("endeavour", "endeavor"),
                       ("armour", "armor"), ("vigour", "vigor"), ("candour", "candor"), ("odour", "odor"), ("parlour", "parlor")] {
            for s in ["", "s", "ed", "ing", "ite", "ites", "ful", "fully", "able", "ably", "al", "ally", "hood", "hoods",
                      "less", "y", "er", "ers"] {
                m[b + s] = a + s
            }
        }
        // -ise → -ize, -isation → -ization
        for stem in ["real", "apolog", "organ", "recogn", "critic", "emphas", "priorit", "summar", "memor", "categor",
                     "minim", "maxim", "sympath", "agon", "idol", "fantas", "rational", "normal", "social", "patron",
                     "scrutin", "optim", "character", "final", "personal", "util", "visual", "verbal", "special",
                     "stabil", "general", "jeopard", "author", "legal", "theor", "trivial", "romantic", "glamor",
                     "standard", "familiar", "moral", "modern", "civil", "vandal", "capital", "subsid", "synchron"] {
            let a = stem + "iz", b = stem + "is"
            for s in ["e", "ed", "es", "ing", "er", "ers", "ation", "ations"] { m[b + s] = a + s }
        }
        // -yse → -yze
        for stem in ["anal", "paral", "catal"] {
            for s in ["e", "ed", "es", "ing", "er", "ers"] { m[stem + "ys" + s] = stem + "yz" + s }
        }
        // -re → -er
        for stem in ["cent", "theat", "met", "lit", "fib", "calib", "somb", "spect", "meag", "lust", "sab", "manoeuv"] {
            let a = stem == "manoeuv" ? "maneuv" : stem
            m[stem + "re"] = a + "er"
            m[stem + "res"] = a + "ers"
            m[stem + "red"] = a + "ered"
        }
        // a doubled l before -ed, -ing, -er
        for stem in ["travel", "cancel", "label", "model", "signal", "fuel", "quarrel", "level", "counsel", "marvel",
                     "channel", "total", "dial", "equal", "jewel", "shovel", "tunnel", "snorkel", "yodel", "grovel"] {
            for s in ["ed", "ing", "er", "ers", "or", "ors"] { m[stem + "l" + s] = stem + s }
        }
        m["marvellous"] = "marvelous"
        for (b, a) in [("judgement", "judgment"), ("judgements", "judgments"), ("acknowledgement", "acknowledgment"),
                       ("programme", "program"), ("programmes", "programs"), ("defence", "defense"), ("offence", "offense"),
                       ("pretence", "pretense"), ("licence", "license"), ("practise", "practice"), ("practised", "practiced"),
                       ("practises", "practices"), ("practising", "practicing"), ("grey", "gray"), ("greying", "graying"),
                       ("moustache", "mustache"), ("sceptic", "skeptic"), ("sceptical", "skeptical"), ("scepticism", "skepticism"),
                       ("whilst", "while"), ("amongst", "among"), ("learnt", "learned"), ("tyre", "tire"), ("tyres", "tires"),
                       ("cheque", "check"), ("cheques", "checks"), ("jewellery", "jewelry"), ("ageing", "aging"),
                       ("enrol", "enroll"), ("enrolment", "enrollment"), ("fulfil", "fulfill"), ("fulfilment", "fulfillment"),
                       ("instalment", "installment"), ("skilful", "skillful"), ("wilful", "willful"), ("aeroplane", "airplane"),
                       ("plough", "plow"), ("mould", "mold"), ("pyjamas", "pajamas"), ("cosy", "cozy"), ("storey", "story"),
                       ("paediatric", "pediatric"), ("anaesthetic", "anesthetic"), ("oestrogen", "estrogen"), ("kerb", "curb"),
                       ("mum", "mom"), ("mums", "moms")] {
            m[b] = a
        }
        return m
    }()

    /// "British spelling 'behaviour' (write 'behavior')", once per word.
    public static func spelling(_ text: String) -> [String] {
        var out: [String] = [], seen: Set<String> = []
        for w in words(text) {
            let lower = w.lowercased()
            if let a = americanSpelling[lower], seen.insert(lower).inserted {
                out.append("British spelling '\(w)' (write '\(a)')")
            }
        }
        return out
    }

    // MARK: Quotes

    /// Typographic quotes: the catalogue uses straight ASCII quotes only.
    static let curlyQuotes: Set<Unicode.Scalar> = ["\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}", "\u{201C}", "\u{201D}",
                                                   "\u{201E}", "\u{201F}", "\u{2039}", "\u{203A}", "\u{00AB}", "\u{00BB}"]
    /// Words that begin with an apostrophe of their own (an elision, not a quotation).
    static let elisions: Set<String> = ["em", "til", "cause", "cos", "n", "tis", "twas", "round", "bout", "nuff", "ol", "kay"]

    /// "curly quote ..." and "single quotes used as quotation marks ...", at most one of each.
    public static func quotes(_ text: String) -> [String] {
        var out: [String] = []
        if let q = text.unicodeScalars.first(where: { curlyQuotes.contains($0) }) {
            out.append("curly quote U+\(String(q.value, radix: 16, uppercase: true)) (use straight quotes)")
        }
        let s = Array(text.unicodeScalars)
        for i in s.indices where s[i] == "'" {
            let before: Unicode.Scalar? = i > 0 ? s[i - 1] : nil
            guard before.map({ $0.properties.isWhitespace || "([{\"/".unicodeScalars.contains($0) }) ?? true,
                  i + 1 < s.count, s[i + 1].properties.isAlphabetic || ("0"..."9").contains(s[i + 1]) else { continue }
            var j = i + 1, word = ""
            while j < s.count, s[j].properties.isAlphabetic || ("0"..."9").contains(s[j]) { word.unicodeScalars.append(s[j]); j += 1 }
            let lower = word.lowercased()
            if elisions.contains(lower) { continue }
            if lower.count >= 2, lower.dropLast().allSatisfy(\.isNumber), lower.hasSuffix("s") { continue }   // '90s
            out.append("single quotes used as quotation marks (use double quotes: \"...\")")
            break
        }
        return out
    }

    // MARK: Comments

    /// Problems with an inline comment's shape: at most two lines, each "// " and at most 60 characters.
    public static func commentShape(_ comment: String) -> [String] {
        var out: [String] = []
        let lines = comment.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > commentLines { out.append("\(lines.count) lines; at most \(commentLines)") }
        for (i, l) in lines.enumerated() where l.count > commentLineLength {
            out.append("line \(i + 1) is \(l.count) characters; at most \(commentLineLength)")
        }
        return out
    }

    // MARK: Words

    /// The words of a text: letters, digits and inner apostrophes or hyphens ("don't", "T-shirt").
    public static func words(_ text: String) -> [String] {
        var out: [String] = [], cur = ""
        let s = Array(text.unicodeScalars)
        for (i, u) in s.enumerated() {
            let isWordChar = u.properties.isAlphabetic || ("0"..."9").contains(u)
            let joins = (u == "'" || u == "-" || u == "\u{2019}") && !cur.isEmpty && i + 1 < s.count
                && (s[i + 1].properties.isAlphabetic || ("0"..."9").contains(s[i + 1]))
            if isWordChar || joins { cur.unicodeScalars.append(u) } else if !cur.isEmpty { out.append(cur); cur = "" }
        }
        if !cur.isEmpty { out.append(cur) }
        return out
    }

    /// The first `n` words, lowercased: what "repeated openings" compares.
    public static func opening(_ text: String, words n: Int) -> String {
        words(text).prefix(n).map { $0.lowercased() }.joined(separator: " ")
    }

    // MARK: Proper names in tidbits

    /// Capitalized words that are not names (or not a concept of one bug): pronouns, articles and
    /// other sentence openers, days, months, languages and peoples.
    public static let notNames: Set<String> = Set(LocalDay.weekdayNames + LocalDay.monthNames).union([
        "I", "A", "An", "The", "This", "That", "These", "Those", "It", "In", "On", "At", "Of", "For", "And", "But", "Or",
        "If", "When", "What", "Who", "Why", "How", "So", "To", "As", "By", "With", "From", "Not", "No", "Yes", "One",
        "People", "Most", "Some", "Many", "You", "Your", "We", "Our", "They", "Their", "He", "She", "His", "Her", "There",
        "English", "Latin", "Greek", "French", "German", "Italian", "Spanish", "Japanese", "Dutch", "American", "British", "European",
        "Christmas", "Internet", "God",
    ])

    struct Token {
        let word: String          // without a possessive "'s" or "'"
        let capitalized: Bool
        let sentenceStart: Bool
        let adjacentToNext: Bool  // followed by one space, then the next word
    }

    static func tokens(_ text: String) -> [Token] {
        let s = Array(text.unicodeScalars)
        var out: [(word: String, start: Int, end: Int)] = []
        var i = 0
        while i < s.count {
            guard s[i].properties.isAlphabetic else { i += 1; continue }
            var j = i, w = ""
            while j < s.count {
                let u = s[j]
                let inner = (u == "'" || u == "-" || u == "\u{2019}") && j + 1 < s.count && s[j + 1].properties.isAlphabetic
                guard u.properties.isAlphabetic || ("0"..."9").contains(u) || inner else { break }
                w.unicodeScalars.append(u)
                j += 1
            }
            out.append((w, i, j))
            i = j
        }
        return out.enumerated().map { k, t in
            var word = t.word
            for suffix in ["'s", "\u{2019}s"] where word.hasSuffix(suffix) { word.removeLast(2) }
            // Sentence start: the text's start; after . ? ! or : (and a closing quote or parenthesis);
            // right after an opening quote or parenthesis.
            var p = t.start - 1
            while p >= 0, s[p] == " " { p -= 1 }
            let openers: Set<Unicode.Scalar> = ["\"", "(", "\u{201C}"]
            let start: Bool
            if p < 0 {
                start = true
            } else if openers.contains(s[p]), p == 0 || s[p - 1].properties.isWhitespace || openers.contains(s[p - 1]) {
                start = true
            } else if s[p] == "\"" || s[p] == ")" || s[p] == "\u{201D}" {
                start = p > 0 && ".?!:".unicodeScalars.contains(s[p - 1])
            } else {
                start = ".?!:".unicodeScalars.contains(s[p])
            }
            let first = word.unicodeScalars.first
            let capitalized = (first.map { $0.properties.isUppercase } ?? false)
                && word.unicodeScalars.count > 1
                && !word.unicodeScalars.allSatisfy { $0.properties.isUppercase || !$0.properties.isAlphabetic }   // not an acronym
            let adjacent = k + 1 < out.count && out[k + 1].start == t.end + 1 && s[t.end] == " "
            return Token(word: word, capitalized: capitalized, sentenceStart: start, adjacentToNext: adjacent)
        }
    }

    /// The proper names in a text, each as its run of capitalized words ("Erving Goffman"):
    /// capitalized words outside `notNames` that are not at a sentence start, or are but either
    /// start a run of two or more or are in `known` (names found mid-sentence elsewhere).
    public static func names(_ text: String, known: Set<String> = []) -> [[String]] {
        let t = tokens(text)
        var out: [[String]] = [], run: [String] = []
        for (k, tok) in t.enumerated() {
            let inRun = tok.capitalized && !notNames.contains(tok.word)
                && (!tok.sentenceStart || known.contains(tok.word)
                    || (tok.adjacentToNext && k + 1 < t.count && t[k + 1].capitalized && !notNames.contains(t[k + 1].word)))
            if inRun { run.append(tok.word) } else if !run.isEmpty { out.append(run); run = [] }
            if inRun, !tok.adjacentToNext, !run.isEmpty { out.append(run); run = [] }
        }
        if !run.isEmpty { out.append(run) }
        return out
    }

    /// Two names are the same when the shorter is the end of the longer: "Goffman" and "Erving
    /// Goffman" are; "Richard Lee" and "Jungmin Lee" are not.
    public static func sameName(_ a: [String], _ b: [String]) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        return !short.isEmpty && Array(long.suffix(short.count)) == short
    }

    /// Whether a tidbit opens with a name: its first word is capitalized, not a common opener, and
    /// either starts a run of capitalized words ("Erving Goffman called it..."), is possessive
    /// ("Parkinson's law"), or is a name the catalogue uses elsewhere (`known`).
    public static func opensWithName(_ text: String, known: Set<String>) -> Bool {
        let t = tokens(text)
        guard let first = t.first, first.capitalized, !notNames.contains(first.word) else { return false }
        if first.adjacentToNext, t.count > 1, t[1].capitalized, !notNames.contains(t[1].word) { return true }
        let firstWord = words(text).first ?? ""
        if firstWord.hasSuffix("'s") || firstWord.hasSuffix("\u{2019}s") { return true }
        return known.contains(first.word)
    }
}
