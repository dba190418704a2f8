import EgoFixCore
import Foundation

/// Where a build's practice comes from.
public enum SiteSource: Sendable {
    /// The built-in demo history (`DemoSite`), made from the catalogue.
    case demo(years: Int, seed: UInt64, catalogue: @Sendable () throws -> SeedCatalogue)
    /// A store file, read by `load`, which calls its argument with each shared fix and its bug
    /// as soon as it knows them (their share cards are drawn meanwhile). The change check holds
    /// the file's bytes and what the pages show of the clock `now` in `timeZone` (see
    /// `SiteClockView`), not the instant.
    case store(path: String, clock: SiteClockView,
               load: @Sendable (_ onShared: @escaping @Sendable (Fix, Bug) -> Void) async throws -> SitePractice)
}
