import Foundation

/// What `PendingFixRule` looks at, read from a store (the rule itself reads no repository).
public enum PendingFixService {
    /// Every pending quick fix and everything assigned on `today`.
    public static func candidates(_ repos: Repositories, fixes: [Fix], today: LocalDay, calendar: Calendar) async throws -> [FixCompletion] {
        try await repos.completions.getPending(fixIds: fixes.filter { $0.type == .quickFix }.map(\.id))
            + (try await givenAround(repos, today: today, calendar: calendar))
    }

    /// Everything that may have been given for `today`: given from two days before through two
    /// days after, since a fix given for today in another time zone was given at an instant that
    /// is another day here (the day it was given for decides, `FixCompletion.givenDay`). Zones are
    /// up to 26 hours apart (Pago Pago and Kiritimati): a day before and after was not enough, and
    /// a fix given in Kiritimati early on Friday was not found back in Pago Pago on its Friday,
    /// which got a second one.
    public static func givenAround(_ repos: Repositories, today: LocalDay, calendar: Calendar) async throws -> [FixCompletion] {
        try await repos.completions.getAssigned(from: today.adding(days: -2).start(in: calendar), to: today.adding(days: 3).start(in: calendar))
    }
}
