import Foundation
import GRDB
import XCTest

/// A store an earlier egofix made, opened by this one.
final class UpgradeTests: XCTestCase {
    /// A bug that regressed on the first egofix (schema v2, no `regressedAt`), after quiet weeks
    /// that made it stable: upgraded, it keeps the date it came back, so the quiet ratings from
    /// before do not make it stable again (it went stable after three crash-free weeks with no
    /// diagnostic, where a bug that regressed on this egofix stays active). The store is copied
    /// beside it first, and standard error says so.
    func test_upgrade_aRegressionFromBeforeItWasDatedKeepsItsDate() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: "2026-01-05T07:00:00Z").status, 0)
        for day in ["11", "18", "25"] {
            XCTAssertEqual(try cli.run(["diagnostic", "--rate", "need-to-be-right=quiet"], at: "2026-01-\(day)T18:30:00Z").status, 0)
        }
        XCTAssertTrue(try cli.run(["status"], at: "2026-02-03T09:00:00Z").out.contains("stable"))
        XCTAssertEqual(try cli.run(["crash", "need-to-be-right", "-m", "back"], at: "2026-02-04T20:00:00Z").status, 0)
        let regressed: Double? = try DatabaseQueue(path: cli.store).read { db in
            try Double.fetchOne(db, sql: "SELECT regressedAt FROM bugs WHERE slug = 'need-to-be-right'")
        }
        let at = try XCTUnwrap(regressed, "this egofix dates the regression")
        // The store as the first egofix left it: no v3, v4 or v5, and their columns gone.
        try DatabaseQueue(path: cli.store).write { db in
            try db.execute(sql: """
                ALTER TABLE bugs DROP COLUMN regressedAt; ALTER TABLE fixes DROP COLUMN retiredAt;
                ALTER TABLE users DROP COLUMN lastEngagementDay; ALTER TABLE completions DROP COLUMN day;
                DELETE FROM grdb_migrations WHERE identifier IN ('v3', 'v4', 'v5');
                """)
        }
        let first = try cli.run(["status"], at: "2026-03-02T09:00:00Z")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.err.contains("The file as it was is kept at \(cli.store).backup-schema-v2."), first.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.store + ".backup-schema-v2"))
        let dated: Double? = try DatabaseQueue(path: cli.store).read { db in
            try Double.fetchOne(db, sql: "SELECT regressedAt FROM bugs WHERE slug = 'need-to-be-right'")
        }
        XCTAssertEqual(dated, at, "the crash that sent it back")
        XCTAssertTrue(first.out.contains("Need to be right") && !first.out.contains("stable"), first.out)
        // Three more crash-free weeks, no diagnostic: still active, as after a regression here.
        XCTAssertFalse(try cli.run(["status"], at: "2026-03-08T09:00:00Z").out.contains("stable"))
        XCTAssertTrue(try cli.run(["status"], at: "2026-03-08T09:05:00Z").err.isEmpty, "copied and said once")
    }
}
