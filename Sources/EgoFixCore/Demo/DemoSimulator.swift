import Foundation

/// The day-by-day simulation behind DemoHistory and Calibration.
struct DemoSimulator {
    enum Mode: Equatable {
        /// The demo: a realistic background and one planted instance of each pattern.
        case demo
        /// Calibration: stationary, independent bugs; nothing planted.
        case null
    }

    /// What part each bug plays in the demo.
    enum Role: Int, Comparable {
        case primary = 0, avoided, approval, busy, ordinary, extra
        static func < (a: Role, b: Role) -> Bool { a.rawValue < b.rawValue }
    }

    struct Life {
        var lastRatings: [WeeklyDiagnostic] = []
        var firstNoisy: WeeklyDiagnostic?
        /// What the lifecycle reads: `lastRatings`, after `firstNoisy` when it is not among them
        /// (kept as they change, so it is not rebuilt at every reconcile).
        var ratings: [WeeklyDiagnostic] = []
        var recentCrashes: [Crash] = []
        var crashesSinceTransition: [Crash] = []
        /// The latest crash, kept after `recentCrashes` lets it go: it dates the day a bug can
        /// become stable (`BugLifecycle.effective`).
        var lastCrash: Crash?
    }

    let cal: Calendar
    let mode: Mode
    let endingAt: Date
    let startDay: LocalDay
    let endDay: LocalDay
    var rng: SplitMix64
    var idRng: SplitMix64
    /// The user's id, drawn from the seeded id generator.
    var user: UUID
    let catalogue: SeedCatalogue
    /// Each fix id's catalogue index (the last fix with the id, as a dictionary of the fixes keeps it).
    let fixIndexById: [UUID: Int]
    /// Each catalogue fix's bug: the first index in `bugs` with its bug id, or -1.
    let fixBug: [Int]
    /// Each bug's quick fixes (all CrashRules reads of the catalogue for it).
    let quickFixes: [[Fix]]
    var bugs: [Bug]
    /// The primary bug's id (the bugs' ids and roles do not change).
    var primaryBugId: UUID?
    var roles: [Role]
    var roleIndex: [Role: Int] = [:]

    var completions: [FixCompletion] = []
    /// Each completion's fix (catalogue index, as `fixIndexById` answers, or -1), beside `completions`.
    var completionFix: [Int] = []
    var crashes: [Crash] = []
    var versions: [VersionEntry] = []
    var events: [AnalyticsEvent] = []
    var diagnostics: [WeeklyDiagnostic] = []

    var appliedCount = 0
    /// The catalogue without the fixes already applied, by bug, type and severity: the daily rule
    /// never offers those again, so leaving them out is the same as passing every applied
    /// completion, and far cheaper.
    var offers: Offers
    var appliedFixIds = Set<UUID>()
    var appliedPerBug: [Int]
    /// Completions from the last 21 days, with what the daily rule's cooldowns read of them.
    var recent: [Recent] = []
    /// The day a lifecycle crash cutoff was last worked out for (local day ordinal), and the cutoff.
    var cutoffMemo: (day: Int, cutoff: Date)?
    /// The day being simulated, for its times and the local days of instants around it.
    var clock: LocalDay.Clock
    var pendingQuick: Int?
    var quickLastUsed: [UUID: Date] = [:]
    /// The day each fix was last applied, for the rerun rule.
    var reruns = DailyFixRules.Reruns()
    var todayDaily: Int?
    var streak = StreakState()
    var latent: [Double]
    var mean: [Double]
    var life: [Life]
    var askedLast: [UUID: Date] = [:]
    var askedCount: [UUID: Int] = [:]
    var doneWeeks = Set<Int>()
    var openCrashes: [Int] = []
    var rebooted = false
    var gapLeft = 0
    var budget: [Int]
    var contextWeights: [[Double]]
    var skipRate: Double
    var onShare: ((Fix) -> Void)?
    var detect = true

    init(catalogue: SeedCatalogue, endingAt: Date, years: Int, seed: UInt64, calendar: Calendar, mode: Mode) {
        cal = calendar
        self.mode = mode
        self.endingAt = endingAt
        self.catalogue = catalogue
        endDay = LocalDay(endingAt, calendar: calendar)
        let e = endDay.components
        let day = e.month == 2 && e.day == 29 ? 28 : e.day
        startDay = LocalDay(year: e.year - years, month: e.month, day: day)
        clock = LocalDay.Clock(startDay, calendar: calendar)
        // Room for the history up front (about two events and one fix a day), so the lists are
        // not copied into larger ones as they grow; memory reserved and not used is never touched.
        let days = min(max(0, endDay.days(since: startDay)) + 1, 1_000_000)
        events.reserveCapacity(days * 3)
        completions.reserveCapacity(days * 2)
        completionFix.reserveCapacity(days * 2)
        crashes.reserveCapacity(days / 2)
        rng = SplitMix64(seed: seed ^ 0x5eed_0000_de30)
        idRng = SplitMix64(seed: StableHash.fnv1a(["demo-ids", String(seed)]))
        var f: [UUID: Int] = [:]
        for (k, x) in catalogue.fixes.enumerated() { f[x.id] = k }
        fixIndexById = f
        let liveBugs = catalogue.bugs.filter { $0.deletedAt == nil }
        fixBug = catalogue.fixes.map { x in liveBugs.firstIndex { $0.id == x.bugId } ?? -1 }
        quickFixes = liveBugs.map { b in catalogue.fixes.filter { $0.isOffered && $0.bugId == b.id && $0.type == .quickFix } }
        // Quick fixes are never a day's fix (CrashRules hands them out from the full catalogue).
        offers = Offers(fixes: catalogue.fixes, bugs: liveBugs)
        bugs = liveBugs.map { b in
            var c = b
            c.isActive = false
            c.status = .identified
            c.activatedAt = nil
            c.stableSince = nil
            c.lastRetestAt = nil
            c.resolvedAt = nil
            c.updatedAt = c.createdAt
            return c
        }
        // Roles: the shipped slugs when present, else catalogue order.
        let wanted = DemoCatalogue.bugSeeds.map(\.slug)
        var order: [Int] = []
        for slug in wanted { if let i = bugs.firstIndex(where: { $0.slug == slug }) { order.append(i) } }
        for i in bugs.indices where !order.contains(i) { order.append(i) }
        var r = [Role](repeating: .extra, count: bugs.count)
        for (k, i) in order.enumerated() { r[i] = k < 5 ? (Role(rawValue: k) ?? .extra) : .extra }
        roles = r
        for (i, role) in r.enumerated() where role != .extra { roleIndex[role] = i }
        appliedPerBug = [Int](repeating: 0, count: bugs.count)
        latent = [Double](repeating: 1, count: bugs.count)
        life = [Life](repeating: Life(), count: bugs.count)
        user = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        mean = [Double](repeating: 0.9, count: bugs.count)
        budget = [Int](repeating: Int.max, count: bugs.count)
        contextWeights = []
        skipRate = 0.18
        // Everything random from here on comes from the seeded generators.
        user = nextUUID()
        primaryBugId = roleIndex[.primary].map { bugs[$0].id } ?? bugs.first?.id
        // Where each bug tends to be loudest: work, home, social, family, online.
        let demoWeights: [Role: [Double]] = [
            .primary: [0.15, 0.35, 0.15, 0.25, 0.10],
            .avoided: [0.05, 0.15, 0.45, 0.25, 0.10],
            .approval: [0.05, 0.10, 0.45, 0.10, 0.30],
            .busy: [0.10, 0.55, 0.05, 0.20, 0.10],
            .ordinary: [0.05, 0.20, 0.30, 0.10, 0.35],
        ]
        var weights: [[Double]] = []
        let known = 5
        for i in bugs.indices {
            if mode == .demo, let w = demoWeights[r[i]] {
                weights.append(w)
            } else {
                var w = (0..<known).map { _ in 0.2 + rng.unit() }
                w[i % known] += 1.2
                let s = w.reduce(0, +)
                weights.append(w.map { $0 / s })
            }
            mean[i] = mode == .demo ? 0.8 + 0.3 * rng.unit() : 0.5 + 0.8 * rng.unit()
            latent[i] = mean[i]
        }
        contextWeights = weights
        if mode == .null { skipRate = 0.1 + 0.25 * rng.unit() }
        // Keep 20 fixes a bug for the last 26 weeks, so a long history still ends in a practice.
        if mode == .demo {
            for i in bugs.indices {
                let available = catalogue.fixes.filter { $0.bugId == bugs[i].id && $0.type != .quickFix && $0.isOffered }.count
                budget[i] = max(0, available - 20)
            }
        }
    }

    static let standIn = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))

    /// A version-4 UUID from the id generator: two draws, low byte first (no buffer allocated).
    mutating func nextUUID() -> UUID {
        let a = idRng.next(), b = idRng.next()
        func byte(_ x: UInt64, _ i: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: x >> (8 * i)) }
        return UUID(uuid: (byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5),
                           (byte(a, 6) & 0x0f) | 0x40, byte(a, 7),
                           (byte(b, 0) & 0x3f) | 0x80, byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5),
                           byte(b, 6), byte(b, 7)))
    }

    mutating func gaussian() -> Double {
        let u1 = max(rng.unit(), 1e-12), u2 = rng.unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(rng.next() % UInt64(range.count))
    }

    // MARK: Plan

    /// Days before the end.
    func t(_ day: LocalDay) -> Int { endDay.days(since: day) }

    static let window = 182
    /// The shared weekly factor of the avoided and approval bugs, oldest week first; the last 12 never quiet.
    static let shared: [Int] = [2, 1, 0, 1, 2, 2, 0, 1, 2, 0, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1, 2, 2, 1, 2, 1]

    func sharedLevel(_ day: LocalDay) -> Int? {
        let tt = t(day)
        guard tt < Self.window else { return nil }
        let k = (Self.window - 1 - tt) / 7
        return Self.shared[max(0, min(Self.shared.count - 1, k))]
    }

    func role(_ i: Int) -> Role { roles[i] }

    /// The day each bug is activated, or nil.
    func activationDay(_ i: Int) -> LocalDay? {
        switch mode {
        case .null:
            let offsets = [0, 12, 30, 50, 75]
            return i < offsets.count ? startDay.adding(days: offsets[i]) : nil
        case .demo:
            let total = endDay.days(since: startDay)
            switch role(i) {
            case .primary: return startDay
            case .avoided: return startDay.adding(days: min(20, total / 2))
            case .busy: return startDay.adding(days: min(45, total / 2))
            case .approval: return endDay.adding(days: -210)
            case .ordinary: return endDay.adding(days: -91)
            case .extra: return nil
            }
        }
    }

    /// Planned crashes for the busy bug: its return, at night.
    /// Spread over weekdays (no weekday gets more than two), five of six at night.
    static let busyCrashes: [(t: Int, hour: Int, minute: Int)] = [(45, 1, 30), (39, 2, 10), (29, 0, 40), (24, 3, 5), (16, 1, 50), (8, 15, 20)]

    func forcedEngagement(_ day: LocalDay) -> Bool {
        guard mode == .demo else { return day == startDay }
        let tt = t(day)
        if day == startDay { return true }
        if roleIndex[.busy] != nil, Self.busyCrashes.contains(where: { $0.t == tt }) { return true }
        for i in bugs.indices where activationDay(i) == day { return true }
        return false
    }

    // MARK: Run

    mutating func run() -> Practice {
        var day = startDay
        while day <= endDay {
            simulate(day)
            day = day.adding(days: 1)
        }
        return finish()
    }

    mutating func simulate(_ day: LocalDay) {
        let tt = t(day)
        if day.isoWeekday == 1 || day == startDay { updateLatent(day) }
        // Engagement and gaps.
        var engaged: Bool
        if forcedEngagement(day) {
            engaged = true
            gapLeft = 0
        } else if mode == .demo && tt >= 230 && tt <= 241 {
            engaged = false
        } else if gapLeft > 0 && mode == .demo && tt < Self.window + 14 {
            // No long absence runs into the last 26 weeks.
            gapLeft = 0
            engaged = chance(0.9)
        } else if gapLeft > 0 {
            gapLeft -= 1
            engaged = false
        } else {
            let inWindow = mode == .demo && tt < Self.window + 14
            if !inWindow && chance(mode == .null ? 1.0 / 150 : 1.0 / 120) {
                gapLeft = mode == .null ? int(2...10) : int(3...20)
                engaged = false
            } else if !inWindow && mode == .demo && chance(1.0 / 2000) {
                gapLeft = int(60...300)
                engaged = false
            } else {
                engaged = chance(inWindow ? 0.9 : 0.86)
            }
        }
        todayDaily = nil
        // Two days' margin: a fix assigned one day may be marked the next; the rule sees the exact age.
        recent.removeAll { day.ordinal - $0.day >= Thresholds.skippedCooldownDays + 2 }
        guard engaged else { return }

        // The day's actions, by minute.
        enum Action { case open, crash(Int), outcome, diagnostic, share }
        var actions: [(Int, Int, Action)] = []
        actions.reserveCapacity(4 + bugs.count)
        let openMinute = int(7 * 60...9 * 60 + 30)
        actions.append((openMinute, 0, .open))
        actions.append((int(18 * 60 + 30...22 * 60), 2, .outcome))
        for i in bugs.indices where bugs[i].isActive {
            if let minute = crashMinute(i, day) { actions.append((minute, 1, .crash(i))) }
        }
        if day.isoWeekday == 7 && chance(0.8) {
            actions.append((int(19 * 60...21 * 60 + 30), 3, .diagnostic))
        } else if day.isoWeekday == 1 && !doneWeeks.contains(day.adding(days: -7).ordinal) && chance(0.5) {
            actions.append((openMinute + 12, 3, .diagnostic))
        }
        if chance(0.012) { actions.append((int(12 * 60...17 * 60), 4, .share)) }
        actions.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var rebootPlanned = false
        clock = LocalDay.Clock(day, calendar: cal)
        for (minute, _, action) in actions {
            let at = clock.at(hour: minute / 60, minute: minute % 60)
            guard at <= endingAt else { continue }
            switch action {
            case .open: open(day, at)
            case .crash(let i):
                logCrash(i, day, at)
                if !rebootPlanned && (!rebooted || (openCrashes.count >= 3 && chance(0.6)) || chance(0.12)) {
                    rebootPlanned = true
                }
            case .outcome: markOutcomes(day, at)
            case .diagnostic: diagnostic(day, at)
            case .share: share(at)
            }
        }
        if rebootPlanned {
            let at = clock.at(hour: 23, minute: int(5...50))
            if at <= endingAt { reboot(at) }
        }
    }

    mutating func updateLatent(_ day: LocalDay) {
        for i in bugs.indices {
            let noise = gaussian()
            latent[i] = mean[i] + 0.35 * (latent[i] - mean[i]) + 0.5 * noise
            latent[i] = max(-0.6, min(2.6, latent[i]))
        }
        guard mode == .demo else { return }
        let tt = t(day)
        if let b = roleIndex[.busy], tt <= 200 {
            latent[b] = tt > 45 ? -0.4 : 1.7 + 0.3 * rng.unit()
        }
        if let o = roleIndex[.ordinary], let act = activationDay(o), day >= act {
            let week = day.days(since: act) / 7
            latent[o] = week < 4 ? 2.2 : week < 8 ? 1.0 : -0.5
        }
    }

    /// The intensity a bug is rated at on `day`.
    mutating func rating(_ i: Int, _ day: LocalDay) -> BugIntensity {
        if mode == .demo, role(i) == .avoided || role(i) == .approval {
            // In the last 26 weeks both follow the same weekly factor: one trigger, two bugs.
            if let f = sharedLevel(day) { return [BugIntensity.quiet, .present, .loud][max(0, min(2, f))] }
            if role(i) == .approval { return .loud }
        }
        // Planned weeks are rated close to plan; the rest wobble.
        let planned = mode == .demo && (role(i) == .ordinary || (role(i) == .busy && t(day) <= 200))
        let l = latent[i] + (planned ? 0.08 : 0.25) * gaussian()
        return l < 0.6 ? .quiet : l < 1.4 ? .present : .loud
    }

    mutating func context(for i: Int, _ intensity: BugIntensity) -> EventContext? {
        guard intensity != .quiet else { return nil }
        if mode == .demo && role(i) == .approval && intensity == .loud && chance(0.95) { return .work }
        if chance(0.05) { return .unknown }
        let contexts: [EventContext] = [.work, .home, .social, .family, .online]
        var u = rng.unit()
        for (k, w) in contextWeights[i].enumerated() {
            u -= w
            if u < 0 { return contexts[k] }
        }
        return contexts[contexts.count - 1]
    }

    /// Minute of the day a crash about bug i is logged on `day`, if one is.
    mutating func crashMinute(_ i: Int, _ day: LocalDay) -> Int? {
        let tt = t(day)
        if mode == .demo {
            switch role(i) {
            case .busy where tt <= 200:
                guard let c = Self.busyCrashes.first(where: { $0.t == tt }) else { return nil }
                return c.hour * 60 + c.minute
            case .primary where tt < Self.window:
                let p = day.isoWeekday == 1 ? 0.5 : 0.022
                return chance(p) ? usualMinute() : nil
            case .avoided where tt < Self.window:
                return chance(0.008) ? usualMinute() : nil
            case .approval:
                return chance(0.012) ? usualMinute() : nil
            default: break
            }
        }
        let p = 0.003 + 0.026 * max(0, latent[i])
        return chance(p) ? usualMinute() : nil
    }

    /// When this user is at the terminal, and so when a crash gets logged: mostly mornings (the day's
    /// fix) and evenings (marking it), rarely afternoons, almost never at night — the same shape as
    /// the rest of their use, so a crash hour on its own says nothing.
    mutating func usualMinute() -> Int {
        let u = rng.unit()
        if u < 0.55 { return int(7 * 60...10 * 60 + 59) }
        if u < 0.93 { return int(18 * 60...22 * 60 + 59) }
        if u < 0.98 { return int(12 * 60...17 * 60 + 59) }
        return int(0...5 * 60 + 59)
    }

    // MARK: Finish

    mutating func finish() -> Practice {
        let version = VersionRules.version(forAppliedCount: appliedCount)
        let today = endDay
        var profile = UserProfile(id: user, currentVersion: version.description, primaryBugId: primaryBugId,
                                  currentStreak: StreakRules.current(streak, today: today, now: endingAt), longestStreak: streak.longest,
                                  lastEngagementDate: nil, streakFreezeAvailable: StreakRules.freezeAvailable(streak, today: today, now: endingAt),
                                  freezeUsedWeekStart: streak.freezeUsedWeek?.ordinal,
                                  createdAt: startDay.at(hour: 7, in: cal), updatedAt: endingAt)
        profile.lastEngagementDate = events.last { $0.eventType != .fixAssigned }?.timestamp
        profile.lastEngagementDay = streak.lastEngagedDay?.ordinal
        let fixes = catalogue.fixes
        // The records in the order every reader puts them in (time, then id), as a store's would
        // come back sorted: readers then take the lists as they are instead of each sorting a copy.
        let completions = RecordOrder.sorted(completions, keep: { _ in true }, at: { $0.completedAt ?? $0.assignedAt }, id: { $0.id })
        let crashes = RecordOrder.sorted(crashes, keep: { _ in true }, at: { $0.crashedAt }, id: { $0.id })
        let versions = RecordOrder.sorted(versions, keep: { _ in true }, at: { $0.createdAt }, id: { $0.id })
        let events = RecordOrder.sorted(events, keep: { _ in true }, at: { $0.timestamp }, id: { $0.id })
        let diagnostics = RecordOrder.sorted(diagnostics, keep: { _ in true }, at: { $0.weekStarting }, id: { $0.id })
        var data = Practice(profile: profile, bugs: bugs, fixes: fixes, completions: completions, crashes: crashes,
                            versions: versions, events: events, diagnostics: diagnostics, education: catalogue.education)
        if mode == .demo && detect {
            let run = PatternEngine.run(events: events, diagnostics: diagnostics,
                                        context: DetectionContext(practice: data, now: endingAt, calendar: cal))
            data.patterns = run.patterns
        }
        return data
    }
}
