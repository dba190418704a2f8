import Foundation

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

    /// How far the next version is after `applied` applied fixes, said one way wherever it is
    /// said (`status`, the dashboard, the week pages): "5 more applied fixes to v4.0".
    public static func toNextVersion(appliedCount applied: Int) -> String {
        let n = fixesToNextVersion(appliedCount: applied)
        return (n == 1 ? "1 more applied fix" : "\(n) more applied fixes") + " to v\(version(forAppliedCount: applied).next.version)"
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
            : "\(Thresholds.fixesPerMinorVersion) fixes applied since v\(old.description)."
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
