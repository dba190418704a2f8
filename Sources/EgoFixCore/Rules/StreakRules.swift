import Foundation

/// The streak as a pure state machine: `(StreakState, engagement day) -> StreakState`.
///
/// A day counts when the user opened a fix, marked an outcome, logged a crash or completed a
/// diagnostic. A missed day resets the streak to 0, silently, unless that week's freeze is still
/// available, in which case the freeze covers the day and is used up. Freezes belong to weeks
/// that start on Sunday, so a new one is available every Sunday. The longest streak is kept.
///
/// A day the calendar skipped is not missed: flying east across the date line (Los Angeles on
/// Wednesday evening, Tokyo on Friday morning) has no Thursday. The days between two engagements
/// count as missed only up to the whole days of time between them, with an hour's grace for the
/// 23-hour day of a spring-forward change (`StreakRules.missedDays`); in one time zone that is
/// every day between, as before.
public struct StreakState: Equatable, Sendable, Codable {
    public var current: Int
    public var longest: Int
    public var lastEngagedDay: LocalDay?
    /// The latest instant of an engagement counted so far, when known (a profile written before
    /// it was kept may not say); without it the days between are counted by the calendar only.
    public var lastEngagedAt: Date?
    /// The Sunday that starts the week whose freeze was last used.
    public var freezeUsedWeek: LocalDay?

    public init(current: Int = 0, longest: Int = 0, lastEngagedDay: LocalDay? = nil, lastEngagedAt: Date? = nil,
                freezeUsedWeek: LocalDay? = nil) {
        self.current = current
        self.longest = longest
        self.lastEngagedDay = lastEngagedDay
        self.lastEngagedAt = lastEngagedAt
        self.freezeUsedWeek = freezeUsedWeek
    }
}

extension StreakState {
    /// The streak as a profile keeps it. The last day engaged is the day it counted where it
    /// happened (`lastEngagementDay`); a profile written before that was kept names only the
    /// instant, read by `dayOf`. `status`, `today` and the dashboard all read the profile so.
    public init(of user: UserProfile, dayOf: (Date) -> LocalDay) {
        self.init(current: user.currentStreak, longest: user.longestStreak,
                  lastEngagedDay: user.lastEngagementDay.map { LocalDay(ordinal: $0) } ?? user.lastEngagementDate.map(dayOf),
                  lastEngagedAt: user.lastEngagementDate,
                  freezeUsedWeek: user.freezeUsedWeekStart.map { LocalDay(ordinal: $0) })
    }
}

public enum StreakRules {
    /// Records engagement on `day` at the instant `at` (nil when not known). Engaging twice on one
    /// day, or on a day before the last one, changes nothing but the latest instant kept.
    public static func engage(_ state: StreakState, on day: LocalDay, at: Date?) -> StreakState {
        var s = state
        s.lastEngagedAt = latest(state.lastEngagedAt, at)
        guard let last = s.lastEngagedDay else {
            s.current = 1
            s.longest = max(s.longest, 1)
            s.lastEngagedDay = day
            return s
        }
        guard day > last else { return s }
        let missed = missedDays(after: last, at: state.lastEngagedAt, before: day, at: at)
        let (survives, used) = coverMissedDays(after: last, count: missed, freezeUsedWeek: s.freezeUsedWeek)
        s.freezeUsedWeek = used
        s.current = survives ? s.current + 1 : 1
        s.longest = max(s.longest, s.current)
        s.lastEngagedDay = day
        return s
    }

    /// The streak as it stands on `today` at `now` (nil: counted by the calendar only), before any
    /// engagement today: 0 once a missed day is not covered.
    public static func current(_ state: StreakState, today: LocalDay, now: Date?) -> Int {
        guard let last = state.lastEngagedDay else { return 0 }
        if today <= last.adding(days: 1) { return state.current }
        let missed = missedDays(after: last, at: state.lastEngagedAt, before: today, at: now)
        let (survives, _) = coverMissedDays(after: last, count: missed, freezeUsedWeek: state.freezeUsedWeek)
        return survives ? state.current : 0
    }

    /// Whether this week's freeze (Sunday to Saturday) is still unused on `today` at `now`,
    /// counting the freezes that the missed days up to yesterday already need.
    public static func freezeAvailable(_ state: StreakState, today: LocalDay, now: Date?) -> Bool {
        var used = state.freezeUsedWeek
        if let last = state.lastEngagedDay, today > last.adding(days: 1) {
            let missed = missedDays(after: last, at: state.lastEngagedAt, before: today, at: now)
            used = coverMissedDays(after: last, count: missed, freezeUsedWeek: used).freezeUsedWeek
        }
        return used != today.sundayOnOrBefore
    }

    /// How many of the days strictly between `last` and `day` were missed: all of them, except
    /// that no more are missed than whole days of time passed from `lastAt` to `at` (an hour's
    /// grace covers the 23-hour day of a spring-forward change), so a day the calendar skipped
    /// between two places is not one. In one time zone every day between is a whole day's time,
    /// so the count is the calendar's. Without both instants it is the calendar's too.
    static func missedDays(after last: LocalDay, at lastAt: Date?, before day: LocalDay, at: Date?) -> Int {
        let between = max(0, day.days(since: last) - 1)
        guard between > 0, let lastAt, let at else { return between }
        let time = at.timeIntervalSince(lastAt) + 3_600
        guard time >= 86_400 else { return 0 }
        return min(between, Int((time / 86_400).rounded(.down)))
    }

    /// Walks the `count` missed days after `last`; each needs its week's freeze, and a freeze
    /// covers exactly one missed day. A freeze is spent only when the gap is covered: when the
    /// streak breaks anyway, no freeze is used (the one passed in is returned unchanged).
    static func coverMissedDays(after last: LocalDay, count: Int, freezeUsedWeek: LocalDay?)
        -> (survives: Bool, freezeUsedWeek: LocalDay?) {
        // A gap longer than two weeks' freezes can cover breaks the streak without a walk.
        if count > 2 { return (false, freezeUsedWeek) }
        var used = freezeUsedWeek
        for offset in stride(from: 1, through: count, by: 1) {
            let week = last.adding(days: offset).sundayOnOrBefore
            if used == week { return (false, freezeUsedWeek) }
            used = week
        }
        return (true, used)
    }

    /// Folds engagements into a state, by day and, within a day, by instant (unknown first).
    public static func replay(_ engagements: [(day: LocalDay, at: Date?)]) -> StreakState {
        engagements.sorted { a, b in
            if a.day != b.day { return a.day < b.day }
            return (a.at ?? .distantPast) < (b.at ?? .distantPast)
        }.reduce(StreakState()) { engage($0, on: $1.day, at: $1.at) }
    }

    static func latest(_ a: Date?, _ b: Date?) -> Date? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
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

    /// After more than a week without an entry, the time since and a plain welcome back, never a
    /// reckoning (DESIGN.md); nil after a shorter gap. Not after exactly a week: a person who comes
    /// only for Sunday's diagnostic was welcomed back every Sunday. The dashboard says it until the next
    /// entry, and `today` on the day of return.
    public static func welcomeBack(daysSince n: Int) -> String? {
        n > 7 ? "\(n) days since the last entry. Welcome back. Nothing to make up; today counts as today." : nil
    }
}
