import XCTest
@testable import EgoFixCore

/// LocalDay reads an instant's date and time from the zone's offset instead of asking the
/// calendar for components; these check it gives the calendar's answer everywhere a user could be,
/// most of all around daylight-saving transitions (a wrong day moves a fix to another week).
final class LocalDayClockTests: XCTestCase {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Asia/Kathmandu",
                        "Pacific/Apia", "America/Sao_Paulo", "Europe/Dublin", "Africa/Casablanca", "America/St_Johns", "UTC"]

    /// Instants worth checking in a zone: every transition from 1995 to 2035 and the hours around it,
    /// plus a spread over 1900...2100, some with fractions of a second near midnight.
    func instants(_ tz: TimeZone) -> [Date] {
        var out: [Date] = []
        var t = Date(timeIntervalSince1970: 788_918_400)  // 1995-01-01
        let end = Date(timeIntervalSince1970: 2_082_758_400)  // 2036-01-01
        var guardCount = 0
        while let next = tz.nextDaylightSavingTimeTransition(after: t), next < end, guardCount < 200 {
            for k in stride(from: -7200.0, through: 7200.0, by: 450) { out.append(next.addingTimeInterval(k)) }
            out.append(next.addingTimeInterval(-0.0001))
            t = next
            guardCount += 1
        }
        var rng = SplitMix64(seed: 42)
        for _ in 0..<1000 {
            let s = -2_208_988_800 + Double(rng.next() % 6_311_347_200)  // 1900...2100
            out.append(Date(timeIntervalSince1970: s))
            out.append(Date(timeIntervalSince1970: (s / 86_400).rounded(.down) * 86_400 - Double(tz.secondsFromGMT()) - 0.000_1))
        }
        return out
    }

    func test_dayAndMinuteOfAnInstant_areTheCalendarsInEveryZone() throws {
        for id in LocalDayClockTests.zones {
            let tz = try XCTUnwrap(TimeZone(identifier: id))
            let cal = UserCalendar.make(timeZone: tz)
            for d in instants(tz) {
                let c = cal.dateComponents([.year, .month, .day, .hour, .minute], from: d)
                let day = LocalDay(d, calendar: cal)
                XCTAssertEqual(LocalDay.Converter(cal).day(d), day, "\(id) \(d): the batch converter agrees")
                XCTAssertEqual(day.components.year, c.year, "\(id) \(d)")
                XCTAssertEqual(day.components.month, c.month, "\(id) \(d)")
                XCTAssertEqual(day.components.day, c.day, "\(id) \(d)")
                XCTAssertEqual(LocalDay.minuteOfDay(d, calendar: cal), (c.hour ?? 0) * 60 + (c.minute ?? 0), "\(id) \(d)")
                let w = cal.dateComponents([.weekday, .hour], from: d)
                let event = AnalyticsEvent.make(id: UUID(), userId: UUID(), type: .appOpened, at: d, calendar: cal)
                XCTAssertEqual(event.dayOfWeek, w.weekday, "\(id) \(d)")
                XCTAssertEqual(event.hourOfDay, w.hour, "\(id) \(d)")
            }
        }
    }

    func test_wallClockTimesOnADay_areTheCalendarsEvenOnTransitionDays() throws {
        for id in LocalDayClockTests.zones {
            let tz = try XCTUnwrap(TimeZone(identifier: id))
            let cal = UserCalendar.make(timeZone: tz)
            var days = Set<LocalDay>()
            for d in instants(tz).prefix(800) { for k in -2...2 { days.insert(LocalDay(d, calendar: cal).adding(days: k)) } }
            for day in days {
                for hour in 0..<24 {
                    for minute in [0, 30, 59] {
                        var dc = DateComponents(year: day.year, month: day.month, day: day.day)
                        dc.hour = hour
                        dc.minute = minute
                        XCTAssertEqual(day.at(hour: hour, minute: minute, in: cal), cal.date(from: dc), "\(id) \(day) \(hour):\(minute)")
                    }
                }
                let dc = DateComponents(year: day.year, month: day.month, day: day.day)
                XCTAssertEqual(day.start(in: cal), cal.date(from: dc), "\(id) \(day)")
            }
        }
    }

    /// The offsets cache learns a run of days from one question (up to the zone's next
    /// transition); walked forward a day at a time, as the demo history walks, every instant of
    /// every day still has the zone's own offset, transition days and the hours around them included.
    func test_zoneOffsets_walkedForwardDayByDay_areTheZonesInEveryZone() throws {
        for id in LocalDayClockTests.zones {
            let tz = try XCTUnwrap(TimeZone(identifier: id))
            let offsets = ZoneOffsets()
            var wrong = 0
            // 2005-01-01 to 2031-01-01, UTC days since the reference date, every 97 minutes of each.
            for day in 1_461...10_958 where wrong < 3 {
                for k in 0..<15 {
                    let t = Double(day) * 86_400 + Double(k * 97 * 60)
                    let expected = tz.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: t))
                    if offsets.offset(tz, at: t) != expected {
                        wrong += 1
                        XCTFail("\(id) \(Date(timeIntervalSinceReferenceDate: t)): \(offsets.offset(tz, at: t)), not \(expected)")
                    }
                }
            }
            if let next = tz.nextDaylightSavingTimeTransition(after: Date(timeIntervalSinceReferenceDate: 86_400 * 5_000)) {
                let day = (next.timeIntervalSinceReferenceDate - 3_600) / 86_400
                let around = offsets.steadyOffset(tz, aroundLocal: day * 86_400 + Double(tz.secondsFromGMT(for: next)))
                XCTAssertNil(around, "\(id): no steady offset around a transition")
            }
        }
    }

    /// A message naming a time in the hour a clock going back repeats says which pass: `crash
    /// --undo` said "logged at 01:30" of either, where the pages say "01:30 UTC+1" and "01:30 UTC+0".
    func test_hourMinute_inTheRepeatedHourSaysTheOffset() throws {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = try XCTUnwrap(TimeZone(identifier: "Europe/London"))
        let iso = ISO8601DateFormatter()
        let at = { (s: String) in try XCTUnwrap(iso.date(from: s)) }
        XCTAssertEqual(InstantText.hourMinute(try at("2026-10-25T00:30:00Z"), calendar: cal), "01:30 UTC+1")
        XCTAssertEqual(InstantText.hourMinute(try at("2026-10-25T01:30:00Z"), calendar: cal), "01:30 UTC+0")
        XCTAssertEqual(InstantText.hourMinute(try at("2026-10-25T09:05:00Z"), calendar: cal), "09:05")
        XCTAssertEqual(InstantText.hourMinute(try at("2026-03-29T01:30:00Z"), calendar: cal), "02:30")
    }

    func test_description_isZeroPaddedISO() {
        XCTAssertEqual(LocalDay(year: 2026, month: 3, day: 7).description, "2026-03-07")
        XCTAssertEqual(LocalDay(year: 987, month: 12, day: 31).description, "0987-12-31")
        XCTAssertEqual(LocalDay(year: 12_345, month: 1, day: 1).description, "12345-01-01")
    }

    func test_daysAsKeys_findEveryDayAndOnlyIt() {
        // Sets and dictionaries keyed by days hash them with LocalDay's own mixer.
        let ordinals = Array(-40_000...40_000) + [Int.min, Int.min + 1, Int.max, Int.max - 1, 1 << 40, -(1 << 40)]
        var byDay: [LocalDay: Int] = [:]
        var set = Set<LocalDay>()
        for o in ordinals {
            byDay[LocalDay(ordinal: o)] = o
            set.insert(LocalDay(ordinal: o))
        }
        XCTAssertEqual(byDay.count, ordinals.count)
        XCTAssertEqual(set.count, ordinals.count)
        for o in ordinals {
            XCTAssertEqual(byDay[LocalDay(ordinal: o)], o)
            XCTAssertTrue(set.contains(LocalDay(ordinal: o)))
        }
        XCTAssertNil(byDay[LocalDay(ordinal: 40_001)])
        XCTAssertFalse(set.contains(LocalDay(ordinal: -40_001)))
        XCTAssertEqual(Set(ordinals.map { LocalDay(ordinal: $0)._rawHashValue(seed: 7) }).count, ordinals.count)
    }
}
