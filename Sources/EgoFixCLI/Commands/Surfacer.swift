import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

/// Runs the detectors on the store and shows the pattern `PatternService` surfaces (one a day at most).
enum Surfacer {
    static func run(_ s: Session) async throws -> PatternRun {
        try await DetectionReads.run(s.repos, now: s.now, calendar: s.calendar)
    }

    /// The pattern for this moment, recorded as viewed (a patternViewed event), as lines to print.
    static func surface(_ s: Session, moment: SurfacingMoment) async throws -> [String] {
        try await surface(s, moment: moment, run: try await run(s))
    }

    /// The same, from a detection run made earlier in this command (for example while the day's
    /// fix was being assigned: the detectors read crashes, outcomes and diagnostics, which
    /// opening the day's fix does not change).
    static func surface(_ s: Session, moment: SurfacingMoment, run: PatternRun) async throws -> [String] {
        guard let p = try await PatternService(repos: s.repos, calendar: s.calendar).surface(run, moment: moment, at: s.now) else { return [] }
        let word = p.severity == .alert ? "PATTERN DETECTED" : "PATTERN"
        let head = s.style.paint(word, p.severity == .alert ? Style.crash : Style.skipped)
        // A blank line between the title and the body: without colour the two ran together.
        return Text.headed(head, width: word.count, comment: "// \(p.basis)", style: s.style) + [""] + Text.wrap(p.title)
            + [""] + Text.wrap(p.body).map { s.style.dim($0) } + [""]
    }
}
