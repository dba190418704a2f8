import EgoFixCore
import EgoFixResources
import EgoFixSite
import Foundation

/// The built-in demo history: a seeded, realistic practice ending on a pinned date, in a fixed zone.
enum DemoSite {
    static let endDate = "2026-11-22T20:00:00+01:00"
    static let zone = "Europe/Berlin"

    /// `onShare` hears each fix the demo user shares, while the history is being made (see
    /// DemoHistory). The detectors are not run: the site runs them beside its own setup, and its
    /// stored patterns are that run's (`SiteOptions.patternsAreDetection`).
    static func make(years: Int, seed: UInt64, catalogue: SeedCatalogue,
                     onShare: @escaping (Fix) -> Void) throws -> (data: Practice, now: Date, calendar: Calendar) {
        guard (1...200).contains(years) else { throw CLIError("--years must be between 1 and 200.") }
        let calendar = UserCalendar.make(timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 3600) ?? .current)
        guard let now = ISO8601.parse(endDate) else { throw CLIError("internal: bad demo end date") }
        let demo = DemoHistory.generate(catalogue: catalogue, endingAt: now, years: years, seed: seed, calendar: calendar,
                                        onShare: onShare, detect: false)
        return (demo, now, calendar)
    }
}

extension Session {
    static func seedFilesBuiltIn() -> SeedFiles { SeedFiles.load(folder: nil) }
}

extension SeedFiles {
    /// The catalogue, without linting the built-in seeds again on every run (the test suite and
    /// `egofix lint` check them; they cannot change after the build). A ./Seeds override is linted.
    func builtInCatalogue() throws -> SeedCatalogue {
        guard bugs == BuiltIn.file("Seeds/" + SeedCatalogue.bugsFile), fixes == BuiltIn.file("Seeds/" + SeedCatalogue.fixesFile),
              education == BuiltIn.file("Seeds/" + SeedCatalogue.educationFile) else { return try catalogue() }
        return try SeedCatalogue.decode(bugs: bugs ?? Data(), fixes: fixes ?? Data(), education: education ?? Data())
    }
}
