import XCTest
@testable import EgoFixCore

final class TimeRuleTests: XCTestCase {
    func test_localDay_civilRoundTripAndWeekdays() {
        let d = LocalDay(year: 2026, month: 11, day: 22)
        XCTAssertEqual(d.description, "2026-11-22")
        XCTAssertEqual(d.weekday, 1, "2026-11-22 is a Sunday")
        XCTAssertEqual(d.isoWeekday, 7)
        XCTAssertEqual(d.isoWeekLabel, "2026-W47")
        XCTAssertEqual(LocalDay(year: 2020, month: 2, day: 29).adding(days: 1).description, "2020-03-01")
        XCTAssertEqual(LocalDay(iso: "2026-02-30"), nil)
        XCTAssertEqual(LocalDay(iso: "2026-03-01"), LocalDay(year: 2026, month: 3, day: 1))
    }

    func test_isoWeek_yearBoundaries() {
        XCTAssertEqual(LocalDay(year: 2027, month: 1, day: 1).isoWeekLabel, "2026-W53")
        XCTAssertEqual(LocalDay(year: 2024, month: 12, day: 30).isoWeekLabel, "2025-W01")
        XCTAssertEqual(LocalDay(year: 2021, month: 1, day: 3).isoWeekLabel, "2020-W53")
    }

    func test_dayCrossesMidnightInTheUsersZone() {
        let c = Clock("Europe/Berlin")
        let before = c.at(2026, 6, 10, 23, 59)
        let after = before.addingTimeInterval(120)
        XCTAssertEqual(LocalDay(before, calendar: c.calendar).description, "2026-06-10")
        XCTAssertEqual(LocalDay(after, calendar: c.calendar).description, "2026-06-11")
    }

    func test_dstChange_daysStayWholeInNonUTCZone() {
        let c = Clock("America/New_York")
        // 2026-03-08: clocks jump 02:00 → 03:00, a 23-hour day.
        let sat = c.day(2026, 3, 7), sun = c.day(2026, 3, 8), mon = c.day(2026, 3, 9)
        XCTAssertEqual(sun.adding(days: 1).start(in: c.calendar).timeIntervalSince(sun.start(in: c.calendar)), 23 * 3600)
        // 24 hours after Saturday 00:30 is already Sunday 01:30 → still one day later, not two.
        let satLate = sat.at(hour: 0, minute: 30, in: c.calendar)
        XCTAssertEqual(LocalDay(satLate.addingTimeInterval(24 * 3600), calendar: c.calendar), sun)
        // A streak across the DST night keeps counting.
        var s = StreakState()
        for at in [sat.at(hour: 23, in: c.calendar), sun.at(hour: 23, in: c.calendar), mon.at(hour: 0, minute: 30, in: c.calendar)] {
            s = StreakRules.engage(s, on: LocalDay(at, calendar: c.calendar), at: at)
        }
        XCTAssertEqual(s.current, 3)
        XCTAssertNil(s.freezeUsedWeek)
        // Saturday 23:59 to Monday 00:01 across the 23-hour Sunday is 23 hours 2 minutes: Sunday
        // was still missed (the hour's grace), and the freeze covers it.
        let satEnd = sat.at(hour: 23, minute: 59, in: c.calendar), monStart = mon.at(hour: 0, minute: 1, in: c.calendar)
        XCTAssertEqual(monStart.timeIntervalSince(satEnd), 23 * 3600 + 120)
        let t = StreakRules.engage(StreakRules.engage(StreakState(), on: sat, at: satEnd), on: mon, at: monStart)
        XCTAssertEqual(t.current, 2)
        XCTAssertEqual(t.freezeUsedWeek, sun)
        // November: a 25-hour day. 01:30 happens twice and both are the same local day.
        let nov1 = c.day(2026, 11, 1)
        XCTAssertEqual(nov1.adding(days: 1).start(in: c.calendar).timeIntervalSince(nov1.start(in: c.calendar)), 25 * 3600)
    }

    func test_sameInstants_differentDaysInUTCMinus10AndUTCPlus13() {
        let hon = Clock("Pacific/Honolulu")   // UTC−10
        let apia = Clock("Pacific/Apia")      // UTC+13
        // Wednesday 2026-07-15 20:00 UTC: Honolulu is Wednesday 10:00, Apia is Thursday 09:00.
        let instant = Date(timeIntervalSince1970: 1_784_145_600)
        XCTAssertEqual(LocalDay(instant, calendar: hon.calendar).description, "2026-07-15")
        XCTAssertEqual(LocalDay(instant, calendar: apia.calendar).description, "2026-07-16")
        // Two instants 12 hours apart: one day in Honolulu, two days in Apia.
        let later = instant.addingTimeInterval(12 * 3600)
        XCTAssertEqual(LocalDay(later, calendar: hon.calendar).description, "2026-07-15")
        XCTAssertEqual(LocalDay(later, calendar: apia.calendar).description, "2026-07-16")
        // 09:00 and 10:30 UTC: Honolulu crosses midnight (23:00 → 00:30), Apia does not (22:00 → 23:30).
        let a = instant.addingTimeInterval(-11 * 3600), b = instant.addingTimeInterval(-9.5 * 3600)
        let sHon = StreakRules.replay(([a, b].map { LocalDay($0, calendar: hon.calendar) }).map { ($0, nil) })
        let sApia = StreakRules.replay(([a, b].map { LocalDay($0, calendar: apia.calendar) }).map { ($0, nil) })
        XCTAssertEqual(sHon.current, 2)
        XCTAssertEqual(sApia.current, 1)
        // Events record the local weekday and hour.
        let eHon = AnalyticsEvent.make(userId: UUID(), type: .appOpened, at: instant, calendar: hon.calendar)
        let eApia = AnalyticsEvent.make(userId: UUID(), type: .appOpened, at: instant, calendar: apia.calendar)
        XCTAssertEqual([eHon.dayOfWeek, eHon.hourOfDay], [4, 10])
        XCTAssertEqual([eApia.dayOfWeek, eApia.hourOfDay], [5, 9])
    }
}

final class VersionRuleTests: XCTestCase {
    func test_versionForAppliedCount() {
        XCTAssertEqual(VersionRules.version(forAppliedCount: 0).description, "1.0")
        XCTAssertEqual(VersionRules.version(forAppliedCount: 6).description, "1.0")
        XCTAssertEqual(VersionRules.version(forAppliedCount: 7).description, "1.1")
        XCTAssertEqual(VersionRules.version(forAppliedCount: 69).description, "1.9")
        XCTAssertEqual(VersionRules.version(forAppliedCount: 70).description, "2.0")
        XCTAssertEqual(VersionRules.version(forAppliedCount: 140).description, "3.0")
    }

    func test_version_1_9_to_2_0_isAMajorUpdateEntry() {
        let u = UUID()
        XCTAssertEqual(VersionRules.entriesAfterApplying(appliedCountBefore: 68, userId: u, at: Catalogue.epoch), [])
        let e = VersionRules.entriesAfterApplying(appliedCountBefore: 69, userId: u, at: Catalogue.epoch)
        XCTAssertEqual(e.map(\.version), ["2.0"])
        XCTAssertEqual(e.map(\.changeType), [.majorUpdate])
        XCTAssertEqual(VersionRules.entriesAfterApplying(appliedCountBefore: 6, userId: u, at: Catalogue.epoch).map(\.changeType), [.minorUpdate])
    }

    func test_fixesToNextVersion() {
        XCTAssertEqual(VersionRules.fixesToNextVersion(appliedCount: 0), 7)
        XCTAssertEqual(VersionRules.fixesToNextVersion(appliedCount: 6), 1)
        XCTAssertEqual(VersionRules.fixesToNextVersion(appliedCount: 7), 7)
    }

    func test_versionParsing_rejectsNonsense() {
        XCTAssertNil(Version("1.10"))
        XCTAssertNil(Version("0.3"))
        XCTAssertNil(Version("abc"))
        XCTAssertEqual(Version("v2.3"), Version(major: 2, minor: 3))
        XCTAssertLessThan(Version(major: 1, minor: 9), Version(major: 2, minor: 0))
    }
}

final class StreakRuleTests: XCTestCase {
    let mon = LocalDay(year: 2026, month: 3, day: 2)

    func test_streak_sameDayTwiceCountsOnce() {
        var s = StreakRules.engage(StreakState(), on: mon, at: nil)
        s = StreakRules.engage(s, on: mon, at: nil)
        XCTAssertEqual(s.current, 1)
    }

    func test_streak_freezeCoversOneDayPerSundayWeek() {
        // Engage Mon, miss Tue (freeze of week starting Sun 1 Mar), engage Wed..Fri, miss Sat: no freeze left.
        var s = StreakRules.replay(([mon, mon.adding(days: 2), mon.adding(days: 3), mon.adding(days: 4)]).map { ($0, nil) })
        XCTAssertEqual(s.current, 4)
        XCTAssertEqual(s.freezeUsedWeek, LocalDay(year: 2026, month: 3, day: 1))
        s = StreakRules.engage(s, on: mon.adding(days: 6), at: nil) // Sunday: Saturday was missed
        XCTAssertEqual(s.current, 1)
        XCTAssertEqual(s.longest, 4)
    }

    func test_streak_saturdayAndSundayMissedUseTwoWeeksFreezes() {
        let fri = LocalDay(year: 2026, month: 3, day: 6)
        var s = StreakRules.engage(StreakState(current: 10, longest: 10, lastEngagedDay: fri), on: fri.adding(days: 3), at: nil)
        XCTAssertEqual(s.current, 11, "Saturday uses its week's freeze, Sunday the new week's")
        s = StreakRules.engage(s, on: s.lastEngagedDay!.adding(days: 2), at: nil)
        XCTAssertEqual(s.current, 1, "the Sunday week's freeze is gone")
    }

    func test_streak_twoMissedDaysInOneWeekReset() {
        let s = StreakRules.replay(([mon, mon.adding(days: 3)]).map { ($0, nil) })
        XCTAssertEqual(s.current, 1)
    }

    func test_streak_displayDropsToZeroOnlyAfterAnUncoveredMiss() {
        let s = StreakRules.replay(([mon, mon.adding(days: 1)]).map { ($0, nil) })
        XCTAssertEqual(StreakRules.current(s, today: mon.adding(days: 2), now: nil), 2, "today not over yet")
        XCTAssertEqual(StreakRules.current(s, today: mon.adding(days: 3), now: nil), 2, "one missed day, freeze covers it")
        XCTAssertEqual(StreakRules.current(s, today: mon.adding(days: 4), now: nil), 0)
    }

    func test_streak_earlierDayChangesNothing() {
        let s = StreakRules.replay(([mon, mon.adding(days: 1)]).map { ($0, nil) })
        XCTAssertEqual(StreakRules.engage(s, on: mon.adding(days: -5), at: nil), s)
    }

    func test_streakLine_isSelfAwareAndQuiet() {
        XCTAssertEqual(StreakRules.line(days: 14, longest: 14), "day 14 // this number means nothing about your growth. but you looked.", "the spec's streak display")
        for d in 0..<30 {
            let l = StreakRules.line(days: d, longest: 30)
            XCTAssertFalse(l.contains("!"))
            XCTAssertLessThanOrEqual(l.count, 80)
        }
        // "Nothing counted yet" is said only while it is true; a reset is not announced either.
        XCTAssertEqual(StreakRules.line(days: 0, longest: 0), "day 0 // nothing counted yet.")
        let reset = StreakRules.line(days: 0, longest: 9)
        XCTAssertTrue(reset.hasPrefix("day 0 // "), reset)
        XCTAssertFalse(reset.contains("nothing counted") || reset.contains("broke") || reset.contains("lost"), reset)
    }
}
