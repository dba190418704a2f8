import EgoFixCore
import Foundation
import XCTest
@testable import EgoFixSite

/// reminders.ics (issue 32): RFC 5545 text, deterministic, stable UIDs, UTC instants.
final class ReminderCalendarTests: XCTestCase {
    let calendar = UserCalendar.make(timeZone: TimeZone(identifier: "Europe/Berlin") ?? .current)

    func reminders() -> [ScheduledReminder] {
        let day = LocalDay(year: 2026, month: 11, day: 23)
        let bug = Bug(slug: "need-to-be-right", title: "Need to be right", description: "d", isActive: true, status: .active,
                      activatedAt: day.at(hour: 8, in: calendar), createdAt: day.at(hour: 8, in: calendar))
        return ReminderCadence.upcoming(bugs: [bug], diagnostics: [], from: day, remindAt: .standard, calendar: calendar)
    }

    func test_calendar_isRFC5545TextWithUTCInstantsAndStableUIDs() throws {
        let owner = UUID(uuidString: "3AEEBF38-603F-4100-80C4-BF1A1AB0CD88")
        let stamp = LocalDay(year: 2026, month: 11, day: 23).start(in: calendar)
        let text = ReminderCalendar.ics(reminders(), owner: owner, stamp: stamp, name: "Mine, really; \\ok")
        XCTAssertEqual(text, ReminderCalendar.ics(reminders(), owner: owner, stamp: stamp, name: "Mine, really; \\ok"))
        XCTAssertTrue(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
        XCTAssertTrue(text.hasSuffix("END:VCALENDAR\r\n"))
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
        for line in text.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 75, line) }
        XCTAssertTrue(text.contains("X-WR-CALNAME:Mine\\, really\\; \\\\ok"))
        // Winter in Berlin: 09:00 local is 08:00 UTC; the diagnostic Sunday 18:00 is 17:00 UTC.
        XCTAssertTrue(text.contains("DTSTART:20261123T080000Z"))
        XCTAssertTrue(text.contains("DTSTART:20261129T170000Z"))
        XCTAssertTrue(text.contains("DTSTAMP:20261122T230000Z"))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        XCTAssertTrue(unfolded.contains("UID:egofix-dailyFix-2026-11-23-3aeebf38-603f-4100-80c4-bf1a1ab0cd88@egofix.invalid"))
        XCTAssertEqual(unfolded.components(separatedBy: "BEGIN:VEVENT").count - 1, 28 + 4)
        XCTAssertFalse(text.contains("!"))
    }

    func test_calendar_foldsWithoutSplittingACharacter() {
        let line = "SUMMARY:" + String(repeating: "é", count: 60)
        let folded = ReminderCalendar.fold(line)
        for part in folded.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(part.utf8.count, 75) }
        XCTAssertEqual(folded.replacingOccurrences(of: "\r\n ", with: ""), line)
        XCTAssertEqual(ReminderCalendar.utc(Date(timeIntervalSince1970: 0)), "19700101T000000Z")
        XCTAssertEqual(ReminderCalendar.utc(Date(timeIntervalSince1970: -1)), "19691231T235959Z")
    }

    /// The text read by an independent parser: python3's icalendar, through scripts/check_ics.py
    /// (scripts/deps.sh installs it; skipped where python3 or the package is missing).
    func test_calendar_parsesWithPythonICalendar() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/check_ics.py").path
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import icalendar"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        do { try probe.run() } catch { throw XCTSkip("no python3") }
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { throw XCTSkip("python3 has no icalendar package (scripts/deps.sh installs it)") }
        let path = NSTemporaryDirectory() + "egofix-reminders-\(UUID().uuidString).ics"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(ReminderCalendar.ics(reminders(), owner: nil, stamp: Date(timeIntervalSince1970: 1_790_000_000), name: "EgoFix").utf8)
            .write(to: URL(fileURLWithPath: path))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script, path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, e)
        XCTAssertTrue(o.contains("32 reminders, parsed by icalendar"), o + e)
    }
}
