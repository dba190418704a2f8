import Foundation

/// Errors a user can cause through the services. Each says what happened and what to do.
public enum PracticeError: Error, Equatable, CustomStringConvertible {
    case noProfile
    case unknownBug(String)
    case noPendingFix
    case alreadyMarked(fix: String, outcome: FixOutcome)
    case reflectionTooLong(bytes: Int)
    case nothingToReboot
    case diagnosticAlreadyDone(week: String)
    case diagnosticEmpty
    case diagnosticBugRatedTwice(slug: String)
    case diagnosticBugNotActive(slug: String, active: [String])
    case diagnosticTooManyBugs(count: Int, thisWeek: [String])

    public var description: String {
        switch self {
        case .noProfile:
            return "no profile in this store. Run `egofix init` first."
        case .unknownBug(let slug):
            return "unknown bug '\(slug)'. Run `egofix bugs` to list the slugs."
        case .noPendingFix:
            return "no pending fix to mark. Run `egofix today` to get one."
        case .alreadyMarked(let fix, let outcome):
            return "\(fix) is already marked \(outcome.rawValue). An outcome is recorded once."
        case .reflectionTooLong(let bytes):
            return "text is \(bytes) bytes; the limit is \(Thresholds.maxMarkdownBytes). Shorten it and run the command again."
        case .nothingToReboot:
            return "no crash waiting for a reboot. Nothing changed."
        case .diagnosticAlreadyDone(let week):
            return "the diagnostic for \(week) is already done. Next one opens Sunday evening."
        case .diagnosticEmpty:
            return "a diagnostic needs at least one bug rating. To skip, record nothing."
        case .diagnosticBugRatedTwice(let slug):
            return "\(slug) is rated twice. A diagnostic rates each bug once; nothing recorded."
        case .diagnosticBugNotActive(let slug, let active):
            let which = active.isEmpty ? "no bug is active" : "active: " + active.joined(separator: ", ")
            return "\(slug) is not active. The diagnostic asks about active bugs (\(which)); `egofix bug activate SLUG` activates one."
        case .diagnosticTooManyBugs(let count, let thisWeek):
            return "\(count) bugs rated; a diagnostic rates at most \(Thresholds.diagnosticMaxBugs) (this week's turn: "
                + thisWeek.joined(separator: ", ") + "). Nothing recorded."
        }
    }
}

/// Records events stamped in the user's time zone.
public struct EventRecorder: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public func record(_ type: EventType, userId: UUID, bugId: UUID? = nil, fixId: UUID? = nil,
                       context: EventContext? = nil, at now: Date) async throws {
        try await repos.events.save(AnalyticsEvent.make(userId: userId, type: type, bugId: bugId, fixId: fixId,
                                                        context: context, at: now, calendar: calendar))
    }
}

public struct StreakService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public func state(of user: UserProfile) -> StreakState {
        StreakState(current: user.currentStreak, longest: user.longestStreak,
                    lastEngagedDay: user.lastEngagementDay.map { LocalDay(ordinal: $0) }
                        ?? user.lastEngagementDate.map { LocalDay($0, calendar: calendar) },
                    freezeUsedWeek: user.freezeUsedWeekStart.map { LocalDay(ordinal: $0) })
    }

    /// Any engagement (opening a fix, an outcome, a crash, a diagnostic) counts the day.
    /// Returns the profile as saved. A break is silent: there is nothing to announce.
    @discardableResult
    public func recordEngagement(at now: Date) async throws -> UserProfile {
        guard var user = try await repos.users.get() else { throw PracticeError.noProfile }
        let today = LocalDay(now, calendar: calendar)
        let s = StreakRules.engage(state(of: user), on: today)
        if s == state(of: user) { return user }
        user.currentStreak = s.current
        user.longestStreak = s.longest
        user.lastEngagementDate = now
        user.lastEngagementDay = s.lastEngagedDay?.ordinal
        user.freezeUsedWeekStart = s.freezeUsedWeek?.ordinal
        user.streakFreezeAvailable = StreakRules.freezeAvailable(s, today: today)
        try await repos.users.save(user)
        return user
    }

    /// Brings the profile's stored streak and freeze flag up to `now` (a streak ended by missed
    /// days reads 0; the freeze flag is this week's), so what `export` and `status` read is not
    /// stale. Uses no freeze and counts no engagement. Returns the profile as saved.
    @discardableResult
    public func settle(at now: Date) async throws -> UserProfile {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let settled = settled(user, at: now)
        guard settled != user else { return user }
        try await repos.users.save(settled)
        return settled
    }

    /// The profile with its streak and freeze flag as they stand at `now` (nothing saved).
    public func settled(_ user: UserProfile, at now: Date) -> UserProfile {
        let today = LocalDay(now, calendar: calendar)
        let s = state(of: user)
        var u = user
        u.currentStreak = StreakRules.current(s, today: today)
        u.streakFreezeAvailable = StreakRules.freezeAvailable(s, today: today)
        return u
    }

    /// The streak shown today: 0 once a missed day was not covered by a freeze.
    public func currentStreak(at now: Date) async throws -> Int {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        return StreakRules.current(state(of: user), today: LocalDay(now, calendar: calendar))
    }

    public func freezeAvailable(at now: Date) async throws -> Bool {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        return StreakRules.freezeAvailable(state(of: user), today: LocalDay(now, calendar: calendar))
    }
}

public struct VersionService: Sendable {
    public let repos: Repositories

    public init(repos: Repositories) { self.repos = repos }

    /// Called after a fix was marked applied: bumps the version when the count reaches a multiple of 7.
    @discardableResult
    public func recordApplied(at now: Date) async throws -> VersionEntry? {
        guard var user = try await repos.users.get() else { throw PracticeError.noProfile }
        let applied = try await repos.completions.count(outcome: .applied)
        let entries = VersionRules.entriesAfterApplying(appliedCountBefore: applied - 1, userId: user.id, at: now)
        for e in entries { try await repos.versions.save(e) }
        let v = VersionRules.version(forAppliedCount: applied).description
        if user.currentVersion != v {
            user.currentVersion = v
            try await repos.users.save(user)
        }
        return entries.first
    }
}

public struct DailyFixService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// The fix to show now: a pending quick fix after a crash first, else today's daily fix,
    /// assigned on first request and the same for the rest of the local day. Nil on a rest day.
    public func current(at now: Date) async throws -> (completion: FixCompletion, fix: Fix)? {
        if let quick = try await pendingQuickFix(at: now) { return quick }
        return try await assignToday(at: now)
    }

    /// The earliest quick fix queued by a crash and not yet marked or expired.
    public func pendingQuickFix(at now: Date) async throws -> (completion: FixCompletion, fix: Fix)? {
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let pending = try await repos.completions.getPending(fixIds: fixes.filter { $0.type == .quickFix }.map(\.id))
        return PendingFixRule.pendingQuickFix(in: pending, fixesById: byId, today: LocalDay(now, calendar: calendar),
                                              dayOf: { LocalDay($0, calendar: calendar) })
    }

    /// Today's daily fix: the one already assigned on this local day (whatever its outcome), else
    /// one chosen now by `DailyFixRules` and recorded. A pending quick fix does not hold it back:
    /// the quick fix comes first, and the day's fix still comes. Nil on a rest day.
    public func assignToday(at now: Date) async throws -> (completion: FixCompletion, fix: Fix)? {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        if let existing = try await todaysAssignment(at: now, fixesById: byId) { return existing }
        let day = LocalDay(now, calendar: calendar)
        let completions = try await repos.completions.getAppliedOrSince(DailyFixRules.cooldownStart(day: day, calendar: calendar))
        let assignment = DailyFixRules.choose(.init(
            userId: user.id, day: day, bugs: try await repos.bugs.getAll(),
            primaryBugId: user.primaryBugId, fixes: fixes, completions: completions, calendar: calendar))
        guard case .fix(let fix, let reason) = assignment else { return nil }
        let completion = FixCompletion(fixId: fix.id, userId: user.id, assignedAt: now)
        try await repos.completions.save(completion)
        if reason == .retest, var bug = try await repos.bugs.getById(fix.bugId) {
            bug.lastRetestAt = now
            try await repos.bugs.save(bug)
        }
        try await EventRecorder(repos: repos, calendar: calendar)
            .record(.fixAssigned, userId: user.id, bugId: fix.bugId, fixId: fix.id, at: now)
        return (completion, fix)
    }

    /// The daily (or weekly) fix already assigned on this local day, whatever its outcome.
    public func todaysAssignment(at now: Date, fixesById: [UUID: Fix]? = nil) async throws -> (completion: FixCompletion, fix: Fix)? {
        let day = LocalDay(now, calendar: calendar)
        let start = day.start(in: calendar), end = day.adding(days: 1).start(in: calendar)
        let byId: [UUID: Fix]
        if let fixesById { byId = fixesById } else {
            byId = Dictionary(uniqueKeysWithValues: try await repos.fixes.getAll().map { ($0.id, $0) })
        }
        return PendingFixRule.todaysDailyFix(in: try await repos.completions.getAssigned(from: start, to: end), fixesById: byId,
                                             today: day, dayOf: { LocalDay($0, calendar: calendar) })
    }
}

public struct CrashService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// Logs a crash (bug optional: the primary bug is assumed), records it in the changelog
    /// under the current version, and queues a quick fix for that bug, shown next.
    public func logCrash(bugId: UUID?, note: String?, context: EventContext? = nil,
                         at now: Date) async throws -> (crash: Crash, quickFix: Fix?) {
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
        var quick: Fix?
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
            } else if let q = CrashRules.quickFix(for: bug, fixes: fixes, completions: try await repos.completions.getAll(),
                                                  userId: user.id, day: LocalDay(now, calendar: calendar)) {
                try await repos.completions.save(FixCompletion(fixId: q.id, userId: user.id, assignedAt: now))
                try await EventRecorder(repos: repos, calendar: calendar)
                    .record(.fixAssigned, userId: user.id, bugId: bug, fixId: q.id, at: now)
                quick = q
            }
        }
        try await StreakService(repos: repos, calendar: calendar).recordEngagement(at: now)
        return (crash, quick)
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
            description: open.count == 1 ? "Reboot." : "Reboot after \(open.count) crashes."))
        try await EventRecorder(repos: repos, calendar: calendar).record(.crashRebooted, userId: user.id, at: now)
        return done
    }
}

extension Optional {
    func asyncMap<T>(_ f: (Wrapped) async throws -> T) async rethrows -> T? {
        switch self {
        case .none: return nil
        case .some(let w): return try await f(w)
        }
    }
}
