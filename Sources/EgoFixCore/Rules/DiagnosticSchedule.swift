import Foundation

/// The weekly diagnostic: due from Sunday 18:00 through the end of Monday in the user's time zone,
/// reviewing the ISO week (Monday to Sunday) that is ending or has just ended. Done once per week,
/// at most 3 bugs, the least recently asked first. Skipping records nothing and costs nothing.
public enum DiagnosticSchedule {
    /// The Monday of the week under review when `now` is inside the window, else nil.
    public static func reviewedWeek(now: Date, calendar: Calendar) -> LocalDay? {
        let day = LocalDay(now, calendar: calendar)
        let hour = calendar.component(.hour, from: now)
        switch day.isoWeekday {
        case 7 where hour >= Thresholds.diagnosticOpensSundayHour: return day.isoWeekStart
        case 1: return day.adding(days: -7)
        default: return nil
        }
    }

    public static func isDue(now: Date, calendar: Calendar, completed: [WeeklyDiagnostic]) -> Bool {
        guard let week = reviewedWeek(now: now, calendar: calendar) else { return false }
        return !completed.contains { $0.deletedAt == nil && LocalDay($0.weekStarting, calendar: calendar) == week }
    }

    /// The bugs to ask about: active ones, never asked first, then the longest since asked,
    /// then the least often asked, then primary, activation date and slug. At most 3.
    public static func bugsToAsk(active: [Bug], primaryBugId: UUID?, completed: [WeeklyDiagnostic],
                                 max limit: Int = Thresholds.diagnosticMaxBugs) -> [Bug] {
        var lastAsked: [UUID: Date] = [:]
        var timesAsked: [UUID: Int] = [:]
        for d in completed where d.deletedAt == nil {
            for r in d.responses {
                lastAsked[r.bugId] = Swift.max(lastAsked[r.bugId] ?? .distantPast, d.completedAt)
                timesAsked[r.bugId, default: 0] += 1
            }
        }
        return bugsToAsk(active: active, primaryBugId: primaryBugId, lastAsked: lastAsked, timesAsked: timesAsked, max: limit)
    }

    /// `bugsToAsk`, given when each bug was last asked and how often (the only things it reads
    /// from the completed diagnostics).
    static func bugsToAsk(active: [Bug], primaryBugId: UUID?, lastAsked: [UUID: Date], timesAsked: [UUID: Int],
                          max limit: Int = Thresholds.diagnosticMaxBugs) -> [Bug] {
        // Indexes into `active`, in turn order, then the stable bugs by slug; no bug is copied to sort them.
        let order = DailyFixRules.turnOrderIndices(active, primaryBugId: primaryBugId)
            + active.indices.filter { active[$0].deletedAt == nil && active[$0].isActive && active[$0].status == .stable }
                .sorted { active[$0].slug < active[$1].slug }
        // Each bug's keys looked up once, not at every comparison.
        let last = order.map { lastAsked[active[$0].id] }
        let times = order.map { timesAsked[active[$0].id] ?? 0 }
        return order.indices.sorted { a, b in
            switch (last[a], last[b]) {
            case (nil, nil): return a < b
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?):
                if x != y { return x < y }
                return times[a] != times[b] ? times[a] < times[b] : a < b
            }
        }.prefix(limit).map { active[order[$0]] }
    }
}

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
        let candidates = self.candidates(in: pool, bugSlug: bugSlug, trigger: .restDay)
        guard !candidates.isEmpty else { return nil }
        let keyed = candidates.map { (StableHash.fnv1a([userId.uuidString, $0.id.uuidString]), $0) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.id.sortsBefore($1.1.id) }
        return keyed[LocalDay.mod(day.ordinal, keyed.count)].1
    }

    /// `pick`'s choice among `candidates` as `candidates(in:bugSlug:trigger:)` gives them, for a
    /// caller that picks many times from the same ones.
    public static func pick(fromCandidates candidates: [MicroEducation], seed: UInt64) -> MicroEducation? {
        guard !candidates.isEmpty else { return nil }
        var rng = SplitMix64(seed: seed)
        return candidates[Int(rng.next() % UInt64(candidates.count))]
    }
}
