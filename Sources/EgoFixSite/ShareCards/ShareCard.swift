import EgoFixCore

/// What a shared fix may show: catalogue text and nothing else.
///
/// The only way to make one is from a catalogue `Fix` and its `Bug`, and it keeps only the fix's
/// number, prompt and inline comment and the bug's title. It has no field that could hold a streak,
/// a version, a date, an outcome, a graph, a reflection or a name, so a share page, card or image
/// built from it cannot leak any of them.
public struct ShareCard: Sendable, Equatable {
    /// Catalogue number ("FIX #037" is number 37).
    public let number: Int
    /// The challenge text.
    public let prompt: String
    /// The optional "// This is harder when..." comment.
    public let inlineComment: String?
    /// The bug's title ("Need to be right").
    public let bugTitle: String
    /// File and URL name of the share page, derived from the catalogue number ("fix-037").
    public let slug: String

    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case bugMismatch(fixNumber: Int, bugSlug: String)
        case deleted(fixNumber: Int)

        public var description: String {
            switch self {
            case .bugMismatch(let number, let slug):
                return "fix #\(number) does not belong to bug '\(slug)'; share it with its own bug."
            case .deleted(let number):
                return "fix #\(number) (or its bug) is deleted from the catalogue and cannot be shared."
            }
        }
    }

    public init(fix: Fix, bug: Bug) throws {
        guard fix.bugId == bug.id else { throw Error.bugMismatch(fixNumber: fix.number, bugSlug: bug.slug) }
        guard fix.deletedAt == nil, bug.deletedAt == nil else { throw Error.deleted(fixNumber: fix.number) }
        number = fix.number
        prompt = fix.prompt
        let comment = fix.inlineComment?.trimmingWhitespace() ?? ""
        inlineComment = comment.isEmpty ? nil : comment
        bugTitle = bug.title
        slug = "fix-" + ShareCard.pad(fix.number)
    }

    /// "FIX #037"
    public var label: String { "FIX #" + ShareCard.pad(number) }

    static func pad(_ n: Int) -> String {
        let s = String(n)
        return s.count >= 3 ? s : String(repeating: "0", count: 3 - s.count) + s
    }
}
