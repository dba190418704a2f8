import Foundation

extension Thresholds {
    // Reminders (the spec's notifications: more stability, less contact; never about a missed day)
    /// A bug is young for this many days after its latest activation or regression. While any
    /// active bug is young, the day's fix is reminded every day.
    public static let reminderYoungBugDays = 28
    /// Some bugs stable, the others past their young days: the day's fix every this many days.
    public static let reminderSettlingEveryDays = 2
    /// Every active bug stable: "Still running smoothly?" every this many days, and nothing else
    /// but a retest's fix.
    public static let stillRunningEveryDays = 7
    /// Every active bug stable (or resolved) for at least `stillRunningLongStableAfterDays`: every this many days.
    public static let stillRunningLongStableEveryDays = 14
    public static let stillRunningLongStableAfterDays = 90
    /// The ISO weekday (Monday 1) "Still running smoothly?" comes on: mid-week, away from the
    /// Sunday diagnostic.
    public static let stillRunningISOWeekday = 3
    /// `remind_at` when egofix.toml sets none.
    public static let remindAtDefaultHour = 9
    /// How far ahead the calendar feed (reminders.ics) reaches, in local days, today included.
    public static let reminderCalendarDays = 28
}

/// A local time of day, as `remind_at` in egofix.toml and `egofix remind --install --at` take it: HH:MM.
public struct ReminderTime: Equatable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public static let standard = ReminderTime(checkedHour: Thresholds.remindAtDefaultHour, minute: 0)
    /// 00:00: come as soon as the day begins.
    public static let startOfDay = ReminderTime(checkedHour: 0, minute: 0)

    private init(checkedHour: Int, minute: Int) {
        self.hour = checkedHour
        self.minute = minute
    }

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.init(checkedHour: hour, minute: minute)
    }

    /// "09:00" or "9:00"; nothing else (no seconds, no am/pm, no spaces).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    public var minuteOfDay: Int { hour * 60 + minute }

    /// Whether this time has come on `now`'s local day: from its first instant on (the calendar
    /// feed's and the timer's), so in an autumn night's repeated hour it stays come when the
    /// clock goes back (02:30 in Berlin at 02:45 summer time is not undone at 02:15 winter time).
    public func hasCome(at now: Date, calendar: Calendar) -> Bool {
        now >= ScheduledReminder(kind: .dailyFix, day: LocalDay(now, calendar: calendar), hour: hour, minute: minute, calendar: calendar).instant
    }
}

/// One reminder: what it is about and when, in the user's time zone.
public struct ScheduledReminder: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// "Fix #042 is ready."
        case dailyFix
        /// The weekly diagnostic, Sunday 18:00.
        case diagnostic
        /// The anti-notification for stable bugs: "Still running smoothly?"
        case stillRunning
    }

    public let kind: Kind
    public let day: LocalDay
    public let hour: Int
    public let minute: Int
    public let instant: Date

    public init(kind: Kind, day: LocalDay, hour: Int, minute: Int, calendar: Calendar) {
        self.kind = kind
        self.day = day
        self.hour = hour
        self.minute = minute
        // A time in a spring-forward gap does not exist; the calendar answers the time as far
        // after the gap (02:30 in Berlin: 03:30). It is due from the first instant past that
        // time, the gap's end (03:00), as `remind` reads the clock.
        var t = day.at(hour: hour, minute: minute, in: calendar)
        let target = hour * 60 + minute
        if LocalDay.minuteOfDay(t, calendar: calendar) != target {
            var steps = 0
            while steps < 180, LocalDay(t.addingTimeInterval(-60), calendar: calendar) == day,
                  LocalDay.minuteOfDay(t.addingTimeInterval(-60), calendar: calendar) >= target {
                t = t.addingTimeInterval(-60)
                steps += 1
            }
        }
        self.instant = t
    }
}

/// How often EgoFix reminds, pure: daily while any active bug is young, thinning as bugs
/// stabilise, and only "Still running smoothly?" once every active bug is stable. It reads the
/// bugs and the day, nothing else: no streak, no missed day, no last visit, so no reminder can be
/// about one. Each reminder day is fixed by the calendar (the day's number), so asking twice, or
/// from two machines, gives the same days.
public enum ReminderCadence {
    /// Where the practice stands, from the bugs alone.
    public enum Tier: String, Sendable, CaseIterable {
        /// No active bug: nothing to remind about.
        case none
        /// An active bug in its first `reminderYoungBugDays` (since activation or regression).
        case young
        /// Active bugs, none young, none stable.
        case working
        /// Active bugs past their young days beside stable ones.
        case settling
        /// Every active bug stable or resolved.
        case stable
        /// Every active bug stable or resolved for `stillRunningLongStableAfterDays`.
        case longStable
    }

    /// What a local day holds.
    public struct Day: Equatable, Sendable {
        public var dailyFix: Bool
        public var stillRunning: Bool
        public init(dailyFix: Bool, stillRunning: Bool) {
            self.dailyFix = dailyFix
            self.stillRunning = stillRunning
        }
    }

    /// The bugs the cadence looks at: live, active, past identified.
    static func tracked(_ bugs: [Bug]) -> [Bug] {
        bugs.filter { $0.deletedAt == nil && $0.isActive && $0.status != .identified }
    }

    /// Whether an active bug is young on `day`: fewer than `reminderYoungBugDays` since its latest
    /// activation or regression. A bug with no activation date is young (it has just begun).
    public static func isYoung(_ bug: Bug, day: LocalDay, calendar: Calendar) -> Bool {
        guard bug.status == .active else { return false }
        let starts = [bug.activatedAt, bug.regressedAt].compactMap { $0 }
        guard let start = starts.max() else { return true }
        return day.days(since: LocalDay(start, calendar: calendar)) < Thresholds.reminderYoungBugDays
    }

    public static func tier(bugs: [Bug], day: LocalDay, calendar: Calendar) -> Tier {
        let tracked = tracked(bugs)
        guard !tracked.isEmpty else { return .none }
        let working = tracked.filter { $0.status == .active }
        if working.contains(where: { isYoung($0, day: day, calendar: calendar) }) { return .young }
        if !working.isEmpty {
            return working.count == tracked.count ? .working : .settling
        }
        // Every one stable or resolved: how long since the most recent of them became stable (a
        // resolved bug has been stable since its stableSince, 90 days or more).
        let settled = tracked.compactMap { b in b.stableSince ?? b.resolvedAt ?? b.activatedAt }
        guard let latest = settled.max() else { return .stable }
        return day.days(since: LocalDay(latest, calendar: calendar)) >= Thresholds.stillRunningLongStableAfterDays ? .longStable : .stable
    }

    /// The days between two reminders in a tier (nil: none).
    public static func everyDays(_ tier: Tier) -> Int? {
        switch tier {
        case .none: return nil
        case .young, .working: return 1
        case .settling: return Thresholds.reminderSettlingEveryDays
        case .stable: return Thresholds.stillRunningEveryDays
        case .longStable: return Thresholds.stillRunningLongStableEveryDays
        }
    }

    /// What `day` holds for these bugs. Once every bug is stable the only fix is a retest's, so
    /// the day's fix is reminded only on a day a retest falls due; "Still running smoothly?" never
    /// comes on a day with a fix reminder.
    public static func plan(bugs: [Bug], day: LocalDay, calendar: Calendar) -> Day {
        let tier = tier(bugs: bugs, day: day, calendar: calendar)
        switch tier {
        case .none:
            return Day(dailyFix: false, stillRunning: false)
        case .young, .working:
            return Day(dailyFix: true, stillRunning: false)
        case .settling:
            return Day(dailyFix: LocalDay.mod(day.ordinal, Thresholds.reminderSettlingEveryDays) == 0, stillRunning: false)
        case .stable, .longStable:
            if retestFallsDue(bugs, day: day, calendar: calendar) {
                return Day(dailyFix: true, stillRunning: false)
            }
            let every = everyDays(tier) ?? Thresholds.stillRunningEveryDays
            // Days counted from a Monday-based week, so the anti-notification keeps to its weekday.
            let sinceAnchor = day.ordinal - anchorOrdinal
            return Day(dailyFix: false, stillRunning: LocalDay.mod(sinceAnchor, every) == 0)
        }
    }

    /// Whether a retest falls due on `day`: a stable bug's 30 days since its last retest (or since
    /// it became stable) are up that day, or another 30 since, while the retest is not taken. A
    /// retest left waiting is reminded every 30 days, not every day (it stays due until taken).
    static func retestFallsDue(_ bugs: [Bug], day: LocalDay, calendar: Calendar) -> Bool {
        let days = LocalDay.Converter(calendar), every = Thresholds.retestIntervalDays
        return bugs.contains { b in
            guard b.deletedAt == nil, b.isActive, b.status == .stable, let since = b.lastRetestAt ?? b.stableSince else { return false }
            let waited = day.days(since: days.day(since))
            return waited >= every && waited % every == 0
        }
    }

    /// The ordinal of a day on `stillRunningISOWeekday` (1970-01-05 was a Monday, ordinal 4).
    static var anchorOrdinal: Int { 4 + (Thresholds.stillRunningISOWeekday - 1) }

    /// The reminders of the `days` local days from `from` (that day included), in time order:
    /// the day's fix and "Still running smoothly?" at `remindAt`, the weekly diagnostic on Sunday
    /// at `diagnosticOpensSundayHour` unless that week's is done. The bugs are taken as they are
    /// now; a retest is taken as given on the day it falls due, so the next comes 30 days later.
    public static func upcoming(bugs: [Bug], diagnostics: [WeeklyDiagnostic], from: LocalDay,
                                days: Int = Thresholds.reminderCalendarDays, remindAt: ReminderTime,
                                calendar: Calendar) -> [ScheduledReminder] {
        var bugs = bugs
        var out: [ScheduledReminder] = []
        let asking = !tracked(bugs).isEmpty
        for n in 0..<max(0, days) {
            let day = from.adding(days: n)
            let plan = plan(bugs: bugs, day: day, calendar: calendar)
            if plan.dailyFix {
                out.append(ScheduledReminder(kind: .dailyFix, day: day, hour: remindAt.hour, minute: remindAt.minute, calendar: calendar))
            }
            if plan.stillRunning {
                out.append(ScheduledReminder(kind: .stillRunning, day: day, hour: remindAt.hour, minute: remindAt.minute, calendar: calendar))
            }
            if let i = DailyFixRules.retestDue(bugs, day: day, calendar: calendar).flatMap({ b in bugs.firstIndex { $0.id == b.id } }) {
                bugs[i].lastRetestAt = day.start(in: calendar)
            }
            if asking, day.isoWeekday == 7 {
                let open = ScheduledReminder(kind: .diagnostic, day: day, hour: Thresholds.diagnosticOpensSundayHour, minute: 0, calendar: calendar)
                if DiagnosticSchedule.isDue(now: open.instant, calendar: calendar, completed: diagnostics) { out.append(open) }
            }
        }
        return out.sorted { $0.instant != $1.instant ? $0.instant < $1.instant : $0.kind.rawValue < $1.kind.rawValue }
    }

    /// What `egofix remind` says at `now`.
    public struct Now: Equatable, Sendable {
        /// The day's fix's label when it is due and unmarked ("FIX #042").
        public var fixLabel: String?
        public var diagnostic: Bool
        public var stillRunning: Bool

        public init(fixLabel: String? = nil, diagnostic: Bool = false, stillRunning: Bool = false) {
            self.fixLabel = fixLabel
            self.diagnostic = diagnostic
            self.stillRunning = stillRunning
        }

        /// The lines, in the spec's words: each under 120 characters, no exclamation mark, nothing
        /// about what was missed.
        public var lines: [String] {
            var out: [String] = []
            if let fixLabel { out.append(ReminderCopy.fixReady(fixLabel)) }
            if stillRunning { out.append(ReminderCopy.stillRunning) }
            if diagnostic { out.append(ReminderCopy.diagnostic) }
            return out
        }
    }

    /// The reminders due at `now`: the day's fix from `remindAt` on a reminder day while it is
    /// unmarked (`dayFix` is its label and whether it is still open, nil on a rest day), "Still
    /// running smoothly?" from `remindAt` on its day, the diagnostic while it is open and not done.
    public static func due(now: Date, bugs: [Bug], remindAt: ReminderTime, dayFix: (label: String, open: Bool)?,
                           diagnosticDue: Bool, calendar: Calendar) -> Now {
        let day = LocalDay(now, calendar: calendar)
        let plan = plan(bugs: bugs, day: day, calendar: calendar)
        let afterTime = remindAt.hasCome(at: now, calendar: calendar)
        var r = Now(diagnostic: diagnosticDue)
        if afterTime, plan.dailyFix, let f = dayFix, f.open { r.fixLabel = f.label }
        if afterTime, plan.stillRunning { r.stillRunning = true }
        return r
    }
}

/// The reminders' words, one place for the terminal, the desktop notification and the calendar.
public enum ReminderCopy {
    /// "Fix #042 is ready." (the label as the spec writes it in a sentence).
    public static func fixReady(_ label: String) -> String {
        (label.hasPrefix("FIX ") ? "Fix " + label.dropFirst(4) : label) + " is ready."
    }
    public static let stillRunning = "Still running smoothly?"
    /// What `today`, `status` and the outcome commands say while the diagnostic is open.
    public static let diagnosticOpen = "Weekly diagnostic open: `egofix diagnostic`, 30 seconds, or `--skip`."
    public static let diagnostic = "Weekly diagnostic open: 30 seconds, `egofix diagnostic`. Skipping costs nothing."
    public static let timerComplete = "Timer complete. How did it go?"
    /// The title desktop notifications carry.
    public static let notificationTitle = "EgoFix"
}
