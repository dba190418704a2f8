import Foundation

/// A version number: v1.0 for a new profile, a minor bump every 7 applied fixes, 1.9 → 2.0.
public struct Version: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public init?(_ string: String) {
        let s = string.hasPrefix("v") ? String(string.dropFirst()) : string
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 1, b >= 0,
              b < Thresholds.minorVersionsPerMajor else { return nil }
        major = a
        minor = b
    }

    public static let initial = Version(major: 1, minor: 0)

    public var description: String { "\(major).\(minor)" }

    public static func < (a: Version, b: Version) -> Bool { (a.major, a.minor) < (b.major, b.minor) }

    /// The next version and whether it is a major or a minor update.
    public var next: (version: Version, change: VersionChangeType) {
        if minor + 1 >= Thresholds.minorVersionsPerMajor {
            return (Version(major: major + 1, minor: 0), .majorUpdate)
        }
        return (Version(major: major, minor: minor + 1), .minorUpdate)
    }
}
