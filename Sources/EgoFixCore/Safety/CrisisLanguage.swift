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
        let lower = text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
        return phrases.contains { lower.contains($0) }
    }
}
