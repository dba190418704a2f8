import EgoFixCore
import Foundation
import GRDB

/// The store's schema, as versioned migrations. A migration once shipped is never edited;
/// a change is a new migration appended here ("v2", ...).
enum Schema {
    /// Written into the SQLite header (PRAGMA application_id) so an EgoFix store can be told
    /// apart from any other SQLite file: "EGFX".
    static let applicationID: Int32 = 0x4547_4658

    /// Identifiers of the migrations this version knows, oldest first.
    static var knownMigrations: [String] { steps.map(\.id) }

    /// A migration's place in `knownMigrations` ("v10" after "v9"), unknown ones last.
    static func order(_ id: String) -> Int { knownMigrations.firstIndex(of: id) ?? Int.max }

    /// Every migration, oldest first: GRDB's migrator runs them on a new store; an earlier
    /// egofix's store has the ones it lacks run in one transaction (`SQLiteStore.upgrade`).
    static var steps: [(id: String, run: @Sendable (Database) throws -> Void)] {
        [("v1", { db in
            try db.execute(sql: v1)
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
         }),
         ("v2", { db in try db.execute(sql: v2) }),
         ("v3", { db in try db.execute(sql: v3) }),
         ("v4", { db in try db.execute(sql: v4) }),
         ("v5", { db in
            try showControlCharacters(db, table: "completions", column: "reflection")
            try showControlCharacters(db, table: "crashes", column: "note")
         })]
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        for step in steps { m.registerMigration(step.id, migrate: step.run) }
        return m
    }

    /// v5: the first egofix stored a reflection or a crash note as given, control characters
    /// included (a paste of coloured terminal output, a bell); since then such text is refused,
    /// by the commands, by import and by sync, so a store holding one could not be backed up,
    /// restored or joined. Each control character (tabs and line breaks excepted) is written as
    /// the `\u{1B}` the terminal already showed for it: nothing is dropped, and nothing else moves
    /// (`updatedAt` stays, so a sync orders the record as before).
    static func showControlCharacters(_ db: Database, table: String, column: String) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, \(column) FROM \(table) WHERE \(column) IS NOT NULL")
        for row in rows {
            guard let text = row[column] as String?, let id = row["id"] as String? else { continue }
            let shown = ControlText.shown(text)
            if shown != text {
                try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE id = ?", arguments: [shown, id])
            }
        }
    }

    /// A completion keeps the local day it was given for (travel does not move it).
    static let v4 = """
        ALTER TABLE completions ADD COLUMN day INTEGER;
        """

    /// A bug remembers when it last regressed (its stability needs quiet ratings from after that);
    /// a catalogue fix can be retired (old records still show it; it is never assigned again); the
    /// profile keeps the local day its last engagement counted for (travel does not move it).
    static let v3 = """
        ALTER TABLE bugs ADD COLUMN regressedAt REAL;
        ALTER TABLE fixes ADD COLUMN retiredAt REAL;
        ALTER TABLE users ADD COLUMN lastEngagementDay INTEGER;
        """

    /// Bookkeeping about the store's contents (e.g. which catalogue was loaded last). Not user data:
    /// export leaves it out and import clears it, since the import replaces what it described.
    static let v2 = """
        CREATE TABLE meta (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        );
        """

    /// Every table, every column a Core model has. Instants are REAL seconds since 2001-01-01,
    /// UUIDs uppercase text. References are checked at commit (DEFERRABLE INITIALLY DEFERRED)
    /// so a whole import can be written in any order inside one transaction.
    static let v1 = """
        CREATE TABLE bugs (
            id TEXT PRIMARY KEY NOT NULL,
            slug TEXT NOT NULL,
            title TEXT NOT NULL,
            description TEXT NOT NULL,
            color TEXT NOT NULL,
            isActive INTEGER NOT NULL,
            status TEXT NOT NULL,
            activatedAt REAL,
            stableSince REAL,
            lastRetestAt REAL,
            resolvedAt REAL,
            createdAt REAL NOT NULL,
            updatedAt REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX bugs_slug ON bugs(slug);
        CREATE INDEX bugs_order ON bugs(createdAt, id);

        CREATE TABLE fixes (
            id TEXT PRIMARY KEY NOT NULL,
            number INTEGER NOT NULL,
            bugId TEXT NOT NULL REFERENCES bugs(id) DEFERRABLE INITIALLY DEFERRED,
            type TEXT NOT NULL,
            severity TEXT NOT NULL,
            interactionType TEXT NOT NULL,
            prompt TEXT NOT NULL,
            inlineComment TEXT,
            validation TEXT,
            configurationData BLOB,
            createdAt REAL NOT NULL,
            updatedAt REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX fixes_bug ON fixes(bugId, number, id);
        CREATE INDEX fixes_order ON fixes(number, id);

        CREATE TABLE completions (
            id TEXT PRIMARY KEY NOT NULL,
            fixId TEXT NOT NULL REFERENCES fixes(id) DEFERRABLE INITIALLY DEFERRED,
            userId TEXT NOT NULL,
            outcome TEXT NOT NULL,
            reflection TEXT,
            outcomeData BLOB,
            assignedAt REAL NOT NULL,
            completedAt REAL,
            createdAt REAL NOT NULL,
            updatedAt REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX completions_fix ON completions(fixId);
        CREATE INDEX completions_order ON completions(assignedAt, id);

        CREATE TABLE crashes (
            id TEXT PRIMARY KEY NOT NULL,
            userId TEXT NOT NULL,
            bugId TEXT REFERENCES bugs(id) DEFERRABLE INITIALLY DEFERRED,
            note TEXT,
            crashedAt REAL NOT NULL,
            rebootedAt REAL,
            createdAt REAL NOT NULL,
            updatedAt REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX crashes_bug ON crashes(bugId);
        CREATE INDEX crashes_order ON crashes(crashedAt, id);

        CREATE TABLE users (
            id TEXT PRIMARY KEY NOT NULL,
            currentVersion TEXT NOT NULL,
            primaryBugId TEXT,
            currentStreak INTEGER NOT NULL,
            longestStreak INTEGER NOT NULL,
            lastEngagementDate REAL,
            streakFreezeAvailable INTEGER NOT NULL,
            freezeUsedWeekStart INTEGER,
            lastTidbitId TEXT,
            createdAt REAL NOT NULL,
            updatedAt REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT,
            lastSyncedAt REAL
        );

        CREATE TABLE versions (
            id TEXT PRIMARY KEY NOT NULL,
            userId TEXT NOT NULL,
            version TEXT NOT NULL,
            changeType TEXT NOT NULL,
            description TEXT NOT NULL,
            createdAt REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX versions_order ON versions(createdAt, id);

        CREATE TABLE events (
            id TEXT PRIMARY KEY NOT NULL,
            userId TEXT NOT NULL,
            eventType TEXT NOT NULL,
            bugId TEXT,
            fixId TEXT,
            context TEXT,
            dayOfWeek INTEGER NOT NULL,
            hourOfDay INTEGER NOT NULL,
            timestamp REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX events_order ON events(timestamp, id);

        CREATE TABLE patterns (
            id TEXT PRIMARY KEY NOT NULL,
            userId TEXT NOT NULL,
            patternType TEXT NOT NULL,
            severity TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            relatedBugIds TEXT NOT NULL,
            dataPoints INTEGER NOT NULL,
            pValue REAL NOT NULL,
            basis TEXT NOT NULL,
            detectedAt REAL NOT NULL,
            viewedAt REAL,
            dismissedAt REAL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX patterns_order ON patterns(detectedAt, id);

        CREATE TABLE diagnostics (
            id TEXT PRIMARY KEY NOT NULL,
            userId TEXT NOT NULL,
            weekStarting REAL NOT NULL,
            responses TEXT NOT NULL,
            completedAt REAL NOT NULL,
            deletedAt REAL,
            syncToken TEXT
        );
        CREATE INDEX diagnostics_order ON diagnostics(weekStarting, id);

        CREATE TABLE education (
            id TEXT PRIMARY KEY NOT NULL,
            bugSlug TEXT NOT NULL,
            "trigger" TEXT NOT NULL,
            body TEXT NOT NULL,
            createdAt REAL NOT NULL,
            updatedAt REAL NOT NULL,
            deletedAt REAL
        );
        CREATE INDEX education_slug ON education(bugSlug, "trigger");
        CREATE INDEX education_order ON education(createdAt, id);
        """
}
