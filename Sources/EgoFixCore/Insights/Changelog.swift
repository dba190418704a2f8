import Foundation

/// An applied fix as the changelog lists it.
public struct AppliedFixRef: Sendable, Equatable {
    public let completionId: UUID
    public let fixId: UUID
    /// "FIX #037"
    public let label: String
    public let number: Int
    public let prompt: String
    public let bugId: UUID?
    public let bugTitle: String?
    public let appliedAt: Date
    public let day: LocalDay
}

/// One changelog entry: a version bump, a crash or a reboot.
public struct ChangelogEntry: Sendable, Equatable {
    public let id: UUID
    public let version: String
    public let changeType: VersionChangeType
    public let date: Date
    public let day: LocalDay
    public let description: String
    /// For a version bump: the fixes that shipped in it — those applied since the previous bump,
    /// the last of which completed it. Empty for crashes and reboots.
    public let fixes: [AppliedFixRef]
}

/// The version changelog, newest first, with the fixes applied towards the next version as
/// "unreleased", the way a software changelog keeps them.
public struct Changelog: Sendable, Equatable {
    public let entries: [ChangelogEntry]
    public let unreleased: [AppliedFixRef]
    public let currentVersion: String
    public let fixesToNextVersion: Int

    /// Only the version bumps, newest first.
    public var releases: [ChangelogEntry] { entries.filter { $0.changeType == .majorUpdate || $0.changeType == .minorUpdate } }

    public static func make(_ practice: Practice, calendar cal: Calendar) -> Changelog {
        let timeline = VersionTimeline(versions: practice.versions)
        let fixes = practice.fixIndex(), bugs = practice.bugIndex()
        let applied: [AppliedFixRef] = practice.liveCompletions.compactMap { c in
            guard c.outcome == .applied, let fix = fixes[c.fixId] else { return nil }
            let at = c.completedAt ?? c.assignedAt
            return AppliedFixRef(completionId: c.id, fixId: fix.id, label: fix.label, number: fix.number, prompt: fix.prompt,
                                 bugId: fix.bugId, bugTitle: bugs[fix.bugId]?.title, appliedAt: at, day: LocalDay(at, calendar: cal))
        }
        // Fixes applied at or before each bump, after the previous one.
        var shipped = [[AppliedFixRef]](repeating: [], count: timeline.steps.count)
        var unreleased: [AppliedFixRef] = []
        for f in applied {
            // The first bump at or after the fix: the one it shipped in.
            var lo = 0, hi = timeline.steps.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if timeline.steps[mid].at < f.appliedAt { lo = mid + 1 } else { hi = mid }
            }
            if lo < timeline.steps.count { shipped[lo].append(f) } else { unreleased.append(f) }
        }
        var stepIndex: [UUID: Int] = [:]
        for (i, s) in timeline.steps.enumerated() { stepIndex[s.entryId] = i }
        let entries = practice.versions.filter { $0.deletedAt == nil }
            .sorted { a, b in
                if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
                let ra = rank(a.changeType), rb = rank(b.changeType)
                return ra != rb ? ra > rb : a.id.uuidString > b.id.uuidString
            }
            .map { v in
                ChangelogEntry(id: v.id, version: v.version, changeType: v.changeType, date: v.createdAt,
                               day: LocalDay(v.createdAt, calendar: cal), description: v.description,
                               fixes: stepIndex[v.id].map { shipped[$0] } ?? [])
            }
        let appliedCount = applied.count
        return Changelog(entries: entries, unreleased: unreleased,
                         currentVersion: timeline.steps.last?.version ?? timeline.initial,
                         fixesToNextVersion: VersionRules.fixesToNextVersion(appliedCount: appliedCount))
    }

    /// Within one instant, a bump is listed above the crash or reboot it happened with.
    static func rank(_ t: VersionChangeType) -> Int {
        switch t {
        case .majorUpdate, .minorUpdate: return 2
        case .reboot: return 1
        case .crash: return 0
        }
    }
}
