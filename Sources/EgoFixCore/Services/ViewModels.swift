import Foundation

/// The fix on screen, with what a card needs.
public struct TodayCard: Equatable, Sendable {
    public let fix: Fix
    public let bug: Bug?
    public let completion: FixCompletion
    /// The fix was applied before (at least `Thresholds.rerunAfterDays` ago) and came back.
    public var isRerun: Bool = false
    /// Set on the day the bug's unseen daily fixes came down to `Thresholds.unseenFixesLowWarning`:
    /// how many are left. Said once, on that day's card.
    public var unseenLeft: Int?

    public init(fix: Fix, bug: Bug?, completion: FixCompletion, isRerun: Bool = false, unseenLeft: Int? = nil) {
        self.fix = fix
        self.bug = bug
        self.completion = completion
        self.isRerun = isRerun
        self.unseenLeft = unseenLeft
    }

    public var isQuickFix: Bool { fix.type == .quickFix }
}

/// The state behind `egofix today` and the outcome commands: loading → loaded → applied / skipped / failed.
public struct TodayViewModel: Sendable {
    public enum State: Equatable, Sendable {
        case loading
        case loaded(TodayCard)
        case restDay(MicroEducation?)
        case marked(OutcomeResult)
    }

    public private(set) var state: State = .loading
    let repos: Repositories
    let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// Today's daily fix, also when a quick fix comes first (`state` shows the quick fix then).
    public private(set) var daily: TodayCard?

    /// Opening today's fix counts as engagement and is recorded as appOpened. A pending quick fix
    /// comes first; the day's fix is assigned all the same, and shown after it.
    public mutating func load(at now: Date) async throws {
        let user = try await profile()
        try await EventRecorder(repos: repos, calendar: calendar).record(.appOpened, userId: user.id, at: now)
        try await StreakService(repos: repos, calendar: calendar).recordEngagement(at: now)
        try await LifecycleService(repos: repos, calendar: calendar).reconcile(at: now)
        let service = DailyFixService(repos: repos, calendar: calendar)
        let quick = try await service.pendingQuickFix(at: now)
        let day = try await service.assignToday(at: now)
        var dailyCard: TodayCard?
        if let (completion, fix) = day {
            dailyCard = try await card(completion, fix)
        }
        daily = dailyCard
        if let (completion, fix) = quick {
            state = .loaded(try await card(completion, fix))
        } else if let dailyCard {
            state = .loaded(dailyCard)
        } else {
            let bug = try await user.primaryBugId.asyncMap { try await repos.bugs.getById($0) } ?? nil
            let pool = try await repos.education.getAll()
            let tidbit = bug.flatMap {
                MicroEducationPicker.restDay(from: pool, bugSlug: $0.slug, userId: user.id, day: LocalDay(now, calendar: calendar))
            }
            state = .restDay(tidbit)
        }
    }

    /// The card for a completion: whether it is a rerun, and the once-said note when the bug's
    /// unseen daily fixes run low.
    func card(_ completion: FixCompletion, _ fix: Fix) async throws -> TodayCard {
        let bug = try await repos.bugs.getById(fix.bugId)
        guard fix.type != .quickFix else { return TodayCard(fix: fix, bug: bug, completion: completion) }
        let all = try await repos.completions.getAll()
        let rerun = all.contains { $0.deletedAt == nil && $0.fixId == fix.id && $0.outcome == .applied && $0.assignedAt < completion.assignedAt }
        var left: Int?
        if !rerun, fix.type == .daily {
            let fixes = try await repos.fixes.getAll()
            // Unseen: never assigned. This assignment was the first of its fix, so the count came
            // down by one today; the note shows on the day it reaches the warning number.
            let earlier = all.contains { $0.deletedAt == nil && $0.fixId == fix.id && $0.assignedAt < completion.assignedAt }
            if !earlier {
                let assigned = Set(all.filter { $0.deletedAt == nil }.map(\.fixId))
                let unseen = fixes.filter { $0.bugId == fix.bugId && $0.type == .daily && $0.isOffered && !assigned.contains($0.id) }.count
                if unseen == Thresholds.unseenFixesLowWarning { left = unseen }
            }
        }
        return TodayCard(fix: fix, bug: bug, completion: completion, isRerun: rerun, unseenLeft: left)
    }

    public mutating func mark(_ outcome: FixOutcome, reflection: String? = nil, interaction: InteractionOutcome? = nil,
                              at now: Date, target: (FixCompletion, Fix)? = nil) async throws {
        let r = try await OutcomeService(repos: repos, calendar: calendar).mark(outcome, reflection: reflection,
                                                                               interaction: interaction, at: now, target: target)
        state = .marked(r)
    }

    func profile() async throws -> UserProfile {
        guard let u = try await repos.users.get() else { throw PracticeError.noProfile }
        return u
    }
}

/// The state behind `egofix init`: pick the primary bug, see the first fix immediately.
public struct OnboardingViewModel: Sendable {
    public enum OnboardingError: Error, Equatable, CustomStringConvertible {
        case alreadyOnboarded(version: String)
        case noBugChosen
        public var description: String {
            switch self {
            case .alreadyOnboarded(let v):
                return "this store already has a profile (v\(v)). `egofix today` shows today's fix; `egofix bug activate SLUG` adds a bug."
            case .noBugChosen:
                return "no bug chosen. Pass --bug SLUG; `egofix bugs` lists them."
            }
        }
    }

    public private(set) var bugs: [Bug] = []
    public private(set) var selected: Bug?
    let repos: Repositories
    let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public mutating func load() async throws {
        if let u = try await repos.users.get() { throw OnboardingError.alreadyOnboarded(version: u.currentVersion) }
        bugs = try await repos.bugs.getAll().sorted { $0.title < $1.title }
    }

    public mutating func select(slug: String) throws {
        guard let b = bugs.first(where: { $0.slug == slug }) else { throw PracticeError.unknownBug(slug) }
        selected = b
    }

    /// Creates the profile with the chosen primary bug, activates it and assigns the first fix.
    public func complete(at now: Date, userId: UUID = UUID()) async throws -> TodayCard? {
        guard let bug = selected else { throw OnboardingError.noBugChosen }
        var user = UserProfile.new(id: userId, now: now)
        user.primaryBugId = bug.id
        try await repos.users.save(user)
        try await repos.bugs.save(BugLifecycle.activate(bug, at: now))
        var today = TodayViewModel(repos: repos, calendar: calendar)
        try await today.load(at: now)
        if case .loaded(let card) = today.state { return card }
        return nil
    }
}

/// What `egofix status` shows.
public struct StatusSnapshot: Equatable, Sendable, Codable {
    public struct BugLine: Equatable, Sendable, Codable {
        public let slug: String
        public let title: String
        public let color: String
        public let status: BugStatus
        public let isPrimary: Bool
        public let activatedAt: Date?
    }

    public let version: String
    public let appliedCount: Int
    public let fixesToNextVersion: Int
    public let streak: Int
    public let longestStreak: Int
    public let streakLine: String
    public let freezeAvailable: Bool
    public let activeBugs: [BugLine]
    public let pendingFix: String?
    public let pendingFixPrompt: String?
    public let openCrashes: Int
    public let diagnosticDue: Bool

    public static func make(repos: Repositories, calendar: Calendar, at now: Date) async throws -> StatusSnapshot {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        let streakSvc = StreakService(repos: repos, calendar: calendar)
        let streak = try await streakSvc.currentStreak(at: now)
        let applied = try await repos.completions.count(outcome: .applied)
        let active = DailyFixRules.turnOrder(try await repos.bugs.getActive(), primaryBugId: user.primaryBugId)
            + (try await repos.bugs.getActive()).filter { $0.status != .active }.sorted { $0.slug < $1.slug }
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(uniqueKeysWithValues: fixes.map { ($0.id, $0) })
        // The fix `egofix applied` would mark (PendingFixRule).
        let today = LocalDay(now, calendar: calendar)
        let candidates = try await PendingFixService.candidates(repos, fixes: fixes, today: today, calendar: calendar)
        let pending = PendingFixRule.pending(in: candidates, fixesById: byId, today: today,
                                             dayOf: { LocalDay($0, calendar: calendar) })?.completion
        return StatusSnapshot(
            version: user.currentVersion, appliedCount: applied,
            fixesToNextVersion: VersionRules.fixesToNextVersion(appliedCount: applied),
            streak: streak, longestStreak: user.longestStreak, streakLine: StreakRules.line(days: streak),
            freezeAvailable: try await streakSvc.freezeAvailable(at: now),
            activeBugs: active.map { BugLine(slug: $0.slug, title: $0.title, color: $0.color, status: $0.status,
                                             isPrimary: $0.id == user.primaryBugId, activatedAt: $0.activatedAt) },
            pendingFix: pending.flatMap { byId[$0.fixId]?.label }, pendingFixPrompt: pending.flatMap { byId[$0.fixId]?.prompt },
            openCrashes: try await repos.crashes.getUnrebooted().count,
            diagnosticDue: try await DiagnosticService(repos: repos, calendar: calendar).isDue(at: now))
    }
}
