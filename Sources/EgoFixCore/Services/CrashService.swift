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
            description: title.map { "Crash: \($0.lowercased())." } ?? "Crash."))
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
            description: "Reboot after " + PatternCopy.count(open.count, "crash", "crashes") + "."))
        try await EventRecorder(repos: repos, calendar: calendar).record(.crashRebooted, userId: user.id, at: now)
        return done
    }
}
