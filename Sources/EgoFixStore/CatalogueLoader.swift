import Foundation
import GRDB
import EgoFixCore

/// What `loadCatalogue` did, per kind of record.
public struct CatalogueReport: Equatable, Sendable, CustomStringConvertible {
    public struct Counts: Equatable, Sendable {
        public var inserted: Int
        public var updated: Int
        public var unchanged: Int
        public var total: Int { inserted + updated + unchanged }

        public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
            self.inserted = inserted
            self.updated = updated
            self.unchanged = unchanged
        }
    }

    public var bugs: Counts
    public var fixes: Counts
    public var education: Counts

    public init(bugs: Counts = Counts(), fixes: Counts = Counts(), education: Counts = Counts()) {
        self.bugs = bugs
        self.fixes = fixes
        self.education = education
    }

    public var inserted: Int { bugs.inserted + fixes.inserted + education.inserted }
    public var updated: Int { bugs.updated + fixes.updated + education.updated }
    public var unchanged: Int { bugs.unchanged + fixes.unchanged + education.unchanged }

    /// "catalogue: 5 bugs, 270 fixes, 160 tidbits (0 new, 1 updated, 434 unchanged)"
    public var description: String {
        "catalogue: \(bugs.total) bugs, \(fixes.total) fixes, \(education.total) tidbits "
            + "(\(inserted) new, \(updated) updated, \(unchanged) unchanged)"
    }
}

extension SQLiteStore {
    /// Loads the shipped catalogue (bugs, fixes, micro-education) into the store, in one transaction.
    ///
    /// Idempotent: records are matched by id, so loading twice never duplicates anything. A record whose
    /// catalogue wording changed (title, description, colour, slug; prompt, comment, validation,
    /// configuration, severity...; tidbit body) is updated in place. User state is never touched:
    /// a bug keeps isActive, status, activatedAt, stableSince, lastRetestAt, resolvedAt, deletedAt;
    /// no user record (completions, crashes, profile...) is read or written. Bugs and fixes in the
    /// store but no longer in the catalogue stay as they are (records name them); a tidbit no longer
    /// in it is no longer shown (soft-deleted: an earlier egofix's 60 dropped tidbits went on
    /// being shown after an upgrade), and shown again if a later catalogue has it.
    @discardableResult
    public func loadCatalogue(_ c: SeedCatalogue) throws -> CatalogueReport {
        try CatalogueLoader.checkUnique(c)
        let now = clock()
        do {
            return try access.writeNow { db in try CatalogueLoader.load(c, db: db, now: now) }
        } catch {
            throw SQLiteStore.map(error, path: path, operation: "loading the catalogue")
        }
    }
}

enum CatalogueLoader {
    static func checkUnique(_ c: SeedCatalogue) throws {
        func dup(_ ids: [UUID], _ file: String) throws {
            var seen = Set<UUID>()
            for id in ids where !seen.insert(id).inserted {
                throw StoreError.catalogue("\(file) has id \(id.uuidString) more than once")
            }
        }
        try dup(c.bugs.map(\.id), SeedCatalogue.bugsFile)
        try dup(c.fixes.map(\.id), SeedCatalogue.fixesFile)
        try dup(c.education.map(\.id), SeedCatalogue.educationFile)
    }

    static func load(_ c: SeedCatalogue, db: Database, now: Date) throws -> CatalogueReport {
        var report = CatalogueReport()
        let seedBugIds = Set(c.bugs.map(\.id))

        for seed in c.bugs {
            guard let old = try TableOps.anyRow(db, Bug.self, seed.id) else {
                var b = seed
                b.touch(now)
                try TableOps.upsert(db, b)
                report.bugs.inserted += 1
                continue
            }
            if old.slug == seed.slug, old.title == seed.title, old.description == seed.description, old.color == seed.color {
                report.bugs.unchanged += 1
                continue
            }
            let merged = Bug(id: old.id, slug: seed.slug, title: seed.title, description: seed.description, color: seed.color,
                             isActive: old.isActive, status: old.status, activatedAt: old.activatedAt,
                             stableSince: old.stableSince, lastRetestAt: old.lastRetestAt, resolvedAt: old.resolvedAt,
                             createdAt: old.createdAt, updatedAt: now, deletedAt: old.deletedAt, syncToken: old.syncToken,
                             regressedAt: old.regressedAt)
            try TableOps.upsert(db, merged)
            report.bugs.updated += 1
        }

        for seed in c.fixes {
            if !seedBugIds.contains(seed.bugId), try !TableOps.exists(db, table: Bug.table, id: seed.bugId) {
                throw StoreError.catalogue("\(SeedCatalogue.fixesFile): \(seed.label) (\(seed.id.uuidString)) refers to bug "
                                           + "\(seed.bugId.uuidString), which is neither in \(SeedCatalogue.bugsFile) nor in the store")
            }
            guard let old = try TableOps.anyRow(db, Fix.self, seed.id) else {
                var f = seed
                f.touch(now)
                if f.retiredAt != nil { f.retiredAt = now }
                try TableOps.upsert(db, f)
                report.fixes.inserted += 1
                continue
            }
            if old.number == seed.number, old.bugId == seed.bugId, old.type == seed.type, old.severity == seed.severity,
               old.interactionType == seed.interactionType, old.prompt == seed.prompt,
               old.inlineComment == seed.inlineComment, old.validation == seed.validation,
               old.configurationData == seed.configurationData, (old.retiredAt == nil) == (seed.retiredAt == nil) {
                report.fixes.unchanged += 1
                continue
            }
            let merged = Fix(id: old.id, number: seed.number, bugId: seed.bugId, type: seed.type, severity: seed.severity,
                             interactionType: seed.interactionType, prompt: seed.prompt, inlineComment: seed.inlineComment,
                             validation: seed.validation, configurationData: seed.configurationData,
                             createdAt: old.createdAt, updatedAt: now, deletedAt: old.deletedAt, syncToken: old.syncToken,
                             retiredAt: seed.retiredAt == nil ? nil : (old.retiredAt ?? now))
            try TableOps.upsert(db, merged)
            report.fixes.updated += 1
        }

        let seedEducation = Set(c.education.map(\.id))
        for seed in c.education {
            guard let old = try TableOps.anyRow(db, MicroEducation.self, seed.id) else {
                var e = seed
                e.touch(now)
                try TableOps.upsert(db, e)
                report.education.inserted += 1
                continue
            }
            if old.bugSlug == seed.bugSlug, old.trigger == seed.trigger, old.body == seed.body, old.deletedAt == nil {
                report.education.unchanged += 1
                continue
            }
            let merged = MicroEducation(id: old.id, bugSlug: seed.bugSlug, trigger: seed.trigger, body: seed.body,
                                        createdAt: old.createdAt, updatedAt: now, deletedAt: nil)
            try TableOps.upsert(db, merged)
            report.education.updated += 1
        }
        for var gone in try TableOps.live(db, MicroEducation.self) where !seedEducation.contains(gone.id) {
            gone.deletedAt = now
            gone.updatedAt = now
            try TableOps.upsert(db, gone)
            report.education.updated += 1
        }
        return report
    }
}
