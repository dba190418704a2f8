import EgoFixCore
import Foundation

extension SQLiteStore {
    /// Writes a whole practice (the demo history) into a store that holds no user records yet
    /// (refused otherwise): the same checks and the same single transaction as an import, so a
    /// generated history goes through the path a user's file does.
    @discardableResult
    public func loadPractice(_ p: Practice) throws -> ImportReport {
        let snapshot = Snapshot(formatVersion: Snapshot.currentFormat, bugs: p.bugs, fixes: p.fixes, completions: p.completions,
                                crashes: p.crashes, users: p.profile.map { [$0] } ?? [], versions: p.versions, events: p.events,
                                patterns: p.patterns, diagnostics: p.diagnostics, education: p.education)
        let data: Data
        do { data = try Snapshot.encoder().encode(snapshot) } catch {
            throw StoreError.database(operation: "loading the practice", reason: "a record does not encode: \(error)")
        }
        return try importJSON(data, replace: false, backupPath: nil)
    }
}
