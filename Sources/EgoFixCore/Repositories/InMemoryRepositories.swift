import Foundation

/// A record the in-memory store can keep: soft-deletable, ordered by a date then id.
public protocol StoredRecord: Identifiable, Sendable where ID == UUID {
    var deletedAt: Date? { get set }
    var orderDate: Date { get }
    /// The instant of the last edit (`updatedAt`); nil for records that are never edited.
    var editedAt: Date? { get }
    mutating func touch(_ now: Date)
}

extension StoredRecord {
    /// Stamps an edit of this record, whose stored version (if any) is `previous`: the clock, or
    /// just after the previous stamp when the clock has not passed it (`SyncRules.editStamp`).
    public mutating func stampEdit(previous: Self?, now: Date) {
        touch(SyncRules.editStamp(previous: previous?.editedAt, now: now))
    }
}

extension Fix: StoredRecord {
    public var orderDate: Date { Date(timeIntervalSince1970: TimeInterval(number)) }
    public var editedAt: Date? { updatedAt }
    public mutating func touch(_ now: Date) { updatedAt = now }
}
extension Bug: StoredRecord {
    public var orderDate: Date { createdAt }
    public var editedAt: Date? { updatedAt }
    public mutating func touch(_ now: Date) { updatedAt = now }
}
extension FixCompletion: StoredRecord {
    public var orderDate: Date { assignedAt }
    public var editedAt: Date? { updatedAt }
    public mutating func touch(_ now: Date) { updatedAt = now }
}
extension Crash: StoredRecord {
    public var orderDate: Date { crashedAt }
    public var editedAt: Date? { updatedAt }
    public mutating func touch(_ now: Date) { updatedAt = now }
}
extension UserProfile: StoredRecord {
    public var orderDate: Date { createdAt }
    public var editedAt: Date? { updatedAt }
    public mutating func touch(_ now: Date) { updatedAt = now }
}
extension VersionEntry: StoredRecord {
    public var orderDate: Date { createdAt }
    public var editedAt: Date? { nil }
    public mutating func touch(_ now: Date) {}
}
extension AnalyticsEvent: StoredRecord {
    public var orderDate: Date { timestamp }
    public var editedAt: Date? { nil }
    public mutating func touch(_ now: Date) {}
}
extension DetectedPattern: StoredRecord {
    public var orderDate: Date { detectedAt }
    public var editedAt: Date? { nil }
    public mutating func touch(_ now: Date) {}
}
extension WeeklyDiagnostic: StoredRecord {
    public var orderDate: Date { weekStarting }
    public var editedAt: Date? { nil }
    public mutating func touch(_ now: Date) {}
}
extension MicroEducation: StoredRecord {
    public var orderDate: Date { createdAt }
    public var editedAt: Date? { updatedAt }
    public mutating func touch(_ now: Date) { updatedAt = now }
}

/// One table of records, kept in insertion-independent order.
public actor InMemoryTable<R: StoredRecord> {
    private var rows: [UUID: R] = [:]
    private let clock: @Sendable () -> Date

    public init(clock: @escaping @Sendable () -> Date) { self.clock = clock }

    /// Live rows (not soft-deleted), ordered by date then id.
    public func live() -> [R] {
        rows.values.filter { $0.deletedAt == nil }.sorted(by: InMemoryTable.order)
    }

    /// Every row, deleted ones too (for export).
    public func everything() -> [R] { rows.values.sorted(by: InMemoryTable.order) }

    public func get(_ id: UUID) -> R? {
        guard let r = rows[id], r.deletedAt == nil else { return nil }
        return r
    }

    public func save(_ record: R) {
        var r = record
        r.stampEdit(previous: rows[r.id], now: clock())
        rows[r.id] = r
    }

    public func delete(_ id: UUID) throws {
        guard var r = rows[id] else { throw RepositoryError.notFound(String(describing: R.self), id) }
        let now = clock()
        let previous = r
        r.deletedAt = now
        r.stampEdit(previous: previous, now: now)
        rows[id] = r
    }

    static func order(_ a: R, _ b: R) -> Bool {
        a.orderDate != b.orderDate ? a.orderDate < b.orderDate : a.id.uuidString < b.id.uuidString
    }
}

public struct InMemoryFixRepository: FixRepository {
    let table: InMemoryTable<Fix>
    let bugs: InMemoryTable<Bug>
    public func getAll() async throws -> [Fix] { await table.live() }
    public func getById(_ id: UUID) async throws -> Fix? { await table.get(id) }
    public func getForBug(_ bugId: UUID) async throws -> [Fix] { await table.live().filter { $0.bugId == bugId } }
    public func getDailyFix(for bugId: UUID, excluding: [UUID]) async throws -> Fix? {
        guard let bug = await bugs.get(bugId), bug.isActive else { return nil }
        let skip = Set(excluding)
        return await table.live().first { $0.bugId == bugId && $0.type == .daily && !skip.contains($0.id) }
    }
    public func save(_ fix: Fix) async throws { await table.save(fix) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryBugRepository: BugRepository {
    let table: InMemoryTable<Bug>
    public func getAll() async throws -> [Bug] { await table.live() }
    public func getById(_ id: UUID) async throws -> Bug? { await table.get(id) }
    public func getBySlug(_ slug: String) async throws -> Bug? { await table.live().first { $0.slug == slug } }
    public func getActive() async throws -> [Bug] { await table.live().filter { $0.isActive } }
    public func save(_ bug: Bug) async throws { await table.save(bug) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryFixCompletionRepository: FixCompletionRepository {
    let table: InMemoryTable<FixCompletion>
    public func getAll() async throws -> [FixCompletion] { await table.live() }
    public func getById(_ id: UUID) async throws -> FixCompletion? { await table.get(id) }
    public func getForFix(_ fixId: UUID) async throws -> [FixCompletion] { await table.live().filter { $0.fixId == fixId } }
    public func getPending() async throws -> [FixCompletion] { await table.live().filter { $0.outcome == .pending } }
    public func getPending(fixIds: [UUID]) async throws -> [FixCompletion] {
        let ids = Set(fixIds)
        return await table.live().filter { $0.outcome == .pending && ids.contains($0.fixId) }
    }
    public func getAssigned(from start: Date, to end: Date) async throws -> [FixCompletion] {
        await table.live().filter { $0.assignedAt >= start && $0.assignedAt < end }
    }
    public func getAppliedOrSince(_ date: Date) async throws -> [FixCompletion] {
        await table.live().filter { $0.outcome == .applied || ($0.completedAt ?? $0.assignedAt) >= date }
    }
    public func count(outcome: FixOutcome) async throws -> Int { await table.live().filter { $0.outcome == outcome }.count }
    public func save(_ completion: FixCompletion) async throws { await table.save(completion) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryCrashRepository: CrashRepository {
    let table: InMemoryTable<Crash>
    public func getAll() async throws -> [Crash] { await table.live() }
    public func getById(_ id: UUID) async throws -> Crash? { await table.get(id) }
    public func getUnrebooted() async throws -> [Crash] { await table.live().filter { $0.rebootedAt == nil } }
    public func save(_ crash: Crash) async throws { await table.save(crash) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryUserRepository: UserRepository {
    let table: InMemoryTable<UserProfile>
    public func get() async throws -> UserProfile? { await table.live().first }
    public func save(_ user: UserProfile) async throws { await table.save(user) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryVersionEntryRepository: VersionEntryRepository {
    let table: InMemoryTable<VersionEntry>
    public func getAll() async throws -> [VersionEntry] { await table.live() }
    public func save(_ entry: VersionEntry) async throws { await table.save(entry) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryAnalyticsEventRepository: AnalyticsEventRepository {
    let table: InMemoryTable<AnalyticsEvent>
    public func getAll() async throws -> [AnalyticsEvent] { await table.live() }
    public func getBetween(_ start: Date, _ end: Date) async throws -> [AnalyticsEvent] {
        await table.live().filter { $0.timestamp >= start && $0.timestamp < end }
    }
    public func getSince(_ start: Date, orOfTypes types: [EventType]) async throws -> [AnalyticsEvent] {
        await table.live().filter { $0.timestamp >= start || types.contains($0.eventType) }
    }
    public func save(_ event: AnalyticsEvent) async throws { await table.save(event) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryPatternRepository: PatternRepository {
    let table: InMemoryTable<DetectedPattern>
    public func getAll() async throws -> [DetectedPattern] { await table.live() }
    public func getById(_ id: UUID) async throws -> DetectedPattern? { await table.get(id) }
    public func save(_ pattern: DetectedPattern) async throws { await table.save(pattern) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryWeeklyDiagnosticRepository: WeeklyDiagnosticRepository {
    let table: InMemoryTable<WeeklyDiagnostic>
    public func getAll() async throws -> [WeeklyDiagnostic] { await table.live() }
    public func getForWeek(starting: Date) async throws -> WeeklyDiagnostic? {
        await table.live().first { $0.weekStarting == starting }
    }
    public func save(_ diagnostic: WeeklyDiagnostic) async throws { await table.save(diagnostic) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

public struct InMemoryMicroEducationRepository: MicroEducationRepository {
    let table: InMemoryTable<MicroEducation>
    public func getAll() async throws -> [MicroEducation] { await table.live() }
    public func getFor(bugSlug: String, trigger: EducationTrigger) async throws -> [MicroEducation] {
        await table.live().filter { $0.bugSlug == bugSlug && $0.trigger == trigger }
    }
    public func save(_ item: MicroEducation) async throws { await table.save(item) }
    public func delete(_ id: UUID) async throws { try await table.delete(id) }
}

extension Repositories {
    /// A fresh in-memory store; `clock` stamps updatedAt and deletedAt.
    public static func inMemory(clock: @escaping @Sendable () -> Date) -> Repositories {
        let bugs = InMemoryTable<Bug>(clock: clock)
        return Repositories(
            fixes: InMemoryFixRepository(table: InMemoryTable(clock: clock), bugs: bugs),
            bugs: InMemoryBugRepository(table: bugs),
            completions: InMemoryFixCompletionRepository(table: InMemoryTable(clock: clock)),
            crashes: InMemoryCrashRepository(table: InMemoryTable(clock: clock)),
            users: InMemoryUserRepository(table: InMemoryTable(clock: clock)),
            versions: InMemoryVersionEntryRepository(table: InMemoryTable(clock: clock)),
            events: InMemoryAnalyticsEventRepository(table: InMemoryTable(clock: clock)),
            patterns: InMemoryPatternRepository(table: InMemoryTable(clock: clock)),
            diagnostics: InMemoryWeeklyDiagnosticRepository(table: InMemoryTable(clock: clock)),
            education: InMemoryMicroEducationRepository(table: InMemoryTable(clock: clock)))
    }
}
