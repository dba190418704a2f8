import Foundation

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
    /// comes first; the day's fix is assigned all the same, and shown after it. `recordingOpening`
    /// false leaves out the appOpened event: a status bar asking for the fix every minute put an
    /// opening a minute into the detectors' baseline (40 polls moved a crash-timing finding from
    /// insight to observation). The day still counts, as the day's fix given counts it in a sync's
    /// replay of the streak.
    public mutating func load(at now: Date, recordingOpening: Bool = true) async throws {
        let user = try await profile()
        if recordingOpening {
            try await EventRecorder(repos: repos, calendar: calendar).record(.appOpened, userId: user.id, at: now)
        }
        try await StreakService(repos: repos, calendar: calendar).recordEngagement(at: now)
        try await LifecycleService(repos: repos, calendar: calendar).reconcile(at: now)
        let service = DailyFixService(repos: repos, calendar: calendar)
        // Yesterday's fix whose timer ran out after midnight comes after a quick fix, as the
        // outcome commands take them.
        var first = try await service.pendingQuickFix(at: now)
        if first == nil { first = try await service.timedPastItsDay(at: now) }
        let day = try await service.assignToday(at: now)
        var dailyCard: TodayCard?
        if let (completion, fix) = day {
            dailyCard = try await card(completion, fix)
        }
        daily = dailyCard
        if let (completion, fix) = first {
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
        // As the pages and `history` read it (`PendingFixRule.reruns`), on this fix's completions.
        let rerun = PendingFixRule.reruns(in: all.filter { $0.fixId == fix.id }, fixes: [fix.id: fix]).contains(completion.id)
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
