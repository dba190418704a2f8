import Foundation

/// Picks a micro-education tidbit for a bug and a trigger: random under a seed, never the same one twice in a row.
public enum MicroEducationPicker {
    public static func pick(from pool: [MicroEducation], bugSlug: String, trigger: EducationTrigger,
                            lastShownId: UUID?, seed: UInt64) -> MicroEducation? {
        var candidates = self.candidates(in: pool, bugSlug: bugSlug, trigger: trigger)
        if candidates.count > 1, let last = lastShownId { candidates.removeAll { $0.id == last } }
        return pick(fromCandidates: candidates, seed: seed)
    }

    /// The tidbits `pick` chooses among (before leaving out the last one shown), in its order.
    public static func candidates(in pool: [MicroEducation], bugSlug: String, trigger: EducationTrigger) -> [MicroEducation] {
        pool.filter { $0.deletedAt == nil && $0.bugSlug == bugSlug && $0.trigger == trigger }.sorted { $0.id.sortsBefore($1.id) }
    }

    /// The rest-day tidbit for a local day: the bug's rest-day tidbits in an order of their own for
    /// this user, taken one per day, so two consecutive days never show the same one (when there
    /// are two or more) and asking again the same day shows the same one. No state needed.
    public static func restDay(from pool: [MicroEducation], bugSlug: String, userId: UUID, day: LocalDay) -> MicroEducation? {
        rotation(from: pool, bugSlug: bugSlug, trigger: .restDay, userId: userId, slot: day.ordinal)
    }

    /// The diagnostic's tidbit for the week starting `monday`, the same way, one per week: two
    /// diagnostics in a row never show the same one (when the bug has two or more), and the
    /// terminal and the week's page show the same one.
    public static func diagnostic(from pool: [MicroEducation], bugSlug: String, userId: UUID, week monday: LocalDay) -> MicroEducation? {
        rotation(from: pool, bugSlug: bugSlug, trigger: .duringDiagnostic, userId: userId, slot: (monday.ordinal - LocalDay.mod(monday.ordinal, 7)) / 7)
    }

    /// The bug's tidbits for `trigger` in an order of their own for this user, taken one per slot.
    static func rotation(from pool: [MicroEducation], bugSlug: String, trigger: EducationTrigger, userId: UUID, slot: Int) -> MicroEducation? {
        let candidates = self.candidates(in: pool, bugSlug: bugSlug, trigger: trigger)
        guard !candidates.isEmpty else { return nil }
        let keyed = candidates.map { (StableHash.fnv1a([userId.uuidString, $0.id.uuidString]), $0) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.id.sortsBefore($1.1.id) }
        return keyed[LocalDay.mod(slot, keyed.count)].1
    }

    /// `pick`'s choice among `candidates` as `candidates(in:bugSlug:trigger:)` gives them, for a
    /// caller that picks many times from the same ones.
    public static func pick(fromCandidates candidates: [MicroEducation], seed: UInt64) -> MicroEducation? {
        guard !candidates.isEmpty else { return nil }
        var rng = SplitMix64(seed: seed)
        return candidates[Int(rng.next() % UInt64(candidates.count))]
    }
}
