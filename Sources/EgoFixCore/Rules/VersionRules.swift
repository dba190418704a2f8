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

public enum VersionRules {
    /// The version reached after `applied` applied fixes.
    public static func version(forAppliedCount applied: Int) -> Version {
        let bumps = max(0, applied) / Thresholds.fixesPerMinorVersion
        return Version(major: 1 + bumps / Thresholds.minorVersionsPerMajor,
                       minor: bumps % Thresholds.minorVersionsPerMajor)
    }

    /// Applied fixes still needed for the next version.
    public static func fixesToNextVersion(appliedCount applied: Int) -> Int {
        Thresholds.fixesPerMinorVersion - (max(0, applied) % Thresholds.fixesPerMinorVersion)
    }

    /// The version entries that an applied fix creates: one when it completes a group of 7, else none.
    public static func entriesAfterApplying(appliedCountBefore before: Int, userId: UUID, at now: Date,
                                            id: UUID = UUID()) -> [VersionEntry] {
        let old = version(forAppliedCount: before)
        let new = version(forAppliedCount: before + 1)
        guard new != old else { return [] }
        let change: VersionChangeType = new.major != old.major ? .majorUpdate : .minorUpdate
        let what = change == .majorUpdate
            ? "Major update. \(before + 1) fixes applied since v1.0."
            : "\(Thresholds.fixesPerMinorVersion) more fixes applied."
        return [VersionEntry(id: id, userId: userId, version: new.description, changeType: change,
                             description: what, createdAt: now)]
    }

    /// A crash or reboot is recorded in the changelog under the current number, which it does not change.
    public static func entry(for change: VersionChangeType, current: Version, userId: UUID, at now: Date,
                             description: String, id: UUID = UUID()) -> VersionEntry {
        VersionEntry(id: id, userId: userId, version: current.description, changeType: change,
                     description: description, createdAt: now)
    }
}
