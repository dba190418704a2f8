import EgoFixCore
import Foundation

/// `reminders.ics`: the coming weeks' reminders as an iCalendar feed (RFC 5545), for a calendar
/// app to subscribe to. Pure and deterministic: instants in UTC (no VTIMEZONE needed), a UID per
/// reminder made of its kind, its local day and the profile, and a DTSTAMP from the build's local
/// day rather than its instant, so two builds on the same day give the same bytes.
public enum ReminderCalendar {
    /// The calendar's text, CRLF line ends, lines folded at 75 octets.
    /// - Parameters:
    ///   - owner: the profile's id (part of every UID); nil gives "local".
    ///   - stamp: DTSTAMP, the start of the build's local day.
    ///   - name: the calendar's name (X-WR-CALNAME).
    public static func ics(_ reminders: [ScheduledReminder], owner: UUID?, stamp: Date, name: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//EgoFix//Reminders//EN", "CALSCALE:GREGORIAN",
                     "METHOD:PUBLISH", "X-WR-CALNAME:" + escape(name)]
        let who = owner?.uuidString.lowercased() ?? "local"
        let dtstamp = utc(stamp)
        for r in reminders {
            let (summary, description) = words(r.kind)
            lines += ["BEGIN:VEVENT",
                      "UID:egofix-\(r.kind.rawValue)-\(r.day.description)-\(who)@egofix.invalid",
                      "DTSTAMP:" + dtstamp,
                      "DTSTART:" + utc(r.instant),
                      "DURATION:PT15M",
                      "SUMMARY:" + escape(summary),
                      "DESCRIPTION:" + escape(description),
                      "TRANSP:TRANSPARENT",
                      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "DESCRIPTION:" + escape(summary), "END:VALARM",
                      "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// A reminder's summary and description.
    static func words(_ kind: ScheduledReminder.Kind) -> (String, String) {
        switch kind {
        case .dailyFix: return ("EgoFix: the day's fix is ready.", "`egofix today` shows it.")
        case .diagnostic: return ("EgoFix: weekly diagnostic.", ReminderCopy.diagnostic + " Open through Monday.")
        case .stillRunning: return ("EgoFix: " + ReminderCopy.stillRunning, "Every active bug is stable. Nothing is due.")
        }
    }

    /// TEXT as RFC 5545 writes it: backslash, semicolon and comma escaped, line breaks as \n,
    /// other control characters left out.
    static func escape(_ text: String) -> String {
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default:
                if u.value < 0x20 || u.value == 0x7F { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// A content line folded after at most 75 octets, never inside a UTF-8 sequence; each
    /// continuation starts with a space.
    static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var out = "", width = 0
        for u in line.unicodeScalars {
            let n = String(u).utf8.count
            if width + n > 75 {
                out += "\r\n "
                width = 1
            }
            out.unicodeScalars.append(u)
            width += n
        }
        return out
    }

    /// An instant as a UTC DATE-TIME: 20261123T080000Z.
    static func utc(_ d: Date) -> String {
        let t = Int(d.timeIntervalSince1970.rounded(.down))
        let days = t >= 0 ? t / 86_400 : -((-t + 86_399) / 86_400)
        let c = LocalDay(ordinal: days).components
        let s = t - days * 86_400
        func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
        return String(c.year) + two(c.month) + two(c.day) + "T" + two(s / 3600) + two(s % 3600 / 60) + two(s % 60) + "Z"
    }
}

extension PageContext {
    /// reminders.ics: the next `reminderCalendarDays` days under `ReminderCadence`, the day's fix
    /// and "Still running smoothly?" at remind_at, the diagnostic on Sunday; today's fix left out
    /// once it is marked, and rest days' left out.
    func remindersCalendar() -> Data {
        let cal = options.calendar
        let today = LocalDay(options.now, calendar: cal)
        var reminders = ReminderCadence.upcoming(bugs: data.bugs, diagnostics: data.diagnostics, from: today,
                                                 remindAt: options.remindAt, calendar: cal)
        let given = PendingFixRule.todaysDailyFix(in: data.completions, fixesById: index.fixesById, today: today,
                                                  dayOf: { LocalDay($0, calendar: cal) })
        if let marked = given, marked.completion.outcome != .pending {
            reminders.removeAll { $0.kind == .dailyFix && $0.day == today }
        }
        // A rest day has no fix to announce: every fix that fits had its turn lately (the feed said
        // "the day's fix is ready" on each, and `egofix today` said REST DAY). A day the rule
        // finds no fix for with the records as they are has none however the days before it go
        // (a fix given meanwhile only cools more), unless a crash sends a bug back to active, which
        // the next build's feed takes in. Today, once its fix is given, is not one.
        if let user = data.profile {
            let restDays = Set(reminders.filter { $0.kind == .dailyFix && !($0.day == today && given != nil) }.map(\.day).filter { day in
                DailyFixRules.choose(.init(userId: user.id, day: day, bugs: data.bugs, primaryBugId: user.primaryBugId,
                                           fixes: data.fixes, completions: data.completions, calendar: cal)) == .restDay
            })
            reminders.removeAll { $0.kind == .dailyFix && restDays.contains($0.day) }
        }
        let text = ReminderCalendar.ics(reminders, owner: data.profile?.id, stamp: today.start(in: cal),
                                        name: options.title + ": reminders")
        return Data(text.utf8)
    }

    /// The cadence in plain words, for "how the numbers work".
    static var reminderRules: [String] {
        let T = Thresholds.self
        return ["egofix remind, its systemd timer and reminders.ics (linked from the dashboard) follow one rule. It reads your bugs and the day, nothing else: never a streak, never a missed day.",
                "While any active bug is young (its first \(T.reminderYoungBugDays) days since activation or a regression): the day's fix every day, at remind_at (\(ReminderTime.standard) unless egofix.toml says otherwise).",
                "Active bugs past that: every day while none is stable, every \(T.reminderSettlingEveryDays) days once some are.",
                "Every active bug stable: no fix reminder but a retest's (the day it falls due, then every \(T.retestIntervalDays) days while it waits), and \"\(ReminderCopy.stillRunning)\" every \(T.stillRunningEveryDays) days, on Wednesdays; every \(T.stillRunningLongStableEveryDays) days once the last of them has been stable \(T.stillRunningLongStableAfterDays) days.",
                "The weekly diagnostic: Sunday \(T.diagnosticOpensSundayHour):00, unless that week's is done. A marked fix is not reminded."]
    }
}
