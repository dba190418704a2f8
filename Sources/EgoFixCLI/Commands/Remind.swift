import ArgumentParser
import EgoFixCore
import EgoFixStore
import Foundation

struct Remind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "Print the reminder due now, or nothing. --install runs it from a systemd user timer.",
        discussion: """
        Due now: the day's fix from remind_at (egofix.toml, default 09:00) while it is unmarked, the weekly \
        diagnostic while it is open and not done, "Still running smoothly?" once every active bug is stable. \
        How often follows one rule, on the site's "how the numbers work" page: daily while a bug is young, \
        less as bugs stabilize, never about a missed day. Nothing due prints nothing and exits 0.
        """)

    @OptionGroup var options: StoreOptions

    @Flag(help: "Send it as a desktop notification (notify-send) instead; printed when none can be sent. Each reminder is sent once.")
    var notify = false

    @Flag(help: "Write egofix-remind.service and egofix-remind.timer under $XDG_CONFIG_HOME/systemd/user.")
    var install = false

    @Option(help: ArgumentHelp("The time of day the day's fix is due from (with --install, when the timer runs). "
                               + "Default: remind_at in egofix.toml, else 09:00.", valueName: "HH:MM"))
    var at: String?

    @Flag(name: .customLong("print"), help: "With --install: print both units instead of writing them.")
    var printUnits = false

    @Flag(help: "Remove the two units --install wrote.")
    var uninstall = false

    func run() async throws {
        if install && uninstall { throw CLIError("--install and --uninstall undo each other; pass one. Nothing was changed.", code: 64) }
        if !install, printUnits { throw CLIError("--print goes with --install. Nothing was changed.", code: 64) }
        if uninstall, at != nil { throw CLIError("--at sets a time; --uninstall removes the units whatever their time. Pass one. Nothing was changed.", code: 64) }
        let time = try at.map { text in
            guard let t = ReminderTime(text) else {
                throw CLIError("--at '\(Terminal.visible(text))' is not a time of day. Use HH:MM, such as 09:00 or 18:30.", code: 64)
            }
            return t
        }
        if notify, install || uninstall { throw CLIError("--notify is what the installed timer runs; leave it out of --install and --uninstall.", code: 64) }
        if install { return try installUnits(at: time) }
        if uninstall { return try uninstallUnits() }
        let s = try Session.open(options)
        let due = try await s.store.transaction { () -> ReminderCadence.Now in
            try await s.ensureCatalogue()
            return try await ReminderService(repos: s.repos, calendar: s.calendar)
                .due(at: s.now, remindAt: time ?? s.config.remindAt ?? .standard, skippedDiagnosticWeek: try s.skippedDiagnosticWeek())
        }
        guard notify else {
            if !due.lines.isEmpty { s.print(due.lines) }
            // Said is said: the fix it names can be marked now, even before remind_at (`--at 07:30`),
            // once it is on a terminal (not into a file or a script, nor lost to a full disk).
            if due.fixLabel != nil, isatty(STDOUT_FILENO) == 1 {
                try StandardStreams.finish()
                var said = SentReminders(store: s.storePath, environment: Session.environment())
                said.recordSaid(day: s.today)
            }
            return
        }
        // What the timer runs: each reminder once (a fix still unmarked at Sunday 18:00, or the
        // diagnostic still open on Monday morning, was sent again).
        var sent = SentReminders(store: s.storePath, environment: Session.environment())
        let unsent = sent.unsent(due, day: s.today)
        let lines = unsent.lines
        guard !lines.isEmpty else { return }
        guard sent.canNote() else {
            throw CLIError("cannot write \(sent.path) (its folder is read-only or full), so nothing was sent: each run would "
                           + "send it again. Make the folder writable, or set XDG_STATE_HOME to one that is.")
        }
        // Noted as sent only when a notification was shown: printed instead (no notify-send, no
        // session bus, as under a timer at boot), it went to the journal, and the next run says it.
        if DesktopNotification.send(title: ReminderCopy.notificationTitle, body: lines.joined(separator: "\n")) {
            sent.record(unsent, day: s.today)
        } else {
            s.print(lines)
        }
    }

    func installUnits(at given: ReminderTime?) throws {
        let env = Session.environment()
        var time = given ?? .standard
        // The session checks the store is there and reads egofix.toml (remind_at, time_zone).
        let s = try Session.open(options)
        if given == nil, let configured = s.config.remindAt { time = configured }
        let cwd = try Session.workingFolder()
        let executable = RunningExecutable.path()
            ?? absolute(CommandLine.arguments.first ?? "egofix", in: cwd)
        // The store by its full path, wherever it was found (--store, EGOFIX_STORE, egofix.toml or
        // $XDG_DATA_HOME): systemd runs the unit without this shell's environment.
        let store: String? = absolute(s.storePath, in: cwd)
        // The workspace (egofix.toml's folder, here or above) is where the service runs when it
        // has egofix.toml or a Seeds folder of its own: the service reads both there.
        let found = Session.workspace(from: cwd)
        let workspace = ["/egofix.toml", "/Seeds"].contains { FileManager.default.fileExists(atPath: found + $0) } ? found : nil
        let named = s.config.timeZone != nil || !(env["TZ"] ?? "").isEmpty
        let stateHome = env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        for path in [executable, store, workspace, stateHome].compactMap({ $0 }) where SystemdUnits.unfit(path) {
            throw CLIError("\(Terminal.visible(path)) holds a control character; a systemd unit cannot name it. Move it, or pass another --store.")
        }
        // The timer's time goes to the command too: a reminder run at 07:30 is due from 07:30.
        let zone = named ? SystemdUnits.Zone(s.calendar.timeZone) : nil
        let service = SystemdUnits.serviceText(executable: executable, store: store, workingDirectory: workspace, at: time, timeZone: zone,
                                               stateHome: stateHome)
        let timer = SystemdUnits.timerText(at: time, timeZone: zone,
                                           gapEnd: SystemdUnits.springForwardEnd(of: time, in: s.calendar.timeZone, from: s.now))
        let folder = SystemdUnits.folder(environment: env)
        if printUnits {
            s.print(["# " + folder + "/" + SystemdUnits.service, service, "# " + folder + "/" + SystemdUnits.timer, timer])
            return
        }
        let existed = FileManager.default.fileExists(atPath: folder + "/" + SystemdUnits.timer)
        // One reminder per user: units written for another store or time are replaced, and said so.
        let before = existed ? try? String(contentsOfFile: folder + "/" + SystemdUnits.service, encoding: .utf8) : nil
        let replaced = existed && before != service
        // The store the replaced units reminded, when it was another (a second workspace's
        // install took the reminder over without naming either store).
        let replacedStore = before.flatMap(SystemdUnits.store(inService:)).flatMap { $0 == store ? nil : $0 }
        // The system's reason ("No space left on device"), not Foundation's sentence about it.
        func refused(_ reason: String) -> CLIError {
            CLIError("cannot write the units into \(folder) (\(reason)). `--print` shows them to place by hand.")
        }
        // Folders made here are this user's alone whatever the umask, and one an earlier egofix
        // left writable by others is tightened: under umask 000 another account could put its own
        // unit in the place of this one, for this user's systemd to run. The units themselves
        // name the store and the workspace, so they are this user's to read.
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) } catch {
            let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            throw refused(posix.map { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : $0.localizedDescription }
                          ?? error.localizedDescription)
        }
        for writable in [folder, (folder as NSString).deletingLastPathComponent] {
            var st = stat()
            if lstat(writable, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid(), st.st_mode & 0o022 != 0 {
                _ = chmod(writable, st.st_mode & 0o7755)
            }
        }
        for (name, text) in [(SystemdUnits.service, service), (SystemdUnits.timer, timer)] {
            do throws(AtomicFile.Failure) { try AtomicFile.write(Data(text.utf8), to: folder + "/" + name, mode: 0o600) } catch {
                throw refused(error.reason)
            }
        }
        s.print(["Wrote \(SystemdUnits.service) and \(SystemdUnits.timer) into \(Terminal.visible(folder)): `egofix remind --notify` at \(time) every day, and Sunday \(Thresholds.diagnosticOpensSundayHour):00."]
                + (replaced ? [replacedStore.map { "They replace the units that were there, which reminded another store, \(Terminal.visible($0)) (one reminder per user)." }
                               ?? "They replace the units that were there, which reminded this store at another time or in another zone (one reminder per user)."] : [])
                + ["The units keep the time, the zone and the store they were written with: after changing remind_at, time_zone or store, run `egofix remind --install` again.",
                 existed ? "systemctl --user daemon-reload && systemctl --user enable --now \(SystemdUnits.timer)"
                         : "systemctl --user enable --now \(SystemdUnits.timer)"])
    }

    func uninstallUnits() throws {
        let folder = SystemdUnits.folder(environment: Session.environment())
        let fm = FileManager.default
        var removed: [String] = []
        for name in [SystemdUnits.timer, SystemdUnits.service, "timers.target.wants/" + SystemdUnits.timer] {
            let path = folder + "/" + name
            // A dangling link (the enabled timer's) is still removed.
            guard (try? fm.attributesOfItem(atPath: path)) != nil else { continue }
            do { try fm.removeItem(atPath: path) } catch {
                throw CLIError("cannot remove \(path) (\(error.localizedDescription)).")
            }
            removed.append(name)
        }
        guard !removed.isEmpty else {
            Swift.print("No EgoFix reminder units in \(Terminal.visible(folder)). Nothing removed.")
            return
        }
        Swift.print("Removed \(removed.joined(separator: ", ")) from \(Terminal.visible(folder)).")
        Swift.print("systemctl --user stop \(SystemdUnits.timer); systemctl --user daemon-reload")
    }

    func absolute(_ path: String, in cwd: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL.path
    }
}
