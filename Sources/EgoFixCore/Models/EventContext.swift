import Foundation

public enum EventContext: String, Codable, Sendable, CaseIterable {
    case work
    case home
    case social
    case family
    case online
    case unknown

    /// The word the commands take and print: "unsure" for `unknown` (the asking form's word).
    public var word: String { self == .unknown ? "unsure" : rawValue }

    /// A context as a person types it: any `word`, or the stored "unknown", in any case.
    public static func parse(_ text: String) -> EventContext? {
        let name = text.lowercased()
        return EventContext(rawValue: name == "unsure" ? EventContext.unknown.rawValue : name)
    }

    /// "work, home, social, family, online, unsure": the words, for help and errors.
    public static var words: String { allCases.map(\.word).joined(separator: ", ") }
}
