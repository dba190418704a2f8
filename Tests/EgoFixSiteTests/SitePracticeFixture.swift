import EgoFixCore
import EgoFixResources
@testable import EgoFixSite
import Foundation

/// A three-week practice recorded through the real services on in-memory repositories,
/// with the built-in catalogue, so the site is built from data the tool would really hold.
enum PracticeFixture {
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var t: Date
        init(_ t: Date) { self.t = t }
        var now: Date {
            get { lock.lock(); defer { lock.unlock() }; return t }
            set { lock.lock(); t = newValue; lock.unlock() }
        }
    }

    static func catalogue() throws -> SeedCatalogue {
        guard let b = BuiltIn.file("Seeds/bugs.json"), let f = BuiltIn.file("Seeds/fixes.json"),
              let e = BuiltIn.file("Seeds/micro_education.json") else { throw CocoaError(.fileNoSuchFile) }
        return try SeedCatalogue.decode(bugs: b, fixes: f, education: e)
    }

    /// - reflections: used in turn for each day's outcome.
    /// - crashNotes: used in turn for a crash every fourth day.
    static func make(reflections: [String], crashNotes: [String], zone: String = "Europe/Berlin", days: Int = 21)
        async throws -> (data: Practice, now: Date, calendar: Calendar) {
        let cal = UserCalendar.make(timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0) ?? .current)
        let start = LocalDay(year: 2026, month: 3, day: 2)
        let clock = Clock(start.at(hour: 8, in: cal))
        let repos = Repositories.inMemory(clock: { clock.now })
        let c = try catalogue()
        for b in c.bugs { try await repos.bugs.save(b) }
        for f in c.fixes { try await repos.fixes.save(f) }
        for e in c.education { try await repos.education.save(e) }
        var onboarding = OnboardingViewModel(repos: repos, calendar: cal)
        try await onboarding.load()
        try onboarding.select(slug: "need-to-be-right")
        _ = try await onboarding.complete(at: clock.now)
        if let liked = try await repos.bugs.getBySlug("need-to-be-liked") {
            try await repos.bugs.save(BugLifecycle.activate(liked, at: clock.now))
        }
        var today = TodayViewModel(repos: repos, calendar: cal)
        let outcomes: [FixOutcome] = [.applied, .applied, .skipped, .applied, .failed, .applied, .applied]
        for i in 0..<days {
            let day = start.adding(days: i)
            clock.now = day.at(hour: 9, in: cal)
            try await today.load(at: clock.now)
            if case .loaded = today.state {
                clock.now = day.at(hour: 19, in: cal)
                try await today.mark(outcomes[i % outcomes.count], reflection: reflections.isEmpty ? nil : reflections[i % reflections.count],
                                     at: clock.now)
            }
            if i % 4 == 1 {
                clock.now = day.at(hour: 13, in: cal)
                _ = try await CrashService(repos: repos, calendar: cal).logCrash(
                    bugId: nil, note: crashNotes.isEmpty ? nil : crashNotes[i % crashNotes.count], at: clock.now)
                clock.now = day.at(hour: 21, in: cal)
                _ = try await CrashService(repos: repos, calendar: cal).reboot(at: clock.now)
            }
            if day.isoWeekday == 7 {
                clock.now = day.at(hour: 19, in: cal)
                let bugs = try await DiagnosticService(repos: repos, calendar: cal).bugsToAsk()
                _ = try await DiagnosticService(repos: repos, calendar: cal).complete(
                    bugs.map { BugDiagnosticResponse(bugId: $0.id, intensity: .present, primaryContext: .work) }, at: clock.now)
            }
        }
        if let user = try await repos.users.get(), let fix = try await repos.fixes.getAll().first(where: { $0.number == 37 }) {
            try await EventRecorder(repos: repos, calendar: cal).record(.fixShared, userId: user.id, fixId: fix.id, at: clock.now)
        }
        return (try await Practice.load(repos), clock.now, cal)
    }

    static func build(_ p: (data: Practice, now: Date, calendar: Calendar), content: SiteContent = SiteContent(),
                      title: String = "EgoFix", templates: TemplateSet? = nil) throws -> [String: Data] {
        let builder = try SiteBuilder(templates: templates ?? TemplateSet(builtIn: BuiltIn.files(under: "Templates"), overrides: nil),
                                      assets: AssetSet(builtIn: BuiltIn.files(under: "Assets"), overrides: nil))
        let files = try builder.build(data: p.data, content: content,
                                      options: SiteOptions(title: title, baseURL: "https://example.org/me/", now: p.now, calendar: p.calendar))
        var out: [String: Data] = [:]
        for f in files { out[f.path] = f.data }
        return out
    }
}
