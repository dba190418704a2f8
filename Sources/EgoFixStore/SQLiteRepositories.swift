import Foundation
import GRDB
import EgoFixCore

// SQLite implementations of Core's ten repository protocols. Semantics match the in-memory ones:
// every query hides soft-deleted rows, `save` is an upsert that stamps updatedAt (for records that
// have it), `delete` is a soft delete that throws for an unknown id, and results come in the
// in-memory order (orderDate, then id).

extension Access {
    func all<R: SQLRecord>(_ type: R.Type, where condition: String? = nil, _ arguments: [DatabaseValue] = []) async throws -> [R] {
        let cache = self.cache
        if condition == nil { return try await read { db in try cache.live(db, R.self) } }
        return try await read { db in try TableOps.live(db, R.self, where: condition, arguments) }
    }

    func first<R: SQLRecord>(_ type: R.Type, where condition: String? = nil, _ arguments: [DatabaseValue] = []) async throws -> R? {
        try await read { db in try TableOps.live(db, R.self, where: condition, arguments, limit: 1).first }
    }

    func get<R: SQLRecord>(_ type: R.Type, _ id: UUID) async throws -> R? {
        try await read { db in try TableOps.get(db, R.self, id) }
    }

    /// Upsert, stamping updatedAt from the clock (`SyncRules.editStamp`: after the stored stamp);
    /// `check` runs first in the same transaction.
    func save<R: SQLRecord>(_ record: R, check: (@Sendable (Database, R) throws -> Void)? = nil) async throws {
        let now = clock()
        let cache = self.cache
        try await write { db in
            var r = record
            r.stampEdit(previous: r.editedAt == nil ? nil : try TableOps.anyRow(db, R.self, r.id), now: now)
            try check?(db, r)
            try cache.writing(db, table: R.table) { try TableOps.upsert(db, r) }
        }
    }

    func delete<R: SQLRecord>(_ type: R.Type, _ id: UUID) async throws {
        let now = clock()
        let cache = self.cache
        try await write { db in try cache.writing(db, table: R.table) { try TableOps.softDelete(db, R.self, id, now: now) } }
    }
}

/// References are checked before writing so a broken one reads as a sentence, not "FOREIGN KEY constraint failed".
enum References {
    static func require(_ db: Database, table: String, id: UUID, from what: String, _ ownId: UUID, field: String) throws {
        guard try TableOps.exists(db, table: table, id: id) else {
            throw RepositoryError.invalid("\(what) \(ownId.uuidString): \(field) \(id.uuidString) is not in the store")
        }
    }
}

struct SQLiteFixRepository: FixRepository {
    let access: Access
    public func getAll() async throws -> [Fix] { try await access.all(Fix.self) }
    public func getById(_ id: UUID) async throws -> Fix? { try await access.get(Fix.self, id) }
    public func getForBug(_ bugId: UUID) async throws -> [Fix] {
        try await access.all(Fix.self, where: "bugId = ?", [Col.uuid(bugId)])
    }
    public func getDailyFix(for bugId: UUID, excluding: [UUID]) async throws -> Fix? {
        let skip = Set(excluding)
        return try await access.read { db in
            guard let bug = try TableOps.get(db, Bug.self, bugId), bug.isActive else { return nil }
            let dailies = try TableOps.live(db, Fix.self, where: "bugId = ? AND type = ?",
                                            [Col.uuid(bugId), Col.raw(FixType.daily)])
            return dailies.first { !skip.contains($0.id) }
        }
    }
    public func save(_ fix: Fix) async throws {
        try await access.save(fix) { db, f in
            try References.require(db, table: Bug.table, id: f.bugId, from: "fix", f.id, field: "bugId")
        }
    }
    public func delete(_ id: UUID) async throws { try await access.delete(Fix.self, id) }
}

struct SQLiteBugRepository: BugRepository {
    let access: Access
    public func getAll() async throws -> [Bug] { try await access.all(Bug.self) }
    public func getById(_ id: UUID) async throws -> Bug? { try await access.get(Bug.self, id) }
    public func getBySlug(_ slug: String) async throws -> Bug? {
        try await access.first(Bug.self, where: "slug = ?", [Col.text(slug)])
    }
    public func getActive() async throws -> [Bug] { try await access.all(Bug.self, where: "isActive = 1") }
    public func save(_ bug: Bug) async throws { try await access.save(bug) }
    public func delete(_ id: UUID) async throws { try await access.delete(Bug.self, id) }
}

struct SQLiteFixCompletionRepository: FixCompletionRepository {
    let access: Access
    public func getAll() async throws -> [FixCompletion] { try await access.all(FixCompletion.self) }
    public func getById(_ id: UUID) async throws -> FixCompletion? { try await access.get(FixCompletion.self, id) }
    public func getForFix(_ fixId: UUID) async throws -> [FixCompletion] {
        try await access.all(FixCompletion.self, where: "fixId = ?", [Col.uuid(fixId)])
    }
    public func getPending() async throws -> [FixCompletion] {
        try await access.all(FixCompletion.self, where: "outcome = ?", [Col.raw(FixOutcome.pending)])
    }
    public func getPending(fixIds: [UUID]) async throws -> [FixCompletion] {
        guard !fixIds.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: fixIds.count).joined(separator: ", ")
        return try await access.all(FixCompletion.self, where: "outcome = ? AND fixId IN (\(marks))",
                                    [Col.raw(FixOutcome.pending)] + fixIds.map { Col.uuid($0) })
    }
    public func getAssigned(from start: Date, to end: Date) async throws -> [FixCompletion] {
        try await access.all(FixCompletion.self, where: "assignedAt >= ? AND assignedAt < ?", [Col.date(start), Col.date(end)])
    }
    public func getAppliedOrSince(_ date: Date) async throws -> [FixCompletion] {
        try await access.all(FixCompletion.self, where: "outcome = ? OR COALESCE(completedAt, assignedAt) >= ?",
                             [Col.raw(FixOutcome.applied), Col.date(date)])
    }
    public func count(outcome: FixOutcome) async throws -> Int {
        try await access.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(FixCompletion.table) WHERE deletedAt IS NULL AND outcome = ?",
                             arguments: [Col.raw(outcome)]) ?? 0
        }
    }
    public func save(_ completion: FixCompletion) async throws {
        try await access.save(completion) { db, c in
            try References.require(db, table: Fix.table, id: c.fixId, from: "completion", c.id, field: "fixId")
        }
    }
    public func delete(_ id: UUID) async throws { try await access.delete(FixCompletion.self, id) }
}

struct SQLiteCrashRepository: CrashRepository {
    let access: Access
    public func getAll() async throws -> [Crash] { try await access.all(Crash.self) }
    public func getById(_ id: UUID) async throws -> Crash? { try await access.get(Crash.self, id) }
    public func getUnrebooted() async throws -> [Crash] { try await access.all(Crash.self, where: "rebootedAt IS NULL") }
    public func save(_ crash: Crash) async throws {
        try await access.save(crash) { db, c in
            if let bugId = c.bugId {
                try References.require(db, table: Bug.table, id: bugId, from: "crash", c.id, field: "bugId")
            }
        }
    }
    public func delete(_ id: UUID) async throws { try await access.delete(Crash.self, id) }
}

struct SQLiteUserRepository: UserRepository {
    let access: Access
    public func get() async throws -> UserProfile? { try await access.first(UserProfile.self) }
    public func save(_ user: UserProfile) async throws { try await access.save(user) }
    public func delete(_ id: UUID) async throws { try await access.delete(UserProfile.self, id) }
}

struct SQLiteVersionEntryRepository: VersionEntryRepository {
    let access: Access
    public func getAll() async throws -> [VersionEntry] { try await access.all(VersionEntry.self) }
    public func save(_ entry: VersionEntry) async throws { try await access.save(entry) }
    public func delete(_ id: UUID) async throws { try await access.delete(VersionEntry.self, id) }
}

struct SQLiteAnalyticsEventRepository: AnalyticsEventRepository {
    let access: Access
    public func getAll() async throws -> [AnalyticsEvent] { try await access.all(AnalyticsEvent.self) }
    public func getBetween(_ start: Date, _ end: Date) async throws -> [AnalyticsEvent] {
        try await access.all(AnalyticsEvent.self, where: "timestamp >= ? AND timestamp < ?", [Col.date(start), Col.date(end)])
    }
    public func getSince(_ start: Date, orOfTypes types: [EventType]) async throws -> [AnalyticsEvent] {
        guard !types.isEmpty else { return try await access.all(AnalyticsEvent.self, where: "timestamp >= ?", [Col.date(start)]) }
        let marks = Array(repeating: "?", count: types.count).joined(separator: ", ")
        return try await access.all(AnalyticsEvent.self, where: "timestamp >= ? OR eventType IN (\(marks))",
                                    [Col.date(start)] + types.map { Col.raw($0) })
    }
    public func save(_ event: AnalyticsEvent) async throws { try await access.save(event) }
    public func delete(_ id: UUID) async throws { try await access.delete(AnalyticsEvent.self, id) }
}

struct SQLitePatternRepository: PatternRepository {
    let access: Access
    public func getAll() async throws -> [DetectedPattern] { try await access.all(DetectedPattern.self) }
    public func getById(_ id: UUID) async throws -> DetectedPattern? { try await access.get(DetectedPattern.self, id) }
    public func save(_ pattern: DetectedPattern) async throws { try await access.save(pattern) }
    public func delete(_ id: UUID) async throws { try await access.delete(DetectedPattern.self, id) }
}

struct SQLiteWeeklyDiagnosticRepository: WeeklyDiagnosticRepository {
    let access: Access
    public func getAll() async throws -> [WeeklyDiagnostic] { try await access.all(WeeklyDiagnostic.self) }
    public func getForWeek(starting: Date) async throws -> WeeklyDiagnostic? {
        try await access.first(WeeklyDiagnostic.self, where: "weekStarting = ?", [Col.date(starting)])
    }
    public func save(_ diagnostic: WeeklyDiagnostic) async throws { try await access.save(diagnostic) }
    public func delete(_ id: UUID) async throws { try await access.delete(WeeklyDiagnostic.self, id) }
}

struct SQLiteMicroEducationRepository: MicroEducationRepository {
    let access: Access
    public func getAll() async throws -> [MicroEducation] { try await access.all(MicroEducation.self) }
    public func getFor(bugSlug: String, trigger: EducationTrigger) async throws -> [MicroEducation] {
        try await access.all(MicroEducation.self, where: "bugSlug = ? AND \"trigger\" = ?", [Col.text(bugSlug), Col.raw(trigger)])
    }
    public func save(_ item: MicroEducation) async throws { try await access.save(item) }
    public func delete(_ id: UUID) async throws { try await access.delete(MicroEducation.self, id) }
}
