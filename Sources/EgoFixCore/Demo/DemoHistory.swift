import Foundation

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
                                calendar: Calendar, onShare: ((Fix) -> Void)? = nil, detect: Bool = true) -> Practice {
        var sim = DemoSimulator(catalogue: catalogue, endingAt: endingAt, years: max(1, years), seed: seed,
                                calendar: calendar, mode: .demo)
        sim.onShare = onShare
        sim.detect = detect
        return sim.run()
    }
}
