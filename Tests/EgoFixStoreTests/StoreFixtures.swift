import Foundation
import XCTest
import EgoFixCore
import EgoFixResources
@testable import EgoFixStore

/// A mutable clock shared with a store.
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

/// A folder under the system temp directory, removed when the test ends.
final class TempDir {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "egofix-store-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The two implementations the repository contract runs against.
enum Backend: String, CaseIterable {
    case memory
    case sqlite
}

/// Builds readable fixture ids from names.
func uuid(_ name: String) -> UUID {
    let h1 = StableHash.fnv1a([name, "1"]), h2 = StableHash.fnv1a([name, "2"])
    var b = [UInt8](repeating: 0, count: 16)
    for i in 0..<8 {
        b[i] = UInt8((h1 >> (8 * UInt64(i))) & 0xff)
        b[8 + i] = UInt8((h2 >> (8 * UInt64(i))) & 0xff)
    }
    return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
}

enum Fixture {
    /// 2026-03-02 08:00:00 UTC, a Monday.
    static let start = Date(timeIntervalSince1970: 1_772_438_400)
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)
    static let calendar = UserCalendar.make(timeZone: TimeZone(identifier: "Europe/Berlin") ?? TimeZone(secondsFromGMT: 0)!)

    static func bug(_ slug: String, active: Bool = true) -> Bug {
        Bug(id: uuid("bug-" + slug), slug: slug, title: slug.replacingOccurrences(of: "-", with: " ").capitalized,
            description: "test bug", isActive: active, status: active ? .active : .identified,
            activatedAt: active ? epoch : nil, createdAt: epoch)
    }

    /// Daily fixes per severity for a bug, plus quick and weekly fixes.
    static func fixes(for bug: Bug, perSeverity: Int = 4, quick: Int = 2, weekly: Int = 2, startNumber: Int = 1) -> [Fix] {
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

    /// The built-in seeds, as shipped.
    static func builtInCatalogue() throws -> SeedCatalogue {
        guard let b = BuiltIn.file("Seeds/bugs.json"), let f = BuiltIn.file("Seeds/fixes.json"),
              let e = BuiltIn.file("Seeds/micro_education.json") else {
            throw XCTSkip("built-in seeds are not embedded")
        }
        return try SeedCatalogue.decode(bugs: b, fixes: f, education: e)
    }
}

/// One user, a small catalogue, on either backend.
struct World {
    let backend: Backend
    let repos: Repositories
    let store: SQLiteStore?
    let clock: TestClock
    let user: UserProfile
    let bugs: [Bug]
    let fixes: [Fix]
    let dir: TempDir

    static func make(_ backend: Backend, bugs slugs: [String] = ["need-to-be-right"], activeSlugs: [String]? = nil) async throws -> World {
        let clock = TestClock(Fixture.start)
        let dir = try TempDir()
        let repos: Repositories
        let store: SQLiteStore?
        switch backend {
        case .memory:
            repos = .inMemory(clock: { clock.now })
            store = nil
        case .sqlite:
            let s = try SQLiteStore(path: dir.file("store.sqlite"), clock: { clock.now })
            repos = s.repositories
            store = s
        }
        let active = Set(activeSlugs ?? slugs)
        var bugs: [Bug] = []
        var fixes: [Fix] = []
        for (i, s) in slugs.enumerated() {
            let b = Fixture.bug(s, active: active.contains(s))
            bugs.append(b)
            fixes += Fixture.fixes(for: b, startNumber: 1 + i * 100)
        }
        for b in bugs { try await repos.bugs.save(b) }
        for f in fixes { try await repos.fixes.save(f) }
        var u = UserProfile(id: uuid("user"), createdAt: clock.now)
        u.primaryBugId = bugs.first?.id
        try await repos.users.save(u)
        return World(backend: backend, repos: repos, store: store, clock: clock, user: u, bugs: bugs, fixes: fixes, dir: dir)
    }
}
