import Foundation

/// The streak as a pure state machine: `(StreakState, engagement day) -> StreakState`.
///
/// A day counts when the user opened a fix, marked an outcome, logged a crash or completed a
/// diagnostic. A missed day resets the streak to 0, silently, unless that week's freeze is still
/// available, in which case the freeze covers the day and is used up. Freezes belong to weeks
/// that start on Sunday, so a new one is available every Sunday. The longest streak is kept.
public struct StreakState: Equatable, Sendable, Codable {
    public var current: Int
    public var longest: Int
    public var lastEngagedDay: LocalDay?
    /// The Sunday that starts the week whose freeze was last used.
    public var freezeUsedWeek: LocalDay?

    public init(current: Int = 0, longest: Int = 0, lastEngagedDay: LocalDay? = nil, freezeUsedWeek: LocalDay? = nil) {
        self.current = current
        self.longest = longest
        self.lastEngagedDay = lastEngagedDay
        self.freezeUsedWeek = freezeUsedWeek
    }
}

public enum StreakRules {
    /// Records engagement on `day`. Engaging twice on one day, or on a day before the last one, changes nothing.
    public static func engage(_ state: StreakState, on day: LocalDay) -> StreakState {
        var s = state
        guard let last = s.lastEngagedDay else {
            s.current = 1
            s.longest = max(s.longest, 1)
            s.lastEngagedDay = day
            return s
        }
        guard day > last else { return s }
        let (survives, used) = coverMissedDays(from: last, to: day, freezeUsedWeek: s.freezeUsedWeek)
        s.freezeUsedWeek = used
        s.current = survives ? s.current + 1 : 1
        s.longest = max(s.longest, s.current)
        s.lastEngagedDay = day
        return s
    }

    /// The streak as it stands on `today`, before any engagement today: 0 once a missed day is not covered.
    public static func current(_ state: StreakState, today: LocalDay) -> Int {
        guard let last = state.lastEngagedDay else { return 0 }
        if today <= last.adding(days: 1) { return state.current }
        let (survives, _) = coverMissedDays(from: last, to: today, freezeUsedWeek: state.freezeUsedWeek)
        return survives ? state.current : 0
    }

    /// Whether this week's freeze (Sunday to Saturday) is still unused on `today`,
    /// counting the freezes that the missed days up to yesterday already need.
    public static func freezeAvailable(_ state: StreakState, today: LocalDay) -> Bool {
        var used = state.freezeUsedWeek
        if let last = state.lastEngagedDay, today > last.adding(days: 1) {
            used = coverMissedDays(from: last, to: today, freezeUsedWeek: used).freezeUsedWeek
        }
        return used != today.sundayOnOrBefore
    }

    /// Walks the days strictly between `last` and `day`; each needs its week's freeze, and a
    /// freeze covers exactly one missed day. A freeze is spent only when the gap is covered: when
    /// the streak breaks anyway, no freeze is used (the one passed in is returned unchanged).
    static func coverMissedDays(from last: LocalDay, to day: LocalDay, freezeUsedWeek: LocalDay?)
        -> (survives: Bool, freezeUsedWeek: LocalDay?) {
        var used = freezeUsedWeek
        var missed = last.adding(days: 1)
        // A gap longer than two weeks' freezes can cover breaks the streak without a walk.
        if day.days(since: last) - 1 > 2 { return (false, freezeUsedWeek) }
        while missed < day {
            let week = missed.sundayOnOrBefore
            if used == week { return (false, freezeUsedWeek) }
            used = week
            missed = missed.adding(days: 1)
        }
        return (true, used)
    }

    /// Folds a set of engagement days into a state, in order.
    public static func replay(_ days: [LocalDay]) -> StreakState {
        Set(days).sorted().reduce(StreakState()) { engage($0, on: $1) }
    }

    /// The streak line with its self-aware comment. Nothing in it mentions a break: at 0, "nothing
    /// counted yet" only while nothing ever was (`longest` 0); after a reset, the usual comment.
    public static func line(days: Int, longest: Int) -> String {
        // Five comments taking turns with the count; day 14 reads as the spec's example.
        let comments = [
            "this metric is meaningless. but you looked anyway.",
            "the streak serves the tool. the tool does not serve the streak.",
            "counting days is easier than counting changes.",
            "a number that goes up. your brain likes those.",
            "this number means nothing about your growth. but you looked.",
        ]
        if days == 0 && longest == 0 { return "day 0 // nothing counted yet." }
        return "day \(days) // " + comments[days % comments.count]
    }
}
