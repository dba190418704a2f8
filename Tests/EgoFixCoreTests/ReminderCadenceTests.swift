import XCTest
@testable import EgoFixCore

/// The reminder cadence (issue 32): daily while a bug is young, thinning as bugs stabilise, never
/// about a missed day; and the words it says.
final class ReminderCadenceTests: XCTestCase {
    let clock = Clock()
    var cal: Calendar { clock.calendar }

    func bug(_ slug: String, status: BugStatus, activated: Date, stableSince: Date? = nil) -> Bug {
        var b = Catalogue.bug(slug, active: true, status: status, activatedAt: activated)
        b.stableSince = stableSince
        b.lastRetestAt = stableSince
        return b
    }

    func count(_ bugs: [Bug], from day: LocalDay, days: Int = 56) -> Int {
        ReminderCadence.upcoming(bugs: bugs, diagnostics: [], from: day, days: days, remindAt: .standard, calendar: cal)
            .filter { $0.kind != .diagnostic }.count
    }

    /// The case: a store whose bugs are all stable gets fewer reminders over 8 weeks than a new one.
    func test_cadence_allStableStoreGetsFewerRemindersOverEightWeeksThanANewStore() {
        let start = clock.day(2026, 11, 23)
        let fresh = [bug("need-to-be-right", status: .active, activated: clock.at(2026, 11, 23, 8))]
        let stable = [bug("need-to-be-right", status: .stable, activated: clock.at(2026, 6, 1), stableSince: clock.at(2026, 11, 1)),
                      bug("need-to-be-liked", status: .stable, activated: clock.at(2026, 6, 1), stableSince: clock.at(2026, 11, 10))]
        let new = count(fresh, from: start), settled = count(stable, from: start)
        XCTAssertEqual(new, 56, "a new store: the day's fix every day")
        XCTAssertLessThan(settled, new / 4, "all stable: \(settled) reminders in 8 weeks")
        XCTAssertGreaterThan(settled, 0, "stable bugs still hear from it now and then")
        let kinds = ReminderCadence.upcoming(bugs: stable, diagnostics: [], from: start, days: 56, remindAt: .standard, calendar: cal)
        XCTAssertTrue(kinds.contains { $0.kind == .stillRunning })
        // Only retests bring the day's fix back: one per 30 days per bug at most.
        XCTAssertLessThanOrEqual(kinds.filter { $0.kind == .dailyFix }.count, 4)
    }

    func test_cadence_thinsTierByTier() {
        let day = clock.day(2026, 11, 25)
        let young = bug("a", status: .active, activated: clock.at(2026, 11, 10))
        let older = bug("b", status: .active, activated: clock.at(2026, 8, 1))
        let stable = bug("c", status: .stable, activated: clock.at(2026, 6, 1), stableSince: clock.at(2026, 11, 1))
        let longStable = bug("d", status: .stable, activated: clock.at(2025, 6, 1), stableSince: clock.at(2026, 6, 1))
        XCTAssertEqual(ReminderCadence.tier(bugs: [], day: day, calendar: cal), .none)
        XCTAssertEqual(ReminderCadence.tier(bugs: [young, stable], day: day, calendar: cal), .young)
        XCTAssertEqual(ReminderCadence.tier(bugs: [older], day: day, calendar: cal), .working)
        XCTAssertEqual(ReminderCadence.tier(bugs: [older, stable], day: day, calendar: cal), .settling)
        XCTAssertEqual(ReminderCadence.tier(bugs: [stable], day: day, calendar: cal), .stable)
        XCTAssertEqual(ReminderCadence.tier(bugs: [longStable], day: day, calendar: cal), .longStable)
        let counts = [[young], [older, stable], [stable], [longStable]].map { count($0, from: day) }
        XCTAssertEqual(counts, counts.sorted(by: >), "more stability, less contact: \(counts)")
        XCTAssertEqual(counts[1], 28, "settling: every other day")
        // A young bug wakes it up again: a regression is a fresh start.
        var regressed = older
        regressed.regressedAt = clock.at(2026, 11, 20)
        XCTAssertEqual(ReminderCadence.tier(bugs: [regressed, stable], day: day, calendar: cal), .young)
    }

    /// A retest left waiting (the person does not open egofix) is reminded on the day it falls due
    /// and 30 days later, not every day: it said "Fix #N is ready." daily, a different fix each day.
    func test_cadence_aRetestLeftWaitingIsRemindedOnceNotDaily() {
        let b = bug("c", status: .stable, activated: clock.at(2026, 1, 1), stableSince: clock.at(2026, 2, 2, 12))
        let due = clock.day(2026, 3, 4)
        let days = (0..<60).map { due.adding(days: $0) }.filter {
            ReminderCadence.plan(bugs: [b], day: $0, calendar: cal).dailyFix
        }
        XCTAssertEqual(days, [due, due.adding(days: 30)])
        XCTAssertNotNil(DailyFixRules.retestDue([b], day: due.adding(days: 5), calendar: cal), "still due, only not reminded again")
    }

    /// A resolved bug has been stable 90 days or more: it is contacted every 14 days, not weekly
    /// for another 90 days (a bug that stayed merely stable went to 14 days sooner).
    func test_cadence_aResolvedBugIsLongStable() {
        var resolved = bug("c", status: .resolved, activated: clock.at(2026, 1, 1), stableSince: clock.at(2026, 2, 2))
        resolved.resolvedAt = clock.at(2026, 5, 3)
        XCTAssertEqual(ReminderCadence.tier(bugs: [resolved], day: clock.day(2026, 5, 13), calendar: cal), .longStable)
    }

    /// remind_at in a spring-forward gap (02:30 on Berlin's changeover night): the calendar's event
    /// and `remind` agree on the gap's end, 03:00 (the event said 03:30, remind 03:00).
    func test_cadence_aRemindAtInTheSpringGapIsDueAtTheGapsEnd() throws {
        let at = try XCTUnwrap(ReminderTime("02:30"))
        let day = clock.day(2026, 3, 29)
        let event = ScheduledReminder(kind: .dailyFix, day: day, hour: at.hour, minute: at.minute, calendar: cal)
        XCTAssertEqual(event.instant, try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-03-29T01:00:00Z")))
        let b = [bug("a", status: .active, activated: clock.at(2026, 3, 20))]
        let before = ReminderCadence.due(now: event.instant.addingTimeInterval(-1), bugs: b, remindAt: at, dayFix: ("FIX #042", true),
                                         diagnosticDue: false, calendar: cal)
        let from = ReminderCadence.due(now: event.instant, bugs: b, remindAt: at, dayFix: ("FIX #042", true), diagnosticDue: false, calendar: cal)
        XCTAssertEqual(before.lines, [])
        XCTAssertEqual(from.lines, ["Fix #042 is ready."])
        // Any other day, the time itself.
        XCTAssertEqual(ScheduledReminder(kind: .dailyFix, day: day.adding(days: 1), hour: 2, minute: 30, calendar: cal).instant,
                       day.adding(days: 1).at(hour: 2, minute: 30, in: cal))
    }

    /// In an autumn night's repeated hour the clock reads 02:15 half an hour after 02:45: a
    /// `remind_at` of 02:30 that came at 02:45 summer time stays come (it said "ready", then
    /// nothing, and an outcome was refused, until 02:30 came round again).
    func test_cadence_aRemindAtInTheAutumnRepeatedHourStaysCome() throws {
        let at = try XCTUnwrap(ReminderTime("02:30"))
        let day = clock.day(2027, 10, 31)   // Berlin: 03:00 summer time is 02:00 winter time
        let first = ScheduledReminder(kind: .dailyFix, day: day, hour: at.hour, minute: at.minute, calendar: cal).instant
        XCTAssertEqual(first, try XCTUnwrap(ISO8601DateFormatter().date(from: "2027-10-31T00:30:00Z")), "the first 02:30, summer time")
        let b = [bug("a", status: .active, activated: clock.at(2027, 10, 20))]
        func lines(_ utc: String) throws -> [String] {
            ReminderCadence.due(now: try XCTUnwrap(ISO8601DateFormatter().date(from: utc)), bugs: b, remindAt: at, dayFix: ("FIX #042", true),
                                diagnosticDue: false, calendar: cal).lines
        }
        XCTAssertEqual(try lines("2027-10-31T00:25:00Z"), [], "02:25 summer time")
        XCTAssertEqual(try lines("2027-10-31T00:45:00Z"), ["Fix #042 is ready."], "02:45 summer time")
        XCTAssertEqual(try lines("2027-10-31T01:15:00Z"), ["Fix #042 is ready."], "02:15 winter time, half an hour later")
        XCTAssertTrue(at.hasCome(at: try XCTUnwrap(ISO8601DateFormatter().date(from: "2027-10-31T01:15:00Z")), calendar: cal))
    }

    func test_cadence_stillRunningComesOnWednesdaysAtRemindAt() throws {
        let stable = [bug("c", status: .stable, activated: clock.at(2026, 6, 1), stableSince: clock.at(2026, 11, 1))]
        let at = try XCTUnwrap(ReminderTime("07:45"))
        let r = ReminderCadence.upcoming(bugs: stable, diagnostics: [], from: clock.day(2026, 11, 23), days: 28, remindAt: at, calendar: cal)
            .filter { $0.kind == .stillRunning }
        XCTAssertEqual(r.count, 4)
        for x in r {
            XCTAssertEqual(x.day.isoWeekday, 3)
            XCTAssertEqual(x.instant, x.day.at(hour: 7, minute: 45, in: cal))
        }
    }

    func test_cadence_diagnosticOnSundayAt18UnlessDone() {
        let b = [bug("a", status: .active, activated: clock.at(2026, 11, 10))]
        let done = WeeklyDiagnostic(userId: Catalogue.uuid("user"), weekStarting: clock.at(2026, 11, 23, 0), responses: [],
                                    completedAt: clock.at(2026, 11, 29, 18, 5))
        let all = ReminderCadence.upcoming(bugs: b, diagnostics: [done], from: clock.day(2026, 11, 23), days: 14, remindAt: .standard, calendar: cal)
            .filter { $0.kind == .diagnostic }
        XCTAssertEqual(all.map(\.day), [clock.day(2026, 12, 6)], "the week already done is left out")
        XCTAssertEqual(all.first?.instant, clock.at(2026, 12, 6, 18))
    }

    /// The rule reads bugs and a day, so a missed day cannot change it, and nothing it says is about one.
    func test_cadence_dueNowAndItsWords() throws {
        let b = [bug("a", status: .active, activated: clock.at(2026, 11, 10))]
        let early = ReminderCadence.due(now: clock.at(2026, 11, 25, 8, 59), bugs: b, remindAt: .standard,
                                        dayFix: ("FIX #042", true), diagnosticDue: false, calendar: cal)
        XCTAssertEqual(early.lines, [])
        let due = ReminderCadence.due(now: clock.at(2026, 11, 25, 9, 30), bugs: b, remindAt: .standard,
                                      dayFix: ("FIX #042", true), diagnosticDue: false, calendar: cal)
        XCTAssertEqual(due.lines, ["Fix #042 is ready."])
        let marked = ReminderCadence.due(now: clock.at(2026, 11, 25, 9, 30), bugs: b, remindAt: .standard,
                                         dayFix: ("FIX #042", false), diagnosticDue: false, calendar: cal)
        XCTAssertEqual(marked.lines, [])
        let all = ReminderCadence.Now(fixLabel: "FIX #042", diagnostic: true, stillRunning: true).lines
            + [ReminderCopy.timerComplete]
        for line in all {
            XCTAssertEqual(CopyRules.violations(line, limit: CopyRules.Limits.line), [], line)
            for word in ["missed", "streak", "lost", "again", "!"] { XCTAssertFalse(line.lowercased().contains(word), line) }
        }
    }

    func test_reminderTime_readsHHMMOnly() {
        XCTAssertEqual(ReminderTime("09:00"), ReminderTime.standard)
        XCTAssertEqual(ReminderTime("7:05")?.description, "07:05")
        XCTAssertEqual(ReminderTime("23:59")?.minuteOfDay, 23 * 60 + 59)
        for bad in ["24:00", "9", "09:60", "09:00:00", " 9:00", "9:0", "-1:00", "09h00", "", "٠٩:٠٠"] {
            XCTAssertNil(ReminderTime(bad), bad)
        }
    }

    func test_timerFace_barClockAndMinuteLines() {
        XCTAssertEqual(TimerFace.clock(7), "0:07")
        XCTAssertEqual(TimerFace.clock(600), "10:00")
        XCTAssertEqual(TimerFace.clock(3723), "1:02:03")
        XCTAssertEqual(TimerFace.bar(remaining: 60, total: 60, width: 10), "[----------] 1:00 left")
        XCTAssertEqual(TimerFace.bar(remaining: 30, total: 60, width: 10), "[#####-----] 0:30 left")
        XCTAssertEqual(TimerFace.bar(remaining: 0, total: 60, width: 10), "[##########] 0:00 left")
        let lines = (0...150).reversed().compactMap { TimerFace.plainLine(remaining: $0, total: 150) }
        XCTAssertEqual(lines, ["2:30 left", "2:00 left", "1:00 left"])
    }
}
