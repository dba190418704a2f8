import EgoFixCore
import Foundation

enum ISO8601 {
    static func format(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: d)
    }

    /// An instant with its offset or Z, fractional seconds optional, read strictly
    /// (`InstantText.parse`: no impossible day, nothing after the offset).
    static func parse(_ s: String) -> Date? {
        InstantText.parse(s)
    }
}
