import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

/// Runs the detectors on the store and surfaces at most one pattern per run of the tool.
enum Surfacer {
    static func run(_ s: Session) async throws -> PatternRun {
        try await DetectionReads.run(s.repos, now: s.now, calendar: s.calendar)
    }

    /// The pattern for this moment, recorded as viewed (a patternViewed event), as lines to print.
    static func surface(_ s: Session, moment: SurfacingMoment) async throws -> [String] {
        try await surface(s, moment: moment, run: try await run(s))
    }

    /// A finding as first stored (with when it was viewed or dismissed), else as found now:
    /// patterns are never edited, only their instants are added.
    static func asStored(_ p: DetectedPattern, _ stored: [DetectedPattern]) -> DetectedPattern {
        stored.first { $0.id == p.id && $0.deletedAt == nil } ?? p
    }

    /// The same, from a detection run made earlier in this command (for example while the day's
    /// fix was being assigned: the detectors read crashes, outcomes and diagnostics, which
    /// opening the day's fix does not change).
    static func surface(_ s: Session, moment: SurfacingMoment, run: PatternRun) async throws -> [String] {
        guard let user = try await s.repos.users.get() else { return [] }
        let history = try await s.repos.patterns.getAll()
        guard let p = PatternSurfacing.pick(from: run.patterns, history: history, moment: moment, session: SurfacingSession(),
                                            now: s.now, calendar: s.calendar) else { return [] }
        // Shown with today's figures; stored as it first was (the same finding, by its derived
        // id), with only when it was viewed changed: patterns are never edited, and the other
        // machines merge only their instants.
        var record = asStored(p, history)
        record.viewedAt = s.now
        try await s.repos.patterns.save(record)
        try await EventRecorder(repos: s.repos, calendar: s.calendar)
            .record(.patternViewed, userId: user.id, bugId: p.relatedBugIds.first, at: s.now)
        let word = p.severity == .alert ? "PATTERN DETECTED" : "PATTERN"
        let head = s.style.paint(word, p.severity == .alert ? Style.crash : Style.skipped)
        // A blank line between the title and the body: without colour the two ran together.
        return Text.headed(head, width: word.count, comment: "// \(p.basis)", style: s.style) + [""] + Text.wrap(p.title)
            + [""] + Text.wrap(p.body).map { s.style.dim($0) } + [""]
    }
}
