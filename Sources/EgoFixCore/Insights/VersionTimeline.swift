import Foundation

/// The version in effect at any instant, from the changelog's version bumps.
///
/// A bump recorded at instant t takes effect after t: the fix whose application completed a
/// version (stamped with the same instant as its bump) still belongs to the version it completed.
public struct VersionTimeline: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public let version: String
        public let changeType: VersionChangeType
        public let at: Date
        public let entryId: UUID
    }

    /// Major and minor updates, oldest first.
    public let steps: [Step]
    public let initial: String

    public init(versions: [VersionEntry], initial: String = Version.initial.description) {
        self.initial = initial
        steps = RecordOrder.sorted(versions, keep: { $0.deletedAt == nil && ($0.changeType == .majorUpdate || $0.changeType == .minorUpdate) },
                                   at: { $0.createdAt }, id: { $0.id })
            .map { Step(version: $0.version, changeType: $0.changeType, at: $0.createdAt, entryId: $0.id) }
    }

    /// Index of the last step strictly before `instant`, or nil when none is.
    public func stepIndex(before instant: Date) -> Int? {
        var lo = 0, hi = steps.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if steps[mid].at < instant { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// The version running at `instant` (bumps at exactly `instant` not yet counted).
    public func version(at instant: Date) -> String {
        stepIndex(before: instant).map { steps[$0].version } ?? initial
    }

    /// Every version that existed: the initial one, then each bump.
    public var versions: [String] { [initial] + steps.map(\.version) }
}
