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
        let order = DailyFixRules.turnOrder(active, primaryBugId: primaryBugId)
            + active.filter { $0.deletedAt == nil && $0.isActive && $0.status == .stable }.sorted { $0.slug < $1.slug }
        let indexed = order.enumerated().map { ($0.offset, $0.element) }
        return indexed.sorted { a, b in
            let la = lastAsked[a.1.id], lb = lastAsked[b.1.id]
            switch (la, lb) {
            case (nil, nil): return a.0 < b.0
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?):
                if x != y { return x < y }
                let ca = timesAsked[a.1.id] ?? 0, cb = timesAsked[b.1.id] ?? 0
                return ca != cb ? ca < cb : a.0 < b.0
            }
        }.prefix(limit).map { $0.1 }
    }
}

/// Picks a micro-education tidbit for a bug and a trigger: random under a seed, never the same one twice in a row.
public enum MicroEducationPicker {
    public static func pick(from pool: [MicroEducation], bugSlug: String, trigger: EducationTrigger,
                            lastShownId: UUID?, seed: UInt64) -> MicroEducation? {
        var candidates = pool.filter { $0.deletedAt == nil && $0.bugSlug == bugSlug && $0.trigger == trigger }
            .sorted { $0.id.sortsBefore($1.id) }
        if candidates.count > 1, let last = lastShownId { candidates.removeAll { $0.id == last } }
        guard !candidates.isEmpty else { return nil }
        var rng = SplitMix64(seed: seed)
        return candidates[Int(rng.next() % UInt64(candidates.count))]
    }
}
