import Foundation
@testable import EgoFixCore

/// A fixed calendar and helpers that build instants from local wall-clock times.
struct Clock {
    let calendar: Calendar

    init(_ zone: String = "Europe/Berlin") {
        calendar = UserCalendar.make(timeZone: TimeZone(identifier: zone) ?? TimeZone(secondsFromGMT: 0)!)
    }

    func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 9, _ min: Int = 0) -> Date {
        LocalDay(year: y, month: m, day: d).at(hour: h, minute: min, in: calendar)
    }

    func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDay { LocalDay(year: y, month: m, day: d) }
}

/// A mutable clock for in-memory repositories.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ d: Date) { value = d }
    var now: Date {
        get { lock.lock(); defer { lock.unlock() }; return value }
        set { lock.lock(); value = newValue; lock.unlock() }
    }
    func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
}

enum Catalogue {
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    static func bug(_ slug: String, active: Bool = true, status: BugStatus? = nil, activatedAt: Date? = nil) -> Bug {
        Bug(id: uuid("bug-" + slug), slug: slug, title: slug.replacingOccurrences(of: "-", with: " ").capitalized,
            description: "test bug", isActive: active, status: status ?? (active ? .active : .identified),
            activatedAt: activatedAt ?? (active ? epoch : nil), createdAt: epoch)
    }

    /// `count` daily fixes per severity for a bug, plus quick and weekly fixes.
    static func fixes(for bug: Bug, perSeverity: Int = 8, quick: Int = 2, weekly: Int = 2, startNumber: Int = 1) -> [Fix] {
        var out: [Fix] = []
        var n = startNumber
        for sev in FixSeverity.allCases {
            for i in 0..<perSeverity {
                out.append(Fix(id: uuid("fix-\(bug.slug)-\(sev.rawValue)-\(i)"), number: n, bugId: bug.id, type: .daily,
                               severity: sev, prompt: "\(bug.slug) \(sev.rawValue) \(i)", createdAt: epoch))
                n += 1
            }
        }
        for i in 0..<quick {
            out.append(Fix(id: uuid("fix-\(bug.slug)-quick-\(i)"), number: n, bugId: bug.id, type: .quickFix,
                           severity: .low, prompt: "\(bug.slug) quick \(i)", createdAt: epoch))
            n += 1
        }
        for i in 0..<weekly {
            out.append(Fix(id: uuid("fix-\(bug.slug)-weekly-\(i)"), number: n, bugId: bug.id, type: .weekly,
                           severity: .high, prompt: "\(bug.slug) weekly \(i)", createdAt: epoch))
            n += 1
        }
        return out
    }

    /// A deterministic UUID from a name (for readable fixtures).
    static func uuid(_ name: String) -> UUID {
        let h1 = StableHash.fnv1a([name, "1"]), h2 = StableHash.fnv1a([name, "2"])
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8((h1 >> (8 * UInt64(i))) & 0xff)
            bytes[8 + i] = UInt8((h2 >> (8 * UInt64(i))) & 0xff)
        }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// An in-memory practice with one user and a small catalogue.
struct World {
    let repos: Repositories
    let clock: TestClock
    let cal: Calendar
    let user: UserProfile
    let bugs: [Bug]
    let fixes: [Fix]

    static func make(zone: String = "Europe/Berlin", start: Date? = nil, bugs slugs: [String] = ["need-to-be-right"],
                     activeSlugs: [String]? = nil) async throws -> World {
        let c = Clock(zone)
        let t = TestClock(start ?? c.at(2026, 3, 2, 9))
        let repos = Repositories.inMemory(clock: { t.now })
        let active = Set(activeSlugs ?? slugs)
        var bugs: [Bug] = []
        var fixes: [Fix] = []
        for (i, s) in slugs.enumerated() {
            let b = Catalogue.bug(s, active: active.contains(s), activatedAt: active.contains(s) ? t.now : nil)
            bugs.append(b)
            fixes += Catalogue.fixes(for: b, startNumber: 1 + i * 100)
        }
        for b in bugs { try await repos.bugs.save(b) }
        for f in fixes { try await repos.fixes.save(f) }
        let user = UserProfile(createdAt: t.now)
        var u = user
        u.primaryBugId = bugs.first?.id
        try await repos.users.save(u)
        return World(repos: repos, clock: t, cal: c.calendar, user: u, bugs: bugs, fixes: fixes)
    }

    var daily: DailyFixService { DailyFixService(repos: repos, calendar: cal) }
    var streak: StreakService { StreakService(repos: repos, calendar: cal) }
    var crash: CrashService { CrashService(repos: repos, calendar: cal) }
    var version: VersionService { VersionService(repos: repos) }

    func profile() async throws -> UserProfile {
        guard let u = try await repos.users.get() else { throw PracticeError.noProfile }
        return u
    }
}
