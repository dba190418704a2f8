import Foundation

// The spec's repository protocols. Every query hides soft-deleted records; `delete` is a soft delete.
// Two implementations: InMemory (tests) and SQLite (EgoFixStore).

public protocol FixRepository: Sendable {
    func getAll() async throws -> [Fix]
    func getById(_ id: UUID) async throws -> Fix?
    func getForBug(_ bugId: UUID) async throws -> [Fix]
    /// A daily fix for an active bug that is not in `excluding`, lowest catalogue number first.
    func getDailyFix(for bugId: UUID, excluding: [UUID]) async throws -> Fix?
    func save(_ fix: Fix) async throws
    func delete(_ id: UUID) async throws
}

public protocol BugRepository: Sendable {
    func getAll() async throws -> [Bug]
    func getById(_ id: UUID) async throws -> Bug?
    func getBySlug(_ slug: String) async throws -> Bug?
    func getActive() async throws -> [Bug]
    func save(_ bug: Bug) async throws
    func delete(_ id: UUID) async throws
}

public protocol FixCompletionRepository: Sendable {
    func getAll() async throws -> [FixCompletion]
    func getById(_ id: UUID) async throws -> FixCompletion?
    func getForFix(_ fixId: UUID) async throws -> [FixCompletion]
    func getPending() async throws -> [FixCompletion]
    /// Pending completions of these fixes (the quick fixes, say), without reading every pending one.
    func getPending(fixIds: [UUID]) async throws -> [FixCompletion]
    /// Completions assigned in [start, end).
    func getAssigned(from start: Date, to end: Date) async throws -> [FixCompletion]
    /// Applied completions of any time, and every completion whose outcome time (completedAt, else
    /// assignedAt) is at or after `date`: what choosing a daily fix reads.
    func getAppliedOrSince(_ date: Date) async throws -> [FixCompletion]
    /// How many live completions have this outcome.
    func count(outcome: FixOutcome) async throws -> Int
    func save(_ completion: FixCompletion) async throws
    func delete(_ id: UUID) async throws
}

public protocol CrashRepository: Sendable {
    func getAll() async throws -> [Crash]
    func getById(_ id: UUID) async throws -> Crash?
    func getUnrebooted() async throws -> [Crash]
    func save(_ crash: Crash) async throws
    func delete(_ id: UUID) async throws
}

public protocol UserRepository: Sendable {
    func get() async throws -> UserProfile?
    func save(_ user: UserProfile) async throws
    func delete(_ id: UUID) async throws
}

public protocol VersionEntryRepository: Sendable {
    func getAll() async throws -> [VersionEntry]
    func save(_ entry: VersionEntry) async throws
    func delete(_ id: UUID) async throws
}

public protocol AnalyticsEventRepository: Sendable {
    func getAll() async throws -> [AnalyticsEvent]
    func getBetween(_ start: Date, _ end: Date) async throws -> [AnalyticsEvent]
    /// Events from `start` on, and events of `types` from any time (what the pattern detectors read).
    func getSince(_ start: Date, orOfTypes types: [EventType]) async throws -> [AnalyticsEvent]
    func save(_ event: AnalyticsEvent) async throws
    func delete(_ id: UUID) async throws
}

public protocol PatternRepository: Sendable {
    func getAll() async throws -> [DetectedPattern]
    func getById(_ id: UUID) async throws -> DetectedPattern?
    func save(_ pattern: DetectedPattern) async throws
    func delete(_ id: UUID) async throws
}

public protocol WeeklyDiagnosticRepository: Sendable {
    func getAll() async throws -> [WeeklyDiagnostic]
    func getForWeek(starting: Date) async throws -> WeeklyDiagnostic?
    func save(_ diagnostic: WeeklyDiagnostic) async throws
    func delete(_ id: UUID) async throws
}

public protocol MicroEducationRepository: Sendable {
    func getAll() async throws -> [MicroEducation]
    func getFor(bugSlug: String, trigger: EducationTrigger) async throws -> [MicroEducation]
    func save(_ item: MicroEducation) async throws
    func delete(_ id: UUID) async throws
}

/// The ten repositories together, as the services take them.
public struct Repositories: Sendable {
    public var fixes: any FixRepository
    public var bugs: any BugRepository
    public var completions: any FixCompletionRepository
    public var crashes: any CrashRepository
    public var users: any UserRepository
    public var versions: any VersionEntryRepository
    public var events: any AnalyticsEventRepository
    public var patterns: any PatternRepository
    public var diagnostics: any WeeklyDiagnosticRepository
    public var education: any MicroEducationRepository

    public init(fixes: any FixRepository, bugs: any BugRepository, completions: any FixCompletionRepository,
                crashes: any CrashRepository, users: any UserRepository, versions: any VersionEntryRepository,
                events: any AnalyticsEventRepository, patterns: any PatternRepository,
                diagnostics: any WeeklyDiagnosticRepository, education: any MicroEducationRepository) {
        self.fixes = fixes
        self.bugs = bugs
        self.completions = completions
        self.crashes = crashes
        self.users = users
        self.versions = versions
        self.events = events
        self.patterns = patterns
        self.diagnostics = diagnostics
        self.education = education
    }
}

public enum RepositoryError: Error, Equatable, CustomStringConvertible {
    case notFound(String, UUID)
    case invalid(String)

    public var description: String {
        switch self {
        case .notFound(let what, let id): return "\(what) \(id.uuidString) not found"
        case .invalid(let why): return why
        }
    }
}
