import Foundation

/// A generated practice: everything a store would hold for one user.
public struct DemoData: Sendable, Equatable {
    public var profile: UserProfile
    /// Every catalogue bug, in its final state (some identified, some active, stable, resolved).
    public var bugs: [Bug]
    public var fixes: [Fix]
    public var education: [MicroEducation]
    public var completions: [FixCompletion]
    public var crashes: [Crash]
    public var versions: [VersionEntry]
    public var events: [AnalyticsEvent]
    public var diagnostics: [WeeklyDiagnostic]
    /// What the detectors find at `endingAt`, strongest first.
    public var patterns: [DetectedPattern]
    public var endingAt: Date

    /// The same data as the insights read it.
    public func insightInput(calendar: Calendar) -> InsightInput {
        InsightInput(bugs: bugs, fixes: fixes, completions: completions, crashes: crashes, versions: versions,
                     events: events, diagnostics: diagnostics, calendar: calendar)
    }

    /// The same data as the detectors read it, at `endingAt`.
    public func detectionContext(calendar: Calendar, seed: UInt64 = 0) -> DetectionContext {
        DetectionContext(userId: profile.id, now: endingAt, calendar: calendar, bugs: bugs, fixes: fixes,
                         completions: completions, crashes: crashes, seed: seed)
    }
}

/// A realistic, seeded history for the demo site and for tests.
///
/// The user onboards with a primary bug, adds more over time, has gaps (a planned 12-day one and
/// random ones), reboots after crashes, writes Markdown reflections (some with questions), does
/// most weekly diagnostics, and goes through bug lifecycles. Every record is produced by the real
/// rules — DailyFixRules picks each day's fix, CrashRules the quick fix, VersionRules the versions,
/// StreakRules the streak, DiagnosticSchedule which bugs are asked, BugLifecycle every transition —
/// so the data is what the tool itself would have recorded.
///
/// In the last 26 weeks one instance of each pattern type is planted (with the shipped catalogue's
/// roles: need-to-be-right, need-to-be-liked, need-to-impress, need-to-be-busy, fear-of-ordinary,
/// or the first five bugs of any other catalogue):
///
/// - avoidance: fixes about the second bug are mostly skipped;
/// - temporal (weekday): crashes about the primary bug cluster on Mondays;
/// - temporal (time): crashes about the fourth bug come at night;
/// - context spike: the third bug's loud weeks are loudest at work;
/// - correlated bugs: the second and third bugs' ratings rise and fall together;
/// - plateau: the third bug stays present or loud while its fixes get applied;
/// - improvement: the fifth bug, added late, goes from loud to quiet;
/// - regression: the fourth bug goes stable (and resolved), then comes back.
///
/// Cost is linear in `years` (each day is constant work: the rules get only the records that can
/// change their answer). The shipped catalogue has about 50 fixes a bug, so over a long history
/// the user would run out of fixes, as with the real tool; before the last 26 weeks the demo user
/// stops marking fixes applied once only 20 of a bug's fixes are left (they open them and leave
/// them unmarked), so a long history still ends in a working practice.
///
/// `years` below 1 is treated as 1.
public enum DemoHistory {
    /// `onShare` is told each fix the user shares, as the simulation reaches it (the same fix may
    /// come again), so a caller can start on its share card while the rest of the history is made.
    /// `detect: false` leaves `patterns` empty, for a caller that runs the detectors itself (the
    /// site build does, beside other work).
    public static func generate(catalogue: SeedCatalogue, endingAt: Date, years: Int, seed: UInt64,
                                calendar: Calendar, onShare: ((Fix) -> Void)? = nil, detect: Bool = true) -> DemoData {
        var sim = DemoSimulator(catalogue: catalogue, endingAt: endingAt, years: max(1, years), seed: seed,
                                calendar: calendar, mode: .demo)
        sim.onShare = onShare
        sim.detect = detect
        return sim.run()
    }
}

/// A catalogue for tests and calibration when the shipped seeds are not at hand: five bugs with
/// the shipped slugs and titles, 46 daily, 4 weekly and 4 quick fixes each.
public enum DemoCatalogue {
    public static let bugSeeds: [(slug: String, title: String, color: String)] = [
        ("need-to-be-right", "Need to be right", "#d19a66"),
        ("need-to-be-liked", "Need to be liked", "#c678dd"),
        ("need-to-impress", "Need to impress", "#61afef"),
        ("need-to-be-busy", "Need to be busy", "#56b6c2"),
        ("fear-of-ordinary", "Fear of being ordinary", "#e5a5c5"),
    ]

    public static func synthetic(bugCount: Int = 5) -> SeedCatalogue {
        let epoch = Date(timeIntervalSince1970: 0)
        var bugs: [Bug] = []
        var fixes: [Fix] = []
        var number = 1
        for i in 0..<max(1, min(bugCount, 20)) {
            let seedBug = bugSeeds[i % bugSeeds.count]
            let suffix = i < bugSeeds.count ? "" : "-\(i / bugSeeds.count + 1)"
            let bug = Bug(id: StableUUID.make(["catalogue", "bug", seedBug.slug + suffix]), slug: seedBug.slug + suffix,
                          title: seedBug.title + (suffix.isEmpty ? "" : " \(i / bugSeeds.count + 1)"),
                          description: "A bug.", color: seedBug.color, createdAt: epoch)
            bugs.append(bug)
            let kinds: [(FixType, FixSeverity, Int)] = [(.daily, .low, 16), (.daily, .medium, 15), (.daily, .high, 15),
                                                        (.weekly, .medium, 2), (.weekly, .high, 2),
                                                        (.quickFix, .low, 2), (.quickFix, .medium, 2)]
            for (type, sev, count) in kinds {
                for k in 0..<count {
                    fixes.append(Fix(id: StableUUID.make(["catalogue", "fix", bug.slug, type.rawValue, sev.rawValue, String(k)]),
                                     number: number, bugId: bug.id, type: type, severity: sev,
                                     prompt: "Fix \(number) about \(bug.title.lowercased()).", createdAt: epoch))
                    number += 1
                }
            }
        }
        return SeedCatalogue(bugs: bugs, fixes: fixes, education: [])
    }
}

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

    mutating func run() -> DemoData {
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

    // MARK: Actions

    mutating func engage(_ day: LocalDay) {
        streak = StreakRules.engage(streak, on: day)
    }

    mutating func event(_ type: EventType, bug: UUID? = nil, fix: UUID? = nil, context: EventContext? = nil, at: Date) {
        events.append(.make(id: nextUUID(), userId: user, type: type, bugId: bug, fixId: fix, context: context, at: at,
                            local: clock.local(at), calendar: cal))
    }

    mutating func open(_ day: LocalDay, _ at: Date) {
        for i in bugs.indices where bugs[i].status == .identified && (activationDay(i).map { $0 <= day } ?? false) {
            bugs[i] = BugLifecycle.activate(bugs[i], at: at.addingTimeInterval(-60))
        }
        event(.appOpened, at: at)
        engage(day)
        for i in bugs.indices { reconcile(i, at) }
        if pendingQuick != nil { markQuick(day, at.addingTimeInterval(120)) }
        assignDaily(day, at.addingTimeInterval(300))
    }

    mutating func assignDaily(_ day: LocalDay, _ at: Date) {
        guard todayDaily == nil else { return }
        // DailyFixRules.choose on the recent completions and the offerable fixes, with the
        // cooldowns read from `recent` and the fixes from the index.
        var excluded: [UUID] = []
        var cooling: [UUID] = []
        excluded.reserveCapacity(recent.count)
        for r in recent where DailyFixRules.excludes(r.outcome, age: day.ordinal - r.doneDay) {
            excluded.append(r.fixId)
            if r.outcome != .applied { cooling.append(r.fixId) }
        }
        reruns.cooling = cooling
        guard case .fix(let fix, let reason) = DailyFixRules.choose(userId: user, day: day, bugs: bugs, primaryBugId: primaryBugId,
                                                                    calendar: cal, excluded: DailyFixRules.Excluded(excluded),
                                                                    fixes: offers, reruns: reruns) else { return }
        let c = FixCompletion(id: nextUUID(), fixId: fix.id, userId: user, assignedAt: at)
        append(c, day)
        todayDaily = completions.count - 1
        if reason == .retest, let i = bugIndex(fix.bugId) {
            bugs[i].lastRetestAt = at
            bugs[i].updatedAt = at
        }
        event(.fixAssigned, bug: fix.bugId, fix: fix.id, at: at)
    }

    /// Records a completion assigned on `day`.
    mutating func append(_ c: FixCompletion, _ day: LocalDay) {
        completions.append(c)
        completionFix.append(fixIndexById[c.fixId] ?? -1)
        recent.append(Recent(index: completions.count - 1, day: day.ordinal, fixId: c.fixId, outcome: c.outcome,
                             doneDay: clock.day(of: c.completedAt ?? c.assignedAt).ordinal))
    }

    /// The first bug with this id (fields read in place: no bug is copied).
    func bugIndex(_ id: UUID) -> Int? { bugs.indices.first { bugs[$0].id == id } }

    mutating func markQuick(_ day: LocalDay, _ at: Date) {
        guard let q = pendingQuick else { return }
        let r = rng.unit()
        let outcome: FixOutcome = r < 0.75 ? .applied : r < 0.85 ? .skipped : r < 0.95 ? .failed : .pending
        pendingQuick = nil
        guard outcome != .pending else { return }
        mark(q, outcome, day, at)
    }

    mutating func markOutcomes(_ day: LocalDay, _ at: Date) {
        if pendingQuick != nil { markQuick(day, at) }
        guard let d = todayDaily, completions[d].outcome == .pending, completionFix[d] >= 0 else { return }
        let i = fixBug[completionFix[d]]
        guard i >= 0 else { return }
        let outcome = chooseOutcome(i, day, isRetest: bugs[i].status == .stable)
        guard outcome != .pending else { return }
        mark(d, outcome, day, at.addingTimeInterval(120))
    }

    mutating func chooseOutcome(_ i: Int, _ day: LocalDay, isRetest: Bool) -> FixOutcome {
        let r = rng.unit()
        let inWindow = t(day) < Self.window
        if isRetest { return r < 0.85 && (inWindow || appliedPerBug[i] < budget[i]) ? .applied : .skipped }
        var outcome: FixOutcome
        if mode == .null {
            let applied = 0.8 - skipRate
            outcome = r < skipRate ? .skipped : r < skipRate + applied ? .applied : r < 0.92 ? .failed : .pending
        } else if role(i) == .avoided && inWindow {
            outcome = r < 0.74 ? .skipped : r < 0.92 ? .applied : r < 0.96 ? .failed : .pending
        } else if role(i) == .approval && inWindow {
            outcome = r < 0.82 ? .applied : r < 0.9 ? .skipped : r < 0.96 ? .failed : .pending
        } else {
            outcome = r < 0.62 ? .applied : r < 0.8 ? .skipped : r < 0.9 ? .failed : .pending
        }
        // Over a long history the catalogue runs out; the avoided bug's last fixes wait for the final weeks.
        if outcome == .applied && !inWindow && appliedPerBug[i] >= budget[i] { outcome = .pending }
        return outcome
    }

    mutating func mark(_ index: Int, _ outcome: FixOutcome, _ day: LocalDay, _ at: Date) {
        let wants: Double = outcome == .applied ? 0.35 : outcome == .failed ? 0.5 : 0.2
        let reflection = chance(wants) ? DemoText.reflection(outcome, &rng) : nil
        // In place (marking throws before it changes anything).
        do { try completions[index].mark(outcome, at: at, reflection: reflection) } catch { return }
        if let r = recent.firstIndex(where: { $0.index == index }) {
            recent[r].outcome = outcome
            recent[r].doneDay = clock.day(of: at).ordinal
        }
        let k = completionFix[index]
        guard k >= 0 else { return }
        let fixId = catalogue.fixes[k].id, bugId = catalogue.fixes[k].bugId, i = fixBug[k]
        let type: EventType = outcome == .applied ? .fixApplied : outcome == .skipped ? .fixSkipped : .fixFailed
        event(type, bug: bugId, fix: fixId, at: at)
        if outcome == .applied {
            versions += VersionRules.entriesAfterApplying(appliedCountBefore: appliedCount, userId: user, at: at, id: nextUUID())
            appliedCount += 1
            if appliedFixIds.insert(fixId).inserted { offers.remove(fixId) }
            reruns.applied(fixId, on: clock.day(of: at))
            if i >= 0 { appliedPerBug[i] += 1 }
        }
        engage(day)
        if i >= 0 { reconcile(i, at) }
    }

    mutating func logCrash(_ i: Int, _ day: LocalDay, _ at: Date) {
        let note = chance(0.45) ? DemoText.crashNote(slug: bugs[i].slug, &rng) : nil
        let crash = Crash(id: nextUUID(), userId: user, bugId: bugs[i].id, note: note, crashedAt: at)
        crashes.append(crash)
        openCrashes.append(crashes.count - 1)
        let version = VersionRules.version(forAppliedCount: appliedCount)
        versions.append(VersionRules.entry(for: .crash, current: version, userId: user, at: at,
                                           description: "Crash: \(bugs[i].title.lowercased()).", id: nextUUID()))
        let ctx = context(for: i, .loud)
        event(.crashLogged, bug: bugs[i].id, context: ctx, at: at)
        if pendingQuick == nil {
            // Stand-ins for the last use of this bug's quick fixes (the only fixes and completions
            // the rule reads for it): it reads only the fix and the time.
            var used: [FixCompletion] = []
            for q in quickFixes[i] {
                if let last = quickLastUsed[q.id] { used.append(FixCompletion(id: DemoSimulator.standIn, fixId: q.id, userId: user, assignedAt: last)) }
            }
            if let q = CrashRules.quickFix(for: bugs[i].id, fixes: quickFixes[i], completions: used, userId: user, day: day) {
                let c = FixCompletion(id: nextUUID(), fixId: q.id, userId: user, assignedAt: at)
                append(c, day)
                pendingQuick = completions.count - 1
                quickLastUsed[q.id] = at
                event(.fixAssigned, bug: bugs[i].id, fix: q.id, at: at)
            }
        }
        engage(day)
        life[i].recentCrashes.append(crash)
        if bugs[i].status == .stable || bugs[i].status == .resolved { life[i].crashesSinceTransition.append(crash) }
    }

    mutating func reboot(_ at: Date) {
        guard !openCrashes.isEmpty else { return }
        let n = openCrashes.count
        for k in openCrashes { crashes[k].reboot(at: at) }
        openCrashes.removeAll()
        rebooted = true
        versions.append(VersionRules.entry(for: .reboot, current: VersionRules.version(forAppliedCount: appliedCount),
                                           userId: user, at: at, description: n == 1 ? "Reboot." : "Reboot after \(n) crashes.",
                                           id: nextUUID()))
        event(.crashRebooted, at: at)
    }

    mutating func share(_ at: Date) {
        guard let d = todayDaily, completionFix[d] >= 0 else { return }
        let fix = catalogue.fixes[completionFix[d]]
        event(.fixShared, bug: fix.bugId, fix: fix.id, at: at)
        onShare?(fix)
    }

    mutating func diagnostic(_ day: LocalDay, _ at: Date) {
        guard let week = DiagnosticSchedule.reviewedWeek(now: at, calendar: cal), !doneWeeks.contains(week.ordinal),
              week >= startDay.isoWeekStart else { return }
        // The asked-before history, compressed so the rule sees the same order: each bug's last
        // asking, and how often it was asked by rank (1 + rank). These once were synthetic
        // diagnostics (one a distinct date, and `rank` older ones a bug), which drew their ids from
        // the id generator: the same number are drawn, so every later id is the same.
        let counts = Array(Set(askedLast.keys.map { askedCount[$0] ?? 0 })).sorted()
        var timesAsked: [UUID: Int] = Dictionary(minimumCapacity: askedLast.count)
        var draws = Set(askedLast.values).count
        for b in askedLast.keys {
            let rank = counts.firstIndex(of: askedCount[b] ?? 0) ?? 0
            timesAsked[b] = 1 + rank
            draws += rank
        }
        for _ in 0..<draws { _ = nextUUID() }
        let ask = DiagnosticSchedule.bugsToAsk(active: bugs.filter { $0.isActive && $0.deletedAt == nil },
                                               primaryBugId: primaryBugId, lastAsked: askedLast, timesAsked: timesAsked)
        guard !ask.isEmpty else { return }
        var responses: [BugDiagnosticResponse] = []
        for b in ask {
            guard let i = bugs.firstIndex(where: { $0.id == b.id }) else { continue }
            let intensity = rating(i, week)
            responses.append(BugDiagnosticResponse(bugId: b.id, intensity: intensity, primaryContext: context(for: i, intensity)))
        }
        let d = WeeklyDiagnostic(id: nextUUID(), userId: user, weekStarting: week.start(in: cal), responses: responses, completedAt: at)
        diagnostics.append(d)
        doneWeeks.insert(week.ordinal)
        for r in responses {
            askedLast[r.bugId] = at
            askedCount[r.bugId, default: 0] += 1
            guard let i = bugs.firstIndex(where: { $0.id == r.bugId }) else { continue }
            let one = WeeklyDiagnostic(id: d.id, userId: user, weekStarting: d.weekStarting, responses: [r], completedAt: at)
            life[i].lastRatings.append(one)
            if life[i].lastRatings.count > Thresholds.stableQuietWeeks { life[i].lastRatings.removeFirst() }
            if r.intensity != .quiet && life[i].firstNoisy == nil { life[i].firstNoisy = one }
            refreshRatings(i)
        }
        event(.weeklyCompleted, at: at)
        engage(day)
        for i in bugs.indices { reconcile(i, at) }
    }

    /// LifecycleService.reconcile for one bug, given only the records that can change the answer.
    mutating func reconcile(_ i: Int, _ at: Date) {
        guard bugs[i].status != .identified, bugs[i].deletedAt == nil else { return }
        // In place: a copy of `life[i]` would copy its arrays on every change.
        if !life[i].recentCrashes.isEmpty {
            // A crash on or before today − 21 (local days) can no longer block stability.
            let today = clock.day(of: at)
            let cutoff: Date
            if let memo = cutoffMemo, memo.day == today.ordinal {
                cutoff = memo.cutoff
            } else {
                cutoff = today.adding(days: 1 - Thresholds.stableCrashFreeDays).start(in: cal)
                cutoffMemo = (today.ordinal, cutoff)
            }
            if life[i].recentCrashes.contains(where: { $0.crashedAt < cutoff }) {
                life[i].recentCrashes.removeAll { $0.crashedAt < cutoff }
            }
        }
        let tr = BugLifecycle.evaluate(bugs[i], crashes: bugs[i].status == .active ? life[i].recentCrashes : life[i].crashesSinceTransition,
                                       diagnostics: life[i].ratings, retests: [], now: at, calendar: cal)
        if let tr {
            bugs[i] = BugLifecycle.apply(tr, to: bugs[i], at: at)
            life[i].crashesSinceTransition = []
            life[i].firstNoisy = nil
            refreshRatings(i)
        }
    }

    /// Rebuilds `life[i].ratings` after its ratings change.
    mutating func refreshRatings(_ i: Int) {
        var ratings = life[i].lastRatings
        if let n = life[i].firstNoisy, !ratings.contains(where: { $0.id == n.id }) { ratings.insert(n, at: 0) }
        life[i].ratings = ratings
    }

    /// A completion as the daily rule's cooldowns read it.
    struct Recent {
        var index: Int
        /// The local day it was assigned on.
        var day: Int
        var fixId: UUID
        var outcome: FixOutcome
        /// The local day of its outcome (of its assignment while pending).
        var doneDay: Int
    }

    /// The fixes the daily rule may offer, by bug: for each bug (index into the simulation's bugs),
    /// catalogue indexes of its live daily fixes by severity (low, medium, high) and of its live
    /// weekly fixes, in catalogue order, less those applied.
    struct Offers: DailyFixRules.FixSource {
        let fixes: [Fix]
        var allFixes: [Fix] { fixes }
        var lists: [[[Int]]]
        /// The bugs' ids, as the lists are kept.
        let bugIds: [UUID]
        /// The catalogue indexes of each live, offerable fix id.
        let byId: [UUID: [Int]]

        init(fixes: [Fix], bugs: [Bug]) {
            self.fixes = fixes
            bugIds = bugs.map(\.id)
            var lists = [[[Int]]](repeating: [[], [], [], []], count: bugs.count)
            var byId: [UUID: [Int]] = [:]
            for k in fixes.indices where fixes[k].isOffered {
                guard let s = Offers.list(fixes[k].type, fixes[k].severity) else { continue }
                byId[fixes[k].id, default: []].append(k)
                for b in bugs.indices where bugs[b].id == fixes[k].bugId { lists[b][s].append(k) }
            }
            self.lists = lists
            self.byId = byId
        }

        /// Which list a fix of this type and severity is kept in; nil for a quick fix.
        static func list(_ type: FixType, _ severity: FixSeverity?) -> Int? {
            switch type {
            case .daily: return severity.map { DailyFixRules.slot($0) }
            case .weekly: return 3
            case .quickFix: return nil
            }
        }

        func best(_ excluded: DailyFixRules.Excluded, bugIndex: Int, bug: UUID, type: FixType, severity: FixSeverity?,
                  hash: DailyFixRules.DayHash) -> Fix? {
            if let s = Offers.list(type, severity) {
                return DailyFixRules.best(fixes, lists[bugIndex][s], excluded, bug: bug, type: type, severity: severity, hash: hash)
            }
            // Any other question: all the bug's offerable fixes, in catalogue order.
            return DailyFixRules.best(fixes, lists[bugIndex].joined().sorted(), excluded, bug: bug, type: type,
                                      severity: severity, hash: hash)
        }

        /// Leaves out every fix with this id.
        mutating func remove(_ id: UUID) {
            for k in byId[id] ?? [] {
                guard let s = Offers.list(fixes[k].type, fixes[k].severity) else { continue }
                for b in bugIds.indices where bugIds[b] == fixes[k].bugId { lists[b][s].removeAll { $0 == k } }
            }
        }
    }

    // MARK: Finish

    mutating func finish() -> DemoData {
        let version = VersionRules.version(forAppliedCount: appliedCount)
        let today = endDay
        var profile = UserProfile(id: user, currentVersion: version.description, primaryBugId: primaryBugId,
                                  currentStreak: StreakRules.current(streak, today: today), longestStreak: streak.longest,
                                  lastEngagementDate: nil, streakFreezeAvailable: StreakRules.freezeAvailable(streak, today: today),
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
        var data = DemoData(profile: profile, bugs: bugs, fixes: fixes, education: catalogue.education,
                            completions: completions, crashes: crashes, versions: versions, events: events,
                            diagnostics: diagnostics, patterns: [], endingAt: endingAt)
        if mode == .demo && detect {
            let run = PatternEngine.run(events: events, diagnostics: diagnostics,
                                        context: data.detectionContext(calendar: cal))
            data.patterns = run.patterns
        }
        return data
    }
}
