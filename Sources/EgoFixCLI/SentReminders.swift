import EgoFixCore
import EgoFixStore
import Foundation

/// What `egofix remind --notify` has already sent for a store, so that each reminder goes out
/// once: the timer runs at remind_at every day and at Sunday 18:00, and without this a fix still
/// unmarked at 18:00 was sent a second time, and the diagnostic again on Monday morning. One line
/// per reminder sent ("fix 2026-03-01", "diagnostic 2026-03-01", "still 2026-03-04"), the last
/// `kept` of them, in $XDG_STATE_HOME/egofix (else ~/.local/state/egofix), one file per store.
/// A file that cannot be written stops `--notify` before it sends (it would send on every run); one
/// that cannot be read, or a run killed between sending and noting, means a reminder may come twice,
/// never that one is lost. Only a notification shown is noted (one printed instead went to a journal). Plain
/// `egofix remind` (what is due now, asked in a terminal) notes only that it said the day's fix
/// ("said fix 2026-03-01"), so that the fix can be marked at once; the timer still sends it.
struct SentReminders {
    static let kept = 64

    let path: String
    private(set) var lines: [String]

    /// The file for the store at `store`, read (empty when it is missing or unreadable).
    init(store: String, environment env: [String: String]) {
        // In the state folder (`StateFolder`: an empty HOME kept no note when it was read here).
        let key = String(StableHash.fnv1a([RealPath.of(store) ?? store]), radix: 16)
        path = StateFolder.path(environment: env) + "/reminded-" + key
        lines = SentReminders.read(path)
    }

    /// The file's lines (none when it is missing or unreadable).
    private static func read(_ path: String) -> [String] {
        guard AtomicFile.notARegularFile(path) == nil, let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data.prefix(16 << 10), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The keys of the reminders of `day`: the diagnostic by the Sunday its window opened.
    static func keys(day: LocalDay) -> (fix: String, diagnostic: String, still: String) {
        let sunday = day.isoWeekday == 7 ? day : day.adding(days: -day.isoWeekday)
        return ("fix \(day)", "diagnostic \(sunday)", "still \(day)")
    }

    /// Whether the day's fix was announced on `day` ("Fix #041 is ready."), by the timer or by
    /// `egofix remind` in a terminal.
    func sentFix(on day: LocalDay) -> Bool {
        let fix = Self.keys(day: day).fix
        return lines.contains(fix) || lines.contains("said " + fix)
    }

    /// Notes that `egofix remind` printed the day's fix on `day` (not a notification: the timer
    /// still sends its own).
    mutating func recordSaid(day: LocalDay) {
        let said = "said " + Self.keys(day: day).fix
        guard !lines.contains(said) else { return }
        lines.append(said)
        save()
    }

    /// `due` without what was already sent.
    func unsent(_ due: ReminderCadence.Now, day: LocalDay) -> ReminderCadence.Now {
        let k = Self.keys(day: day)
        var out = due
        if lines.contains(k.fix) { out.fixLabel = nil }
        if lines.contains(k.diagnostic) { out.diagnostic = false }
        if lines.contains(k.still) { out.stillRunning = false }
        return out
    }

    /// Notes `sent` as sent and writes the file (0600 in a 0700 folder); failures are ignored.
    mutating func record(_ sent: ReminderCadence.Now, day: LocalDay) {
        let k = Self.keys(day: day)
        if sent.fixLabel != nil { lines.append(k.fix) }
        if sent.diagnostic { lines.append(k.diagnostic) }
        if sent.stillRunning { lines.append(k.still) }
        save()
    }

    /// Whether what is sent can be noted: the file written as it is. A notification that cannot be
    /// noted is not sent (under a timer, a read-only or full state folder had it sent on every run).
    mutating func canNote() -> Bool { save() }

    /// Writes the file (0600 in a 0700 folder), the last `kept` lines, and answers whether it did.
    /// The file is read again first and the lines noted since are kept (a timer and a terminal
    /// may both note a reminder at once).
    @discardableResult
    private mutating func save() -> Bool {
        let onDisk = SentReminders.read(path)
        lines = Array((onDisk + lines.filter { !onDisk.contains($0) }).suffix(Self.kept))
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return (try? AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: path, mode: 0o600)) != nil
    }
}
