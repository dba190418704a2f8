import Foundation
import XCTest
@testable import EgoFixCore
@testable import EgoFixStore

/// Lives, not demos (issue 29): personas lived day by day for two years or more through the real
/// services and a real SQLite store, each command one transaction as the CLI runs it, with the
/// invariants checked every day. A failure names the persona, the day and the invariant.
final class LifetimeHarnessTests: XCTestCase {
    func test_Lifetime_oneBugForTwoYears() async throws {
        try await Life.live(Persona(name: "one bug for two years", seed: 1, bugs: ["need-to-be-right"], days: 740,
                                    openRate: 0.9, markRate: 0.85))
    }

    func test_Lifetime_crashesOftenAndNeverMarksQuickFixes() async throws {
        try await Life.live(Persona(name: "crashes often, never marks quick fixes", seed: 2,
                                    bugs: ["need-to-impress", "need-to-be-liked"], days: 740, openRate: 0.8, markRate: 0.7,
                                    crashRate: 0.3, secondCrashRate: 0.4, marksQuickFixes: false, rebootRate: 0.5))
    }

    func test_Lifetime_missesClustersOfDays() async throws {
        try await Life.live(Persona(name: "misses clusters of days", seed: 3, bugs: ["need-to-be-busy"], days: 760,
                                    openRate: 0.85, markRate: 0.8, crashRate: 0.05, gapRate: 0.06, maxGap: 12,
                                    diagnosticRate: 0.5))
    }

    func test_Lifetime_allFiveBugs() async throws {
        try await Life.live(Persona(name: "all five bugs", seed: 4,
                                    bugs: ["need-to-be-right", "need-to-be-liked", "need-to-impress", "need-to-be-busy", "fear-of-ordinary"],
                                    activateEvery: 20, days: 740, openRate: 0.9, markRate: 0.8, crashRate: 0.08,
                                    diagnosticRate: 0.9, quietBias: 0.75))
    }

    func test_Lifetime_movesTimeZoneAndLivesThroughDST() async throws {
        try await Life.live(Persona(name: "moves time zone, lives through DST", seed: 5, bugs: ["fear-of-ordinary", "need-to-be-right"],
                                    activateEvery: 60, days: 740, openRate: 0.85, markRate: 0.8, crashRate: 0.06,
                                    zones: [(0, "Europe/Berlin"), (150, "America/New_York"), (330, "Asia/Tokyo"),
                                            (500, "Australia/Sydney"), (620, "Europe/Berlin")],
                                    lateNight: 0.2, diagnosticRate: 0.6))
    }

    /// A person who often types a rating wrong and takes the diagnostic again the next morning.
    func test_Lifetime_takesTheDiagnosticAgain() async throws {
        try await Life.live(Persona(name: "takes the diagnostic again", seed: 7, bugs: ["need-to-be-right", "need-to-be-liked", "need-to-be-busy"],
                                    activateEvery: 25, days: 540, openRate: 0.85, markRate: 0.8, crashRate: 0.04,
                                    diagnosticRate: 0.9, quietBias: 0.8, redoRate: 0.5))
    }

    /// Across the date line and back over eleven months (Los Angeles, Auckland, New York,
    /// Kolkata), late nights, two crashes some days, diagnostics taken again: the lives of a
    /// sweep of 24 seeds whose first found the checks' own reading of a flight wrong (a day
    /// given in Los Angeles counted in Auckland's, a later day's engagement at an earlier instant).
    func test_Lifetime_fliesAcrossTheDateLineAndRatesAgain() async throws {
        try await Life.live(Persona(name: "flies across the date line, rates again", seed: 112,
                                    bugs: ["need-to-be-right", "need-to-be-liked", "need-to-be-busy", "fear-of-ordinary"],
                                    activateEvery: 27, days: 330, openRate: 0.8, markRate: 0.75, crashRate: 0.09,
                                    secondCrashRate: 0.3, gapRate: 0.04, maxGap: 6,
                                    zones: [(0, "America/Los_Angeles"), (40, "Pacific/Auckland"), (90, "America/New_York"), (150, "Asia/Kolkata")],
                                    lateNight: 0.15, diagnosticRate: 0.85, quietBias: 0.85, redoRate: 0.4))
    }

    func test_Lifetime_twoProcessesActingAtTheSameMoments() async throws {
        try await Life.live(Persona(name: "two processes at the same moments", seed: 6, bugs: ["need-to-be-right", "need-to-impress"],
                                    activateEvery: 30, days: 730, openRate: 0.85, markRate: 0.8, crashRate: 0.1,
                                    diagnosticRate: 0.7, twoProcesses: true))
    }
}

/// Who lives the life, and how.
struct Persona: Sendable {
    var name: String
    var seed: UInt64
    /// The bugs, in activation order: the first is primary; the others come `activateEvery` days apart.
    var bugs: [String]
    var activateEvery: Int = 0
    var days: Int
    /// Chance of opening `today` on a day not in a gap.
    var openRate: Double
    /// Chance of marking the day's fix once opened.
    var markRate: Double
    var crashRate: Double = 0
    var secondCrashRate: Double = 0
    var marksQuickFixes = true
    var rebootRate: Double = 0.7
    /// Chance that a gap of missed days starts on a day, and its longest length.
    var gapRate: Double = 0.02
    var maxGap: Int = 3
    /// Time zones from a day number on.
    var zones: [(Int, String)] = [(0, "Europe/Berlin")]
    /// Chance of acting close to midnight (23:40 or 00:20) instead of the usual hours.
    var lateNight: Double = 0.05
    var diagnosticRate: Double = 0.4
    /// How often a diagnostic rating is quiet.
    var quietBias: Double = 0.5
    var twoProcesses = false
    /// Chance that a diagnostic is taken again (`diagnostic --redo`) on the Monday after, with new ratings.
    var redoRate: Double = 0
}

/// One life: a store, a clock, the persona's days, and what the commands acknowledged.
final class Life: @unchecked Sendable {
    let persona: Persona
    let clock: TestClock
    let store: SQLiteStore
    /// The second process's connection, for the two-terminal persona.
    let other: SQLiteStore?
    let dir: FastDir
    var rng: SplitMix64
    var failures = 0

    /// What the commands acknowledged: (completion id, outcome, reflection).
    var acknowledged: [(UUID, FixOutcome, String?)] = []
    /// Applied fixes: fix id and the local day (in the zone of that moment) it was applied.
    var appliedDays: [UUID: [Int]] = [:]
    /// Engagements: the instant and the local day (in the zone of that moment).
    var engagedDays: [(day: Int, at: Date)] = []
    /// The ratings each diagnostic or redo acknowledged, by the instant the week's diagnostic was taken.
    var ratings: [Date: [BugDiagnosticResponse]] = [:]

    init(_ persona: Persona) throws {
        self.persona = persona
        dir = try FastDir()
        let start = LocalDay(year: 2026, month: 1, day: 5).at(hour: 8, in: Life.calendar(persona.zones[0].1))
        let clock = TestClock(start)
        self.clock = clock
        store = try SQLiteStore(path: dir.file("life.sqlite"), clock: { clock.now })
        other = persona.twoProcesses ? try SQLiteStore(path: dir.file("life.sqlite"), clock: { clock.now }) : nil
        rng = SplitMix64(seed: persona.seed)
    }

    static func calendar(_ zone: String) -> Calendar {
        UserCalendar.make(timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current)
    }

    func zone(onDay n: Int) -> String { persona.zones.last { $0.0 <= n }?.1 ?? "Europe/Berlin" }

    func chance(_ p: Double) -> Bool { rng.unit() < p }

    static func live(_ persona: Persona) async throws {
        let life = try Life(persona)
        try await life.run()
    }

    /// Records a broken invariant, naming the persona, the day and the invariant.
    func fail(_ day: LocalDay, _ n: Int, _ invariant: String, _ detail: String, file: StaticString = #filePath, line: UInt = #line) {
        failures += 1
        XCTFail("persona '\(persona.name)', day \(day) (day \(n) of the life): invariant '\(invariant)' broken: \(detail)", file: file, line: line)
    }

    // MARK: the commands, each one transaction as the CLI runs it

    func repos(_ s: SQLiteStore) -> Repositories { s.repositories }

    func open(_ cal: Calendar, at now: Date, on s: SQLiteStore) async throws -> TodayViewModel {
        clock.now = now
        return try await s.transaction {
            var vm = TodayViewModel(repos: s.repositories, calendar: cal)
            try await vm.load(at: now)
            return vm
        }
    }

    /// `applied` / `skipped` / `failed`: the acknowledgement is what the command prints.
    func mark(_ outcome: FixOutcome, reflection: String?, _ cal: Calendar, at now: Date, on s: SQLiteStore) async throws -> OutcomeResult? {
        clock.now = now
        do {
            let r = try await s.transaction { () -> OutcomeResult in
                let svc = OutcomeService(repos: s.repositories, calendar: cal)
                let target = try await svc.target(at: now)
                return try await svc.mark(outcome, reflection: reflection, at: now, target: target)
            }
            acknowledged.append((r.completion.id, outcome, reflection))
            engagedDays.append((LocalDay(now, calendar: cal).ordinal, now))
            if outcome == .applied { appliedDays[r.fix.id, default: []].append(LocalDay(now, calendar: cal).ordinal) }
            return r
        } catch PracticeError.noPendingFix, PracticeError.yesterdaysFixClosed {
            return nil
        } catch PracticeError.alreadyMarked {
            return nil
        }
    }

    func run() async throws {
        let p = persona
        let first = LocalDay(year: 2026, month: 1, day: 5)
        var cal = Life.calendar(zone(onDay: 0))
        // init: the catalogue, the profile, the primary bug, the first fix.
        let catalogue = try Fixture.builtInCatalogue()
        try store.loadCatalogue(catalogue)
        clock.now = first.at(hour: 8, in: cal)
        _ = try await store.transaction { () -> TodayCard? in
            var vm = OnboardingViewModel(repos: store.repositories, calendar: cal)
            try await vm.load()
            try vm.select(slug: p.bugs[0])
            return try await vm.complete(at: clock.now)
        }
        engagedDays.append((first.ordinal, clock.now))
        var gapLeft = 0
        for n in 0..<p.days {
            guard failures < 5 else { return }
            let day = first.adding(days: n)
            cal = Life.calendar(zone(onDay: n))
            // Bugs join the practice one after another.
            if p.activateEvery > 0, n > 0, n % p.activateEvery == 0, n / p.activateEvery < p.bugs.count {
                let slug = p.bugs[n / p.activateEvery]
                clock.now = day.at(hour: 7, in: cal)
                try await store.transaction {
                    guard let b = try await store.repositories.bugs.getBySlug(slug) else { return }
                    try await store.repositories.bugs.save(BugLifecycle.activate(b, at: clock.now))
                }
            }
            if gapLeft > 0 { gapLeft -= 1 } else if chance(p.gapRate) { gapLeft = 1 + Int(rng.next() % UInt64(p.maxGap)) }
            let opened = gapLeft == 0 ? try await liveDay(day, n, cal) : false
            _ = opened
            try await check(day, n, cal)
        }
        try await checkEnd(first.adding(days: p.days), cal)
    }

    func at(_ day: LocalDay, _ hour: Int, _ minute: Int, _ cal: Calendar) -> Date {
        day.at(hour: hour, minute: minute, in: cal)
    }

    /// Lives one day; returns whether `today` was opened.
    func liveDay(_ day: LocalDay, _ n: Int, _ cal: Calendar) async throws -> Bool {
        let p = persona
        let late = chance(p.lateNight)
        // Morning: open today (after midnight, for the late-night kind).
        let opens = chance(p.openRate)
        if opens {
            let when = late ? at(day, 0, 20, cal) : at(day, 7 + Int(rng.next() % 3), Int(rng.next() % 60), cal)
            let vm: TodayViewModel
            // The second process acts at the same moment every third day (each clash costs the loser
            // SQLite's busy wait, so every day would only make the run longer, not the check stronger).
            let other = n % 3 == 0 ? self.other : nil
            if let other {
                async let a = open(cal, at: when, on: store)
                async let b = open(cal, at: when, on: other)
                let (va, vb) = try await (a, b)
                if va.daily?.completion.id != vb.daily?.completion.id {
                    fail(day, n, "one daily assignment per local day", "two processes opening at once were shown different fixes")
                }
                vm = va
            } else {
                vm = try await open(cal, at: when, on: store)
            }
            engagedDays.append((LocalDay(when, calendar: cal).ordinal, when))
            // A rest day only when nothing is eligible (as things stood when it was opened).
            if vm.daily == nil {
                let fixes = try await store.repositories.fixes.getAll()
                let completions = try await store.repositories.completions.getAll()
                if let fix = try await eligibleFix(day, cal, fixes: fixes, completions: completions) {
                    fail(day, n, "a rest day only when nothing is eligible", "\(fix.label) was eligible")
                }
            }
        }
        // A crash, sometimes two about different bugs.
        if chance(p.crashRate) {
            try await crash(day, cal, hour: 13)
            if chance(p.secondCrashRate) { try await crash(day, cal, hour: 16) }
        }
        // Evening: quick fixes first when this persona marks them, then the day's fix.
        if p.marksQuickFixes, chance(0.8) {
            clock.now = at(day, 18, 0, cal)
            let quick = try await store.transaction { () -> (FixCompletion, Fix)? in
                try await DailyFixService(repos: store.repositories, calendar: cal).pendingQuickFix(at: clock.now)
            }
            if quick != nil { _ = try await mark(.applied, reflection: nil, cal, at: clock.now, on: store) }
        }
        if chance(p.markRate) {
            let r = rng.unit()
            let outcome: FixOutcome = r < 0.7 ? .applied : r < 0.88 ? .skipped : .failed
            let reflection = chance(0.3) ? "Day \(n): \(outcome.rawValue), noted at length." : nil
            let when = late ? at(day, 23, 40, cal) : at(day, 20, Int(rng.next() % 60), cal)
            let pending = try await store.transaction { () -> (FixCompletion, Fix)? in
                PendingFixRule.pending(in: try await PendingFixService.candidates(store.repositories, fixes: try await store.repositories.fixes.getAll(),
                                                                               today: LocalDay(when, calendar: cal), calendar: cal),
                                       fixesById: Dictionary(try await store.repositories.fixes.getAll().map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
                                       today: LocalDay(when, calendar: cal), dayOf: { LocalDay($0, calendar: cal) },
                                       timerEnds: try await store.repositories.events.getAll())
            }
            // Only the day's fix here: the quick fixes are this persona's business above.
            if let pending, pending.1.type != .quickFix {
                if let other = n % 3 == 0 ? self.other : nil {
                    async let a = markRace(outcome, reflection, cal, when, store)
                    async let b = markRace(outcome == .applied ? .skipped : .applied, reflection.map { $0 + " (other terminal)" }, cal, when, other)
                    let (ra, rb) = try await (a, b)
                    if (ra == nil) == (rb == nil) {
                        fail(day, n, "one outcome per fix", "two processes marking at once: \(ra == nil ? "neither" : "both") acknowledged")
                    }
                } else {
                    _ = try await mark(outcome, reflection: reflection, cal, at: when, on: store)
                }
            }
        }
        // A reboot after crashes, some evenings.
        if chance(p.rebootRate) {
            clock.now = at(day, 21, 30, cal)
            _ = try? await store.transaction { () -> [Crash] in
                try await CrashService(repos: store.repositories, calendar: cal).reboot(at: clock.now)
            }
        }
        // Sunday evening: the diagnostic, sometimes.
        if day.isoWeekday == 7, chance(p.diagnosticRate) {
            clock.now = at(day, 19, 10, cal)
            let done = try await store.transaction { () -> Bool in
                let svc = DiagnosticService(repos: store.repositories, calendar: cal)
                guard try await svc.isDue(at: clock.now) else { return false }
                let bugs = try await svc.bugsToAsk()
                guard !bugs.isEmpty else { return false }
                let responses = bugs.map { b in
                    BugDiagnosticResponse(bugId: b.id, intensity: chance(p.quietBias) ? .quiet : (chance(0.7) ? .present : .loud),
                                          primaryContext: nil)
                }
                let d = try await svc.complete(responses, at: clock.now)
                ratings[d.completedAt] = d.responses
                return true
            }
            if done { engagedDays.append((LocalDay(clock.now, calendar: cal).ordinal, clock.now)) }
        }
        // Monday morning: last week's diagnostic taken again, sometimes, with new ratings.
        if day.isoWeekday == 1, p.redoRate > 0, chance(p.redoRate) {
            clock.now = at(day, 8, 40, cal)
            do {
                let r = try await store.transaction { () -> DiagnosticRedo in
                    let svc = DiagnosticService(repos: store.repositories, calendar: cal)
                    let first = try await svc.redoTarget(at: clock.now)
                    let responses = first.responses.map { r in
                        BugDiagnosticResponse(bugId: r.bugId, intensity: chance(p.quietBias) ? .quiet : (chance(0.7) ? .present : .loud),
                                              primaryContext: nil)
                    }
                    return try await svc.redo(responses, at: clock.now)
                }
                ratings[r.after.completedAt] = r.after.responses
            } catch is DiagnosticRedo.RedoError {
                // No diagnostic last week, the same ratings again, or a loud rating that stands.
            } catch PracticeError.diagnosticBugNotActive {
                // A bug rated then and deactivated since.
            }
        }
        return opens
    }

    func markRace(_ outcome: FixOutcome, _ reflection: String?, _ cal: Calendar, _ when: Date, _ s: SQLiteStore) async throws -> OutcomeResult? {
        try await mark(outcome, reflection: reflection, cal, at: when, on: s)
    }

    func crash(_ day: LocalDay, _ cal: Calendar, hour: Int) async throws {
        clock.now = at(day, hour, Int(rng.next() % 60), cal)
        try await store.transaction {
            let active = try await store.repositories.bugs.getActive().sorted { $0.slug < $1.slug }
            guard !active.isEmpty else { return }
            let bug = active[Int(rng.next() % UInt64(active.count))]
            _ = try await CrashService(repos: store.repositories, calendar: cal).logCrash(bugId: bug.id, note: chance(0.5) ? "note" : nil,
                                                                                       at: clock.now)
            try await LifecycleService(repos: store.repositories, calendar: cal).reconcile(bugId: bug.id, at: clock.now)
        }
        engagedDays.append((LocalDay(clock.now, calendar: cal).ordinal, clock.now))
    }

    // MARK: the invariants

    func check(_ day: LocalDay, _ n: Int, _ cal: Calendar) async throws {
        let r = store.repositories
        let fixes = try await r.fixes.getAll()
        let byId = Dictionary(fixes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let completions = try await r.completions.getAll()
        guard let user = try await r.users.get() else { return fail(day, n, "a profile", "none") }

        // One daily assignment per local day: the day each was given for, where it was given (after
        // a flight east, yesterday's fix given in Los Angeles falls in Auckland's today by its instant).
        let end = day.adding(days: 1).start(in: cal)
        let todays = completions.filter {
            $0.deletedAt == nil && ($0.day ?? LocalDay($0.assignedAt, calendar: cal).ordinal) == day.ordinal && byId[$0.fixId]?.type != .quickFix
        }
        if todays.count > 1 { fail(day, n, "one daily assignment per local day", "\(todays.count) assignments") }

        // No fix applied twice within 90 days.
        // (Daily and weekly fixes: quick fixes follow crashes and take turns, the one used longest ago first.)
        for (id, days) in appliedDays where days.count > 1 && byId[id]?.type != .quickFix {
            let sorted = days.sorted()
            for k in 1..<sorted.count where sorted[k] - sorted[k - 1] < Thresholds.rerunAfterDays {
                fail(day, n, "no fix applied twice within 90 days", "\(byId[id]?.label ?? "?") (\(byId[id]?.type.rawValue ?? "?")) applied \(sorted[k] - sorted[k - 1]) days apart")
            }
        }

        // The streak, recomputed from the engagement days on its own, equals the stored one.
        let naive = NaiveStreak(engagements: engagedDays)
        let shown = try await StreakService(repos: r, calendar: cal).currentStreak(at: end.addingTimeInterval(-1))
        if shown != naive.current(today: day.ordinal, at: end.addingTimeInterval(-1)) {
            fail(day, n, "streak equals the one recomputed from the engagement log",
                 "stored \(shown), recomputed \(naive.current(today: day.ordinal, at: end.addingTimeInterval(-1)))")
        }
        if user.longestStreak != naive.longest {
            fail(day, n, "longest streak equals the recomputed one", "stored \(user.longestStreak), recomputed \(naive.longest)")
        }
        // A freeze is used only when it kept the streak.
        if let used = user.freezeUsedWeekStart, !naive.usedWeeks.contains(used) {
            fail(day, n, "a freeze is used only when it kept the streak", "freeze of the week of \(LocalDay(ordinal: used)) used for nothing")
        }

        // The version is the rule applied to the count of applied fixes.
        let applied = completions.filter { $0.deletedAt == nil && $0.outcome == .applied }.count
        if user.currentVersion != VersionRules.version(forAppliedCount: applied).description {
            fail(day, n, "version follows the applied count", "v\(user.currentVersion) with \(applied) applied")
        }

        // One diagnostic a week, holding the ratings last acknowledged for it.
        let diagnostics = try await r.diagnostics.getAll().filter { $0.deletedAt == nil }
        let weeks = Dictionary(grouping: diagnostics, by: { $0.week(in: cal) })
        for (week, list) in weeks where list.count > 1 {
            fail(day, n, "one diagnostic a week", "\(list.count) for the week of \(week)")
        }
        for d in diagnostics where ratings[d.completedAt] != d.responses {
            fail(day, n, "the ratings acknowledged are the ones stored", "the diagnostic of \(d.week(in: cal))")
        }
        // A stable (or resolved) bug stands on three quiet ratings in a row at its stable date, and
        // no loud rating since it became stable is left unanswered.
        for b in try await r.bugs.getAll() where b.status == .stable || b.status == .resolved {
            guard let since = b.stableSince else { fail(day, n, "a stable bug has its stable date", b.slug); continue }
            let fresh = max(b.regressedAt ?? .distantPast, b.activatedAt ?? .distantPast)
            let mine = diagnostics.sorted { $0.weekStarting < $1.weekStarting }.compactMap { d -> (Date, BugIntensity)? in
                d.responses.first { $0.bugId == b.id }.map { (d.completedAt, $0.intensity) }
            }
            let before = mine.filter { $0.0 > fresh && $0.0 <= since }.suffix(Thresholds.stableQuietWeeks)
            if before.count < Thresholds.stableQuietWeeks || before.contains(where: { $0.1 != .quiet }) {
                fail(day, n, "a stable bug stands on three quiet ratings", "\(b.slug), stable since \(since): \(before.map(\.1.rawValue))")
            }
            if mine.contains(where: { $0.0 > since && $0.1 == .loud }) {
                fail(day, n, "a loud rating sends a stable bug back", "\(b.slug), stable since \(since)")
            }
        }

        // Everything acknowledged is stored.
        let stored = Dictionary(completions.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, outcome, reflection) in acknowledged {
            guard let c = stored[id] else { fail(day, n, "everything acknowledged is stored", "completion \(id) missing"); continue }
            if c.outcome != outcome || c.reflection != reflection?.trimmingCharacters(in: .whitespacesAndNewlines) {
                fail(day, n, "everything acknowledged is stored", "\(id): stored \(c.outcome.rawValue), acknowledged \(outcome.rawValue)")
            }
        }
    }

    /// An offerable daily fix of an active bug, on its own reading of the rules: unseen and not
    /// cooling down, or applied at least 90 days ago and not cooling down.
    func eligibleFix(_ day: LocalDay, _ cal: Calendar, fixes: [Fix], completions: [FixCompletion]) async throws -> Fix? {
        let bugs = try await store.repositories.bugs.getAll().filter { $0.deletedAt == nil && $0.isActive && $0.status == .active }
        let active = Set(bugs.map(\.id))
        for f in fixes.sorted(by: { $0.number < $1.number })
        where f.type == .daily && f.deletedAt == nil && f.retiredAt == nil && active.contains(f.bugId) {
            let mine = completions.filter { $0.deletedAt == nil && $0.fixId == f.id }
            var cooling = false
            var lastApplied: Int?
            for c in mine {
                let d = LocalDay(c.completedAt ?? c.assignedAt, calendar: cal).ordinal
                switch c.outcome {
                case .applied: lastApplied = max(lastApplied ?? d, d)
                case .skipped, .pending: if day.ordinal - d < Thresholds.skippedCooldownDays { cooling = true }
                case .failed: if day.ordinal - d < Thresholds.failedCooldownDays { cooling = true }
                }
            }
            if cooling { continue }
            if let last = lastApplied, day.ordinal - last < Thresholds.rerunAfterDays { continue }
            return f
        }
        return nil
    }

    func checkEnd(_ day: LocalDay, _ cal: Calendar) async throws {
        // Export, import into a new store, export: the same bytes.
        let first = try store.exportJSON()
        let copy = try SQLiteStore(path: dir.file("copy.sqlite"), clock: { [clock] in clock.now })
        _ = try copy.importJSON(first, replace: false, backupPath: nil)
        let second = try copy.exportJSON()
        if first != second { fail(day, persona.days, "export, import, export gives the same bytes", "\(first.count) vs \(second.count) bytes") }
    }
}

/// The streak rule written a second time, plainly, to check the first: consecutive engagement
/// days; a missed day is covered when its freeze week (Sunday to Saturday) has not used its one
/// freeze, and freezes are spent only for a gap they fully cover. A day the calendar skipped
/// between two places is not missed: no more days are missed than whole days of time passed
/// between the last engagement before the gap and the first after it, with an hour's grace for a
/// 23-hour day (flying from New York to Tokyo, a day of New York's calendar is lived in Tokyo).
struct NaiveStreak {
    var current = 0
    var longest = 0
    var last: Int?
    var lastAt: Date?
    var usedWeeks: Set<Int> = []

    init(engagements: [(day: Int, at: Date)]) {
        // In the order they were made (a flight west can make a later day's engagement the
        // earlier instant in a simulated life, whose days are laid out by their local dates).
        for (d, t) in engagements {
            defer { lastAt = max(lastAt ?? t, t) }
            guard let l = last else { current = 1; longest = 1; last = d; continue }
            guard d > l else { continue }
            let missed = NaiveStreak.missed(after: l, at: lastAt, before: d, at: t)
            let weeks = missed.map(NaiveStreak.sunday)
            if missed.isEmpty {
                current += 1
            } else if Set(weeks).count == weeks.count && usedWeeks.isDisjoint(with: weeks) {
                usedWeeks.formUnion(weeks)
                current += 1
            } else {
                current = 1
            }
            longest = max(longest, current)
            last = d
        }
    }

    /// The days after `last` that were missed before `day`.
    static func missed(after last: Int, at lastAt: Date?, before day: Int, at: Date) -> [Int] {
        let calendarDays = Array((last + 1)..<max(last + 1, day))
        guard let lastAt else { return calendarDays }
        let wholeDays = Int(((at.timeIntervalSince(lastAt) + 3_600) / 86_400).rounded(.down))
        return Array(calendarDays.prefix(max(0, wholeDays)))
    }

    /// The Sunday on or before a day (ordinals count from 1970-01-01, a Thursday).
    static func sunday(_ d: Int) -> Int { d - ((d + 4) % 7 + 7) % 7 }

    func current(today: Int, at now: Date) -> Int {
        guard let l = last else { return 0 }
        if today <= l + 1 { return current }
        let weeks = NaiveStreak.missed(after: l, at: lastAt, before: today, at: now).map(NaiveStreak.sunday)
        return Set(weeks).count == weeks.count && usedWeeks.isDisjoint(with: weeks) ? current : 0
    }
}

/// A folder in memory when the machine has one (fsync there costs nothing), else a temporary one.
final class FastDir {
    let path: String
    init() throws {
        var isDir: ObjCBool = false
        let base = FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDir) && isDir.boolValue ? "/dev/shm/" : NSTemporaryDirectory()
        path = base + "egofix-life-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
