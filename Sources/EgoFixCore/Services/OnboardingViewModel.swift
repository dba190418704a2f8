import Foundation

/// The state behind `egofix init`: pick the primary bug, see the first fix immediately.
public struct OnboardingViewModel: Sendable {
    public enum OnboardingError: Error, Equatable, CustomStringConvertible {
        case alreadyOnboarded(version: String)
        case noBugChosen
        public var description: String {
            switch self {
            case .alreadyOnboarded(let v):
                return "this store already holds a practice (v\(v)). `egofix today` shows today's fix; `egofix bug activate SLUG` adds a bug."
            case .noBugChosen:
                return "no bug chosen. Pass --bug SLUG; `egofix bugs` lists them."
            }
        }
    }

    public private(set) var bugs: [Bug] = []
    public private(set) var selected: Bug?
    let repos: Repositories
    let calendar: Calendar

    public init(repos: Repositories, calendar: Calendar) {
        self.repos = repos
        self.calendar = calendar
    }

    public mutating func load() async throws {
        if let u = try await repos.users.get() { throw OnboardingError.alreadyOnboarded(version: u.currentVersion) }
        bugs = try await repos.bugs.getAll().sorted { $0.title < $1.title }
    }

    public mutating func select(slug: String) throws {
        guard let b = bugs.first(where: { $0.slug == slug }) else {
            throw PracticeError.unknownBug(slug, nearest: NameShape.nearestBug(slug, among: bugs))
        }
        selected = b
    }

    /// Creates the profile with the chosen primary bug, activates it and assigns the first fix.
    public func complete(at now: Date, userId: UUID = UUID()) async throws -> TodayCard? {
        guard let bug = selected else { throw OnboardingError.noBugChosen }
        var user = UserProfile.new(id: userId, now: now)
        user.primaryBugId = bug.id
        try await repos.users.save(user)
        try await repos.bugs.save(BugLifecycle.activate(bug, at: now))
        var today = TodayViewModel(repos: repos, calendar: calendar)
        try await today.load(at: now)
        if case .loaded(let card) = today.state { return card }
        return nil
    }
}
