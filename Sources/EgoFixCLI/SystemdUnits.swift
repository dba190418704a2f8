import EgoFixCore
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
        return (env["HOME"] ?? NSHomeDirectory()) + "/.config/systemd/user"
    }

    /// The service: `executable remind --notify [--store store]`, run in `workingDirectory` when
    /// given (where egofix.toml is), with TZ set to `timeZone` when given: systemd's user manager
    /// does not have the shell's TZ, and a remind run in the system's zone is due at other hours.
    static func serviceText(executable: String, store: String?, workingDirectory: String?, at: ReminderTime? = nil,
                            timeZone: String? = nil) -> String {
        var exec = [executable, "remind", "--notify"]
        if let store { exec += ["--store", store] }
        if let at { exec += ["--at", "\(at)"] }
        var lines = ["# Written by `egofix remind --install`; `egofix remind --uninstall` removes it.",
                     "[Unit]",
                     "Description=EgoFix reminder (egofix remind --notify)",
                     "",
                     "[Service]",
                     "Type=oneshot",
                     "ExecStart=" + exec.map(quote).joined(separator: " ")]
        if let workingDirectory { lines.append("WorkingDirectory=" + specifiersEscaped(workingDirectory)) }
        if let timeZone { lines.append("Environment=" + quote("TZ=" + timeZone)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The timer: every day at `at`, and Sunday at the diagnostic's hour, in `timeZone` when given
    /// (else the system's local time); a run missed while the machine was off comes at the next boot.
    static func timerText(at: ReminderTime, timeZone: String?) -> String {
        let zone = timeZone.map { " " + $0 } ?? ""
        let sunday = ReminderTime(hour: Thresholds.diagnosticOpensSundayHour, minute: 0) ?? .standard
        return ["# Written by `egofix remind --install`; `egofix remind --uninstall` removes it.",
                "[Unit]",
                "Description=EgoFix reminder at \(at), and Sunday \(sunday) for the weekly diagnostic",
                "",
                "[Timer]",
                "OnCalendar=*-*-* \(at):00" + zone,
                "OnCalendar=Sun *-*-* \(sunday):00" + zone,
                "Persistent=true",
                "Unit=" + service,
                "",
                "[Install]",
                "WantedBy=timers.target"].joined(separator: "\n") + "\n"
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
