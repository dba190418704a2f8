import EgoFixCore
import Foundation

/// The built-in demo practice: a seeded, realistic history ending on a pinned date, in a fixed zone.
public enum DemoSite {
    public static let endDate = "2026-11-22T20:00:00+01:00"
    public static let zone = "Europe/Berlin"
    /// How long a demo history may be: with a clock of 2000 or later it starts after 1900, so its
    /// export imports and its device file syncs (`InstantText.earliestRecord`).
    public static let years = 1...100

    /// `onShare` hears each fix the demo user shares, with its bug, while the history is being made
    /// (see DemoHistory). The detectors are not run: the site runs them beside its own setup, and
    /// its stored patterns are that run's (`SiteOptions.patternsAreDetection`).
    public static func make(years: Int, seed: UInt64, catalogue: SeedCatalogue,
                            onShare: @escaping (Fix, Bug) -> Void) throws -> SitePractice {
        guard DemoSite.years.contains(years) else { throw SiteBuildFailure(description: "--years must be between \(DemoSite.years.lowerBound) and \(DemoSite.years.upperBound).", isUsage: true) }
        let calendar = UserCalendar.make(timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 3600) ?? .current)
        guard let now = InstantText.parse(endDate) else { throw SiteBuildFailure(description: "internal: bad demo end date") }
        var bugs: [UUID: Bug] = [:]
        for b in catalogue.bugs { bugs[b.id] = b }
        let demo = DemoHistory.generate(catalogue: catalogue, endingAt: now, years: years, seed: seed, calendar: calendar,
                                        onShare: { fix in if let bug = bugs[fix.bugId] { onShare(fix, bug) } }, detect: false)
        return SitePractice(data: demo, now: now, calendar: calendar, patternsAreDetection: true)
    }
}
