import Foundation

/// What marking an outcome produced, for the command to print.
public struct OutcomeResult: Sendable, Equatable {
    public let completion: FixCompletion
    public let fix: Fix
    public let versionEntry: VersionEntry?
    public let tidbit: MicroEducation?
    public let transition: BugLifecycle.Transition?
}

public struct OutcomeService: Sendable {
    public let repos: Repositories
    public let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    /// The fix an outcome applies to: the pending fix (`PendingFixRule`: a pending quick fix
    /// first, else today's fix while it is unmarked). With `givingTodaysFixFrom`, today's fix not
    /// given yet is given here and is the one to mark, once that time of day has come (the
    /// reminder named it then) and when yesterday's fix is not left unmarked: at 00:30 an outcome
    /// meant for last night's fix marked a new one nobody had seen (and a retest given so failed
    /// a stable bug back to active).
    public func target(at now: Date, givingTodaysFixFrom: ReminderTime? = nil) async throws -> (FixCompletion, Fix) {
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(uniqueKeysWithValues: fixes.map { ($0.id, $0) })
        let day = LocalDay(now, calendar: calendar)
        let candidates = try await PendingFixService.candidates(repos, fixes: fixes, today: day, calendar: calendar)
        let dayOf = { (t: Date) in LocalDay(t, calendar: calendar) }
        let timerEnds = try await Self.timerEnds(repos, today: day, calendar: calendar)
        if let pending = PendingFixRule.pending(in: candidates, fixesById: byId, today: day, dayOf: dayOf, timerEnds: timerEnds) { return pending }
        guard let today = PendingFixRule.todaysDailyFix(in: candidates, fixesById: byId, today: day, dayOf: dayOf) else {
            // Today's fix, not given yet (`remind` named it; `today` was not run): given now, as
            // `today` gives it, and the one to mark. A rest day has none.
            // The bugs settled first, as `today` settles them, so the fix given is the one
            // `remind` and `status` named.
            if givesTodaysFix(at: now, from: givingTodaysFixFrom, candidates: candidates, fixesById: byId) {
                try await LifecycleService(repos: repos, calendar: calendar).reconcile(at: now)
                if let given = try await DailyFixService(repos: repos, calendar: calendar).assignToday(at: now) { return given }
            }
            let yesterday = PendingFixRule.todaysDailyFix(in: candidates, fixesById: byId, today: day.adding(days: -1), dayOf: dayOf)
            if let yesterday, yesterday.completion.outcome == .pending { throw PracticeError.yesterdaysFixClosed(fix: yesterday.fix.label) }
            throw PracticeError.noPendingFix
        }
        throw PracticeError.alreadyMarked(fix: today.fix.label, outcome: today.completion.outcome)
    }

    /// Every fix the outcome commands would mark now, in their order (`PendingFixRule.queue`).
    public func queue(at now: Date) async throws -> [(completion: FixCompletion, fix: Fix)] {
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(uniqueKeysWithValues: fixes.map { ($0.id, $0) })
        let day = LocalDay(now, calendar: calendar)
        return PendingFixRule.queue(in: try await PendingFixService.candidates(repos, fixes: fixes, today: day, calendar: calendar),
                                    fixesById: byId, today: day, dayOf: { LocalDay($0, calendar: calendar) },
                                    timerEnds: try await Self.timerEnds(repos, today: day, calendar: calendar))
    }

    /// What an outcome at `now` would find, read only, as `target` finds it.
    public enum Preview: Sendable {
        /// The pending fix, or today's not given yet, which the outcome would give (`givenNow`).
        case marks(Fix, givenNow: Bool)
        /// Nothing to mark: today's fix is marked already, or not given yet and not given by an
        /// outcome at this hour (before `givingTodaysFixFrom`, or with yesterday's left unmarked).
        case nothing
        /// Nothing pending, nothing given today, and nothing `today` would give.
        case restDay

        public var fix: Fix? { if case .marks(let f, _) = self { return f } else { return nil } }
        public var givenNow: Bool { if case .marks(_, let g) = self { return g } else { return false } }
    }

    /// What an outcome at `now` would mark, with today's fix chosen among `bugs` (by default the
    /// bugs as the rules have them at `now`): what `egofix status` names, so that it names the
    /// fix `egofix applied` marks, or says the day is a rest day.
    public func wouldMark(at now: Date, givingTodaysFixFrom: ReminderTime?, bugs: [Bug]? = nil) async throws -> Preview {
        let fixes = try await repos.fixes.getAll()
        let byId = Dictionary(uniqueKeysWithValues: fixes.map { ($0.id, $0) })
        let day = LocalDay(now, calendar: calendar)
        let candidates = try await PendingFixService.candidates(repos, fixes: fixes, today: day, calendar: calendar)
        let dayOf = { (t: Date) in LocalDay(t, calendar: calendar) }
        let timerEnds = try await Self.timerEnds(repos, today: day, calendar: calendar)
        if let pending = PendingFixRule.pending(in: candidates, fixesById: byId, today: day, dayOf: dayOf, timerEnds: timerEnds) {
            return .marks(pending.fix, givenNow: false)
        }
        guard PendingFixRule.todaysDailyFix(in: candidates, fixesById: byId, today: day, dayOf: dayOf) == nil else { return .nothing }
        guard let fix = try await DailyFixService(repos: repos, calendar: calendar).wouldAssign(at: now, bugs: bugs) else { return .restDay }
        return givesTodaysFix(at: now, from: givingTodaysFixFrom, candidates: candidates, fixesById: byId) ? .marks(fix, givenNow: true) : .nothing
    }

    /// The timers that ran out since the day before `today` began (a day wider, for a zone
    /// crossed since), for `PendingFixRule.timedPastItsDay`.
    static func timerEnds(_ repos: Repositories, today: LocalDay, calendar: Calendar) async throws -> [AnalyticsEvent] {
        try await repos.events.getSince(today.adding(days: -2).start(in: calendar), orOfTypes: []).filter { $0.eventType == .timerCompleted }
    }

    /// Whether an outcome at `now` gives today's fix (none given yet): from `from` on, and not
    /// while yesterday's fix is left unmarked.
    private func givesTodaysFix(at now: Date, from: ReminderTime?, candidates: [FixCompletion], fixesById byId: [UUID: Fix]) -> Bool {
        guard let from, from.hasCome(at: now, calendar: calendar) else { return false }
        let yesterday = PendingFixRule.todaysDailyFix(in: candidates, fixesById: byId, today: LocalDay(now, calendar: calendar).adding(days: -1),
                                                      dayOf: { LocalDay($0, calendar: calendar) })
        return yesterday?.completion.outcome != .pending
    }

    /// Marks the current fix (`target`, when the caller has just asked for it). Everything is
    /// checked before anything is written.
    public func mark(_ outcome: FixOutcome, reflection: String?, interaction: InteractionOutcome? = nil,
                     at now: Date, target given: (FixCompletion, Fix)? = nil) async throws -> OutcomeResult {
        guard let user = try await repos.users.get() else { throw PracticeError.noProfile }
        if let reflection, reflection.utf8.count > Thresholds.maxMarkdownBytes {
            throw PracticeError.reflectionTooLong(bytes: reflection.utf8.count)
        }
        guard outcome != .pending else { throw FixCompletion.TransitionError.notAnOutcome }
        var (completion, fix): (FixCompletion, Fix)
        if let given { (completion, fix) = given } else { (completion, fix) = try await target(at: now) }
        let data: Data? = try interaction?.encoded()
        let trimmed = reflection?.trimmingCharacters(in: .whitespacesAndNewlines)
        try completion.mark(outcome, at: now, reflection: trimmed?.isEmpty == false ? reflection : nil, outcomeData: data)
        try await repos.completions.save(completion)

        let eventType = EventType.marking(outcome) ?? .fixFailed
        try await EventRecorder(repos: repos, calendar: calendar)
            .record(eventType, userId: user.id, bugId: fix.bugId, fixId: fix.id, at: now)
        let entry = outcome == .applied ? try await VersionService(repos: repos).recordApplied(at: now) : nil
        try await StreakService(repos: repos, calendar: calendar).recordEngagement(at: now)
        let transition = try await LifecycleService(repos: repos, calendar: calendar).reconcile(bugId: fix.bugId, at: now)

        var tidbit: MicroEducation?
        if let bug = try await repos.bugs.getById(fix.bugId) {
            let trigger: EducationTrigger = outcome == .applied ? .afterApplied : outcome == .skipped ? .afterSkipped : .afterFailed
            tidbit = try await TidbitService(repos: repos).show(about: bug, trigger: trigger, key: completion.id.uuidString)
        }
        return OutcomeResult(completion: completion, fix: fix, versionEntry: entry, tidbit: tidbit, transition: transition)
    }
}
