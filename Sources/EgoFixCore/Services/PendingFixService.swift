import Foundation

/// What `PendingFixRule` looks at, read from a store (the rule itself reads no repository).
public enum PendingFixService {
    /// Every pending quick fix and everything assigned on `today`.
    public static func candidates(_ repos: Repositories, fixes: [Fix], today: LocalDay, calendar: Calendar) async throws -> [FixCompletion] {
        try await repos.completions.getPending(fixIds: fixes.filter { $0.type == .quickFix }.map(\.id))
            // A day either side: the fix given for today may have been given in another time zone.
            + (try await repos.completions.getAssigned(from: today.adding(days: -1).start(in: calendar), to: today.adding(days: 2).start(in: calendar)))
    }
}
