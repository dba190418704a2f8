import Foundation

/// Crash → quick fix: the quick fix for the crashed bug that has waited longest (never used first).
public enum CrashRules {
    public static func quickFix(for bugId: UUID, fixes: [Fix], completions: [FixCompletion],
                                userId: UUID, day: LocalDay) -> Fix? {
        // Indexes, fields read in place: copying each fix out would retain and release all its text.
        let quick = fixes.indices.filter { fixes[$0].isOffered && fixes[$0].bugId == bugId && fixes[$0].type == .quickFix }
        guard !quick.isEmpty else { return nil }
        var lastUsed: [UUID: Date] = Dictionary(minimumCapacity: completions.count)
        for i in completions.indices where completions[i].deletedAt == nil {
            let id = completions[i].fixId
            lastUsed[id] = max(lastUsed[id] ?? .distantPast, completions[i].assignedAt)
        }
        return quick.min { i, j in
            let a = fixes[i].id, b = fixes[j].id
            let ua = lastUsed[a] ?? .distantPast, ub = lastUsed[b] ?? .distantPast
            if ua != ub { return ua < ub }
            let ha = StableHash.fnv1a([userId.uuidString, String(day.ordinal), a.uuidString])
            let hb = StableHash.fnv1a([userId.uuidString, String(day.ordinal), b.uuidString])
            return ha != hb ? ha < hb : fixes[i].number < fixes[j].number
        }.map { fixes[$0] }
    }
}
