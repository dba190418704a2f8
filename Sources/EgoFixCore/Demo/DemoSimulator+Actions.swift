import Foundation

/// What the simulated user does on a day: open the tool, take and mark fixes, crash, reboot,
/// share, answer the weekly diagnostic; each through the rule the tool itself uses.
extension DemoSimulator {
    // MARK: Actions

    mutating func engage(_ day: LocalDay, _ at: Date) {
        streak = StreakRules.engage(streak, on: day, at: at)
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
        engage(day, at)
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
        event(EventType.marking(outcome) ?? .fixFailed, bug: bugId, fix: fixId, at: at)
        if outcome == .applied {
            versions += VersionRules.entriesAfterApplying(appliedCountBefore: appliedCount, userId: user, at: at, id: nextUUID())
            appliedCount += 1
            if appliedFixIds.insert(fixId).inserted { offers.remove(fixId) }
            reruns.applied(fixId, on: clock.day(of: at))
            if i >= 0 { appliedPerBug[i] += 1 }
        }
        engage(day, at)
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
        engage(day, at)
        life[i].recentCrashes.append(crash)
        life[i].lastCrash = crash
        if bugs[i].status == .stable || bugs[i].status == .resolved { life[i].crashesSinceTransition.append(crash) }
    }

    mutating func reboot(_ at: Date) {
        guard !openCrashes.isEmpty else { return }
        let n = openCrashes.count
        for k in openCrashes { crashes[k].reboot(at: at) }
        openCrashes.removeAll()
        rebooted = true
        versions.append(VersionRules.entry(for: .reboot, current: VersionRules.version(forAppliedCount: appliedCount),
                                           userId: user, at: at, description: "Reboot after " + Plural.of(n, "crash", "crashes") + ".",
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
        engage(day, at)
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
        var crashes = bugs[i].status == .active ? life[i].recentCrashes : life[i].crashesSinceTransition
        if BugLifecycle.evaluate(bugs[i], crashes: crashes, diagnostics: life[i].ratings, retests: [], now: at, calendar: cal) != nil {
            // As the commands do: each change dated when it took effect, and every one due.
            if let last = life[i].lastCrash, !crashes.contains(where: { $0.id == last.id }) { crashes.append(last) }
            bugs[i] = BugLifecycle.settle(bugs[i], crashes: crashes, diagnostics: life[i].ratings, retests: { _ in [] }, now: at, calendar: cal).bug
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
}
