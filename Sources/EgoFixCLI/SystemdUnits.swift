import EgoFixCore
import EgoFixStore
import Foundation

/// The systemd user units `egofix remind --install` writes: a oneshot service that runs
/// `egofix remind --notify`, and a timer that starts it at remind_at every day and on Sunday at
/// the hour the weekly diagnostic opens. Text only; the command writes them.
enum SystemdUnits {
    static let service = "egofix-remind.service"
    static let timer = "egofix-remind.timer"

    /// $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user (a relative XDG_CONFIG_HOME is
    /// ignored, as the XDG spec says).
    static func folder(environment env: [String: String]) -> String {
        if let x = env["XDG_CONFIG_HOME"], x.hasPrefix("/") { return x + "/systemd/user" }
        return StoreLocation.home(environment: env) + "/.config/systemd/user"
    }

    /// A zone as the units can name it. A named zone (Europe/Berlin, Etc/GMT-3) is named as it is. A
    /// fixed offset that has no name (TZ=UTC-5:30, which Foundation calls "GMT+0530") is not a zone
    /// systemd reads in OnCalendar, and the C library reads "GMT+0530" as west: the timer then runs
    /// in UTC at the same instants, and the service gets TZ in POSIX's own form ("<+0530>-5:30").
    struct Zone: Equatable {
        /// For OnCalendar.
        let calendarName: String
        /// For the service's TZ.
        let tz: String
        /// Seconds east of UTC that the timer's times are moved by (0 for a named zone).
        let shift: Int

        init(_ zone: TimeZone) {
            let id = zone.identifier
            guard id.count > 3, id.hasPrefix("GMT+") || id.hasPrefix("GMT-") else {
                (calendarName, tz, shift) = (id, id, 0)
                return
            }
            let east = zone.secondsFromGMT()
            let west = -east, a = abs(west)
            let hhmm = String(format: "%02d%02d", a / 3600, a % 3600 / 60)
            let posix = "<\(east >= 0 ? "+" : "-")\(hhmm)>\(west < 0 ? "-" : "")\(a / 3600):\(String(format: "%02d", a % 3600 / 60))"
            (calendarName, tz, shift) = ("UTC", posix, east)
        }
    }

    /// The service: `executable remind --notify [--store store] --at HH:MM`, run in
    /// `workingDirectory` when given (where egofix.toml is), with TZ set to `timeZone` when given:
    /// systemd's user manager does not have the shell's TZ, and a remind run in the system's zone is
    /// due at other hours. `--at` is the timer's time: a remind_at changed later in egofix.toml,
    /// which the timer does not see, made the run at the old time find nothing due, and the day's
    /// reminder never came.
    static func serviceText(executable: String, store: String?, workingDirectory: String?, at: ReminderTime,
                            timeZone: Zone? = nil, stateHome: String? = nil) -> String {
        var exec = [executable, "remind", "--notify"]
        if let store { exec += ["--store", store] }
        exec += ["--at", "\(at)"]
        var lines = ["# Written by `egofix remind --install`; `egofix remind --uninstall` removes it.",
                     "[Unit]",
                     "Description=EgoFix reminder (egofix remind --notify)",
                     "",
                     "[Service]",
                     "Type=oneshot",
                     "ExecStart=" + exec.map(quote).joined(separator: " ")]
        if let workingDirectory { lines.append("WorkingDirectory=" + specifiersEscaped(workingDirectory)) }
        if let timeZone { lines.append("Environment=" + quote("TZ=" + timeZone.tz)) }
        // Where reminders already said are noted: the shell's, when it names one, so a fix said in
        // a terminal is not sent again by the timer, which systemd runs without that variable.
        if let stateHome { lines.append("Environment=" + quote("XDG_STATE_HOME=" + stateHome)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The timer: every day at `at`, and Sunday at the diagnostic's hour, in `timeZone` when given
    /// (else the system's local time); a run missed while the machine was off comes at the next boot.
    /// Where the spring-forward gap that `at` falls in ends, as a time of day, when `at` falls in
    /// one of `zone`'s in the coming years (02:30 in Berlin, New York or Sydney): systemd finds no
    /// 02:30 on that Sunday and skips to Monday, where `egofix remind` and reminders.ics take the
    /// gap's end (03:00). The timer runs then too; on other days the reminder was said at `at`,
    /// and the run finds nothing more to say.
    static func springForwardEnd(of at: ReminderTime, in zone: TimeZone, from now: Date) -> ReminderTime? {
        let minute = at.hour * 60 + at.minute
        var t = now
        for _ in 0..<8 {
            guard let next = zone.nextDaylightSavingTimeTransition(after: t), next > t else { return nil }
            t = next
            let before = zone.secondsFromGMT(for: next.addingTimeInterval(-1)), after = zone.secondsFromGMT(for: next)
            guard after > before else { continue }
            // The local times that day skips: from the transition in the old offset to it in the new.
            let epoch = Int(next.timeIntervalSince1970.rounded(.down))
            func minuteOfDay(_ offset: Int) -> Int { (((epoch + offset) % 86_400 + 86_400) % 86_400) / 60 }
            let start = minuteOfDay(before), end = minuteOfDay(after)
            let inGap = start <= end ? (start..<end).contains(minute) : minute >= start || minute < end
            if inGap { return ReminderTime(hour: end / 60, minute: end % 60) }
        }
        return nil
    }

    static func timerText(at: ReminderTime, timeZone: Zone?, gapEnd: ReminderTime? = nil) -> String {
        let zone = timeZone.map { " " + $0.calendarName } ?? ""
        let shift = (timeZone?.shift ?? 0) / 60
        let sunday = ReminderTime(hour: Thresholds.diagnosticOpensSundayHour, minute: 0) ?? .standard
        // A time of the zone's day, moved to UTC's when the zone is a bare offset: the minute of
        // the day, and the weekday it falls on (Sunday 03:00 at +05:30 is Saturday 21:30 UTC).
        func moved(_ t: ReminderTime, weekday: Int) -> (weekday: String, time: String) {
            let m = t.hour * 60 + t.minute - shift
            let day = (weekday + (m < 0 ? -1 : m >= 1440 ? 1 : 0) + 7) % 7
            let inDay = (m % 1440 + 1440) % 1440
            return (LocalDay.shortWeekdayNames[(day + 6) % 7], String(format: "%02d:%02d", inDay / 60, inDay % 60))
        }
        let daily = moved(at, weekday: 0).time, weekly = moved(sunday, weekday: 0)
        var lines: [String] = ["# Written by `egofix remind --install`; `egofix remind --uninstall` removes it.",
                               "[Unit]",
                               "Description=EgoFix reminder at \(at), and Sunday \(sunday) for the weekly diagnostic",
                               "",
                               "[Timer]",
                               "OnCalendar=*-*-* \(daily):00" + zone,
                               "OnCalendar=\(weekly.weekday) *-*-* \(weekly.time):00" + zone]
        if let end = gapEnd {
            lines.append("# \(at) is skipped on the night the clocks go forward: the gap's end, \(end), that day (a quiet run on others).")
            lines.append("OnCalendar=*-*-* \(end):00" + zone)
        }
        lines += ["Persistent=true", "Unit=" + service, "", "[Install]", "WantedBy=timers.target"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The store a service written by `serviceText` reminds: the word after "--store" on its
    /// ExecStart line, unquoted (`quote` undone). Nil for a service without one.
    static func store(inService text: String) -> String? {
        guard let exec = text.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }),
              let flag = exec.range(of: "\"--store\" \"") else { return nil }
        var out = "", escaped = false, dollar = false, percent = false
        for c in exec[flag.upperBound...] {
            if escaped { out.append(c); escaped = false; continue }
            if dollar { dollar = false; if c == "$" { continue } }
            if percent { percent = false; if c == "%" { continue } }
            switch c {
            case "\\": escaped = true
            case "\"": return out
            case "$": out.append(c); dollar = true
            case "%": out.append(c); percent = true
            default: out.append(c)
            }
        }
        return nil
    }

    /// One ExecStart word, double-quoted: backslash and quote escaped, `$` and `%` doubled (so
    /// systemd expands no variable or specifier in it).
    static func quote(_ word: String) -> String {
        var out = "\""
        for c in word {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "$": out += "$$"
            case "%": out += "%%"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    static func specifiersEscaped(_ s: String) -> String { s.replacingOccurrences(of: "%", with: "%%") }

    /// Paths a unit cannot carry: control characters (a line break would end the setting).
    static func unfit(_ path: String) -> Bool { path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
}
