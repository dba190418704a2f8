import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

/// The store a build reads, and how to read it: `egofix build`'s, and each of `egofix serve`'s builds.
package enum StoreBuildSource {
    /// The store as a build's source (`egofix build`, and each of `egofix serve`'s builds).
    package static func source(store: String?, now: String?, config: WorkspaceConfig, env: [String: String]) throws -> SiteSource {
        let (path, from) = try Session.storeLocation(flag: store, config: config, env: env)
        guard SQLiteStore.exists(at: path) else { throw Session.noStore(at: path, from: from, orDemo: true) }
        let clock = SiteClockView(now: try Session.clock(now, environment: env),
                                  calendar: UserCalendar.make(timeZone: try Session.timeZone(config: config, environment: env)))
        return .store(path: path, clock: clock, load: { onShared in
            let s = try Session.open(store: store, now: now)
            try await s.ensureCatalogue()
            var data = try await s.store.readPractice(onShared: onShared)
            // Each bug as it stands at the build's clock (stable after its quiet weeks, without
            // waiting for the next `egofix today` to save it).
            data.bugs = BugLifecycle.settled(data, at: s.now, calendar: s.calendar)
            return SitePractice(data: data, now: s.now, calendar: s.calendar)
        })
    }
}
