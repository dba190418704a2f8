import Foundation

/// The copy helpers every detector shares: the user's own words and numbers, plainly.
public enum PatternCopy {
    /// A pattern type as the pages and `egofix patterns` name it ("crash timing"; the type's raw
    /// value, `temporalCrash`, is what `--dismiss` takes).
    public static func name(_ t: PatternType) -> String {
        switch t {
        case .avoidance: return "avoidance"
        case .temporalCrash: return "crash timing"
        case .contextualSpike: return "context spike"
        case .correlatedBugs: return "correlated bugs"
        case .plateau: return "plateau"
        case .regression: return "regression"
        case .improvement: return "improvement"
        }
    }

    /// A pattern's p-value as the terminal and the site say it: "p = 0.042", "p < 0.001" (never
    /// "p = 0.000", a certainty the test rules out), "p = 1" for a test that found nothing beyond
    /// chance (a corrected p is capped at 1); nil when none is computed, as for a regression and a
    /// plateau (stored as 1). A computed 1 read as "p not computed" before.
    public static func confidence(_ p: Double, of type: PatternType) -> String? {
        if !hasPValue(type) { return nil }
        if p >= 1 { return "p = 1" }
        if p < 0.001 { return "p < 0.001" }
        return String(format: "p = %.3f", p)
    }

    /// Whether a pattern of this kind comes with a p-value: a regression and a plateau have none.
    public static func hasPValue(_ type: PatternType) -> Bool { type != .regression && type != .plateau }

    /// A bug title as the object of "about": "Need to be right" → "being right",
    /// "Need to impress" → "impressing", "Fear of being ordinary" → "being ordinary".
    public static func topic(_ title: String) -> String {
        // Title Case words go lower case ("Need To Be Right"); words with inner capitals stay ("LinkedIn").
        let t = title.trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: " ", omittingEmptySubsequences: true)
            .map { w -> String in
                let rest = w.dropFirst()
                guard w.count > 1, w.first?.isUppercase == true, rest == rest.lowercased() else { return String(w) }
                return w.lowercased()
            }
            .joined(separator: " ")
        let lower = t.lowercased()
        if lower.hasPrefix("need to be ") { return "being " + String(t.dropFirst("need to be ".count)) }
        if lower.hasPrefix("fear of ") { return String(t.dropFirst("fear of ".count)) }
        if lower.hasPrefix("need to ") {
            let rest = String(t.dropFirst("need to ".count))
            let words = rest.split(separator: " ", omittingEmptySubsequences: true)
            if let first = words.first {
                let tail = words.dropFirst().joined(separator: " ")
                let g = gerund(String(first))
                return tail.isEmpty ? g : g + " " + tail
            }
        }
        return lower.isEmpty ? "an unnamed bug" : "\u{201C}" + t + "\u{201D}"
    }

    static func gerund(_ verb: String) -> String {
        let v = verb.lowercased()
        if v.hasSuffix("ie") { return String(v.dropLast(2)) + "ying" }
        if v.hasSuffix("e") && !v.hasSuffix("ee") && v.count > 2 { return String(v.dropLast()) + "ing" }
        return v + "ing"
    }

    /// "two" for 2; numbers above ten stay digits.
    public static func word(_ n: Int) -> String {
        switch n {
        case 0: return "no"
        case 1: return "one"
        case 2: return "two"
        case 3: return "three"
        case 4: return "four"
        case 5: return "five"
        case 6: return "six"
        case 7: return "seven"
        case 8: return "eight"
        case 9: return "nine"
        case 10: return "ten"
        default: return String(n)
        }
    }

    /// 1 = Sunday ... 7 = Saturday.
    public static func weekdayName(_ weekday: Int) -> String {
        LocalDay.weekdayNames[LocalDay.mod(weekday - 2, 7)]
    }

    /// "2026-03-12": a day as every other line of the tool writes one (the history, the bug
    /// pages, the week pages). Pattern prose alone said "12 March", and "12 March 2025" once the
    /// year had turned.
    public static func date(_ day: LocalDay) -> String {
        day.description
    }

    /// "57%"
    public static func percent(_ share: Double) -> String {
        "\(Int((share * 100).rounded()))%"
    }

    /// "based on 7 crashes over 26 weeks; could be chance"
    public static func basis(_ what: String, severity: PatternSeverity?) -> String {
        guard let severity else { return "based on " + what }
        return "based on " + what + "; " + PatternStatistics.chanceWords(severity)
    }

    /// Capitalises the first letter only.
    public static func sentence(_ s: String) -> String {
        guard let f = s.first else { return s }
        return String(f).uppercased() + s.dropFirst()
    }
}
