/// The shapes of names egofix checks (a bug's colour and slug, a content file's name), read byte
/// by byte. They were regular expressions, whose compilation alone was a noticeable part of a build
/// (docs/performance.md); these also take only ASCII digits where `\d` took any Unicode digit.
public enum NameShape {
    /// `#rrggbb`: a hash and six hex digits.
    public static func isHexColor(_ s: String) -> Bool {
        let b = Array(s.utf8)
        return b.count == 7 && b[0] == UInt8(ascii: "#") && b.dropFirst().allSatisfy(isHexDigit)
    }

    /// Lowercase words of letters and digits joined by single hyphens: `ego-defense`, `bug2`.
    public static func isSlug(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, let last = b.last, isLowerOrDigit(first), isLowerOrDigit(last) else { return false }
        return zip(b, b.dropFirst()).allSatisfy { a, c in
            c == UInt8(ascii: "-") ? a != UInt8(ascii: "-") : isLowerOrDigit(c)
        }
    }

    /// A page name: a lowercase letter or digit, then letters, digits and hyphens.
    public static func isPageName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, isLowerOrDigit(first) else { return false }
        return b.allSatisfy { isLowerOrDigit($0) || $0 == UInt8(ascii: "-") }
    }

    /// An ISO week name, `2026-W47`: four digits, `-W`, two digits.
    public static func isISOWeekName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 8, b[4] == UInt8(ascii: "-"), b[5] == UInt8(ascii: "W") else { return false }
        return [0, 1, 2, 3, 6, 7].allSatisfy { isDigit(b[$0]) }
    }

    /// The name among `names` a person most likely meant by `typed`: the one equal to it but for
    /// case (`Need-To-Be-Right`) or for spaces and underscores where it has hyphens, else the
    /// nearest within `within` edits (Levenshtein). Of two as near, `firstOfEquals` names the
    /// alphabetically first (`bugz`: `bug`, a hint among a few short command names); without it
    /// neither (`need-to-be-rite` is as near to `-right` as to `-liked`, and naming one would be
    /// a guess). Nil when none is, or `typed` is one of them.
    public static func nearest(_ typed: String, among names: [String], within: Int = 2, firstOfEquals: Bool = false) -> String? {
        guard !names.contains(typed) else { return nil }
        let lower = typed.lowercased()
        if let same = names.filter({ $0.lowercased() == lower }).min() { return same }
        // Typed with spaces or underscores between its words: "need to be busy", "need_to_be_busy".
        if let shaped = names.first(where: { words($0) == words(typed) }) { return shaped }
        let near = names.map { (distance: editDistance($0, typed), name: $0) }.filter { $0.distance <= within }
        guard let best = near.map(\.distance).min() else { return nil }
        let nearest = near.filter { $0.distance == best }.map(\.name).sorted()
        return nearest.count == 1 || firstOfEquals ? nearest.first : nil
    }

    /// The slug of the bug a person most likely meant by `typed`: the one whose slug or title it
    /// is but for case and what stands between the words ("Fear of being ordinary" is
    /// `fear-of-ordinary`), else the nearest slug (`nearest`, within 3 edits).
    public static func nearestBug(_ typed: String, among bugs: [Bug]) -> String? {
        if let titled = bugs.filter({ words($0.title) == words(typed) }).map(\.slug).min(), titled != typed { return titled }
        return nearest(typed, among: bugs.map(\.slug), within: 3)
    }

    /// `name`'s words, lowercased: what is left of it apart from spaces, hyphens and underscores.
    static func words(_ name: String) -> [Substring] {
        Substring(name.lowercased()).split { $0 == " " || $0 == "-" || $0 == "_" }
    }

    /// Levenshtein distance between two names, per character.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var prev = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let cur = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = cur
            }
        }
        return row[b.count]
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    static func isLowerOrDigit(_ c: UInt8) -> Bool { isDigit(c) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) }

    static func isHexDigit(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"))
    }
}
