import Foundation

public struct CrashService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// Logs a crash (bug optional: the primary bug is assumed), records it in the changelog
    /// under the current version, and queues a quick fix for that bug, shown next; `waiting` when
    /// that quick fix was queued by an earlier crash and is still pending.
    /// A crash's line in the changelog: "Crash: need to be right."
    static func changelogLine(bugTitle: String?) -> String { bugTitle.map { "Crash: \($0.lowercased())." } ?? "Crash." }

    public func logCrash(bugId: UUID?, note: String?, context: EventContext? = nil,
                         at now: Date) async throws -> (crash: Crash, quickFix: Fix?, waiting: Bool) {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        if let note, note.utf8.count > Thresholds.maxMarkdownBytes {
            throw PracticeError.reflectionTooLong(bytes: note.utf8.count)
        }
        let bug = bugId ?? user.primaryBugId
        let crash = Crash(userId: user.id, bugId: bug, note: note, crashedAt: now)
        try await repos.crashes.save(crash)
        let title = try await bug.asyncMap { try await repos.bugs.getById($0)?.title } ?? nil
        let version = Version(user.currentVersion) ?? .initial
        try await repos.versions.save(VersionRules.entry(
            for: .crash, current: version, userId: user.id, at: now,
            description: Self.changelogLine(bugTitle: title)))
        try await EventRecorder(repos: repos, calendar: calendar)
            .record(.crashLogged, userId: user.id, bugId: bug, context: context, at: now)
        var quick: Fix?, waiting = false
        if let bug {
            // Each crash queues a quick fix for its own bug; a second crash about the same bug while
            // its quick fix is still pending (and not expired) queues nothing new.
            let fixes = try await repos.fixes.getAll()
            let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let today = LocalDay(now, calendar: calendar)
            let pendingQuick = try await repos.completions.getPending(fixIds: fixes.filter { $0.type == .quickFix && $0.bugId == bug }.map(\.id))
                .filter { !PendingFixRule.isExpired($0, today: today, dayOf: { LocalDay($0, calendar: calendar) }) }
                .sorted { $0.assignedAt < $1.assignedAt }
            if let already = pendingQuick.first {
                quick = byId[already.fixId]
                waiting = quick != nil
            } else if let q = CrashRules.quickFix(for: bug, fixes: fixes, completions: try await repos.completions.getAll(),
                                                  userId: user.id, day: LocalDay(now, calendar: calendar)) {
                try await repos.completions.save(FixCompletion(fixId: q.id, userId: user.id, assignedAt: now, day: today.ordinal))
                try await EventRecorder(repos: repos, calendar: calendar)
                    .record(.fixAssigned, userId: user.id, bugId: bug, fixId: q.id, at: now)
                quick = q
            }
        }
        try await StreakService(repos: repos, calendar: calendar).recordEngagement(at: now)
        return (crash, quick, waiting)
    }

    public enum UndoError: Error, Equatable, CustomStringConvertible {
        case nothingToday(last: String?)
        case rebooted(at: String)
        case regressed(bug: String)

        public var description: String {
            switch self {
            case .nothingToday(let last):
                return "no crash logged today to take back" + (last.map { " (the last was on \($0); a day's record closes with the day)" } ?? "") + ". Nothing was changed."
            case .rebooted(let at):
                return "today's last crash is closed by the reboot at \(at), whose changelog entry counts it. It stays. Nothing was changed."
            case .regressed(let bug):
                return "today's last crash sent \(bug) back to active, and the bug's stable dates went with it. The crash stays. Nothing was changed."
            }
        }
    }

    /// What `undoLast` took back: the crash and the quick fix it had queued, if that one was still
    /// waiting (one already marked stays: it was done).
    public struct Undone: Sendable {
        public let crash: Crash
        public let quickFix: Fix?
    }

    /// `egofix crash --undo`: today's last crash, logged by mistake or twice, taken back before a
    /// reboot closes it. Soft-deleted with what it made (its changelog entry, its event, which the
    /// patterns read, and the quick fix it queued while that is unmarked); its note stays in the
    /// deleted record. A crash that sent a stable bug back to active stays: the bug's stable dates
    /// are gone with the regression and are not kept to restore. The streak keeps the day (the
    /// tool was opened).
    public func undoLast(at now: Date) async throws -> Undone {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let mine = try await repos.crashes.getAll().filter { $0.userId == user.id }
            .sorted { $0.crashedAt != $1.crashedAt ? $0.crashedAt < $1.crashedAt : $0.id.uuidString < $1.id.uuidString }
        let today = LocalDay(now, calendar: calendar)
        guard let crash = mine.last, LocalDay(crash.crashedAt, calendar: calendar) == today else {
            throw UndoError.nothingToday(last: mine.last.map { LocalDay($0.crashedAt, calendar: calendar).description })
        }
        if let r = crash.rebootedAt {
            throw UndoError.rebooted(at: InstantText.hourMinute(r, calendar: calendar))
        }
        if let id = crash.bugId, let bug = try await repos.bugs.getById(id), bug.status == .active, bug.regressedAt == crash.crashedAt {
            throw UndoError.regressed(bug: bug.title)
        }
        var gone = crash
        gone.deletedAt = now
        try await repos.crashes.save(gone)
        // Its own records only, one of each: another crash logged at the same instant (a pinned
        // clock) keeps its changelog line, its event and its quick fix.
        let entries = try await repos.versions.getAll().filter { $0.userId == user.id && $0.changeType == .crash && $0.createdAt == crash.crashedAt }
            .sorted { $0.id.uuidString < $1.id.uuidString }
        let title = try await crash.bugId.asyncMap { try await repos.bugs.getById($0)?.title } ?? nil
        if let e = entries.first(where: { $0.description == Self.changelogLine(bugTitle: title) }) ?? entries.first {
            try await repos.versions.delete(e.id)
        }
        let events = try await repos.events.getBetween(crash.crashedAt, crash.crashedAt.addingTimeInterval(0.001))
            .sorted { $0.id.uuidString < $1.id.uuidString }
        if let e = events.first(where: { $0.eventType == .crashLogged && $0.bugId == crash.bugId }) {
            try await repos.events.delete(e.id)
        }
        // The day keeps its engagement where a sync replays the streak from the records: the
        // crash's event was the day's only one when nothing else was done (a sync reset the streak).
        try await EventRecorder(repos: repos, calendar: calendar).record(.appOpened, userId: user.id, at: crash.crashedAt)
        var quick: Fix?
        let fixes = try await repos.fixes.getAll()
        let queued = try await repos.completions.getAll()
            .filter { $0.userId == user.id && $0.assignedAt == crash.crashedAt && $0.outcome == .pending }
            .sorted { $0.id.uuidString < $1.id.uuidString }
        // The quick fix it queued is for its own bug.
        for c in queued {
            guard let fix = fixes.first(where: { $0.id == c.fixId }), fix.type == .quickFix, crash.bugId == nil || fix.bugId == crash.bugId else { continue }
            try await repos.completions.delete(c.id)
            if let e = events.first(where: { $0.eventType == .fixAssigned && $0.fixId == fix.id }) { try await repos.events.delete(e.id) }
            quick = fix
            break
        }
        return Undone(crash: crash, quickFix: quick)
    }

    /// Reboot: every open crash gets rebootedAt; one changelog entry; the version number stays.
    public func reboot(at now: Date) async throws -> [Crash] {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let open = try await repos.crashes.getUnrebooted()
        guard !open.isEmpty else { throw PracticeError.nothingToReboot }
        var done: [Crash] = []
        for var c in open {
            c.reboot(at: now)
            try await repos.crashes.save(c)
            done.append(c)
        }
        let version = Version(user.currentVersion) ?? .initial
        try await repos.versions.save(VersionRules.entry(
            for: .reboot, current: version, userId: user.id, at: now,
            description: "Reboot after " + Plural.of(open.count, "crash", "crashes") + "."))
        try await EventRecorder(repos: repos, calendar: calendar).record(.crashRebooted, userId: user.id, at: now)
        return done
    }
}
