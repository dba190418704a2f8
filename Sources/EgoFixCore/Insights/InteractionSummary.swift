import Foundation

/// What a marked fix's interaction recorded, in one line: "Counted 3 replies: ...", "Answered: ...",
/// "Timer ran out.", "2 steps done." The week page shows it under the fix, and the outcome
/// commands say it back, so a wrong count or option is seen when it is made.
public enum InteractionSummary {
    public static func text(_ c: FixCompletion, fix: Fix) -> String? {
        guard let data = c.outcomeData, let o = try? JSONDecoder().decode(InteractionOutcome.self, from: data) else {
            // A quiz's question, a scenario or a count shown with nothing after it read as a
            // page cut short: an outcome marked without one says so.
            guard c.outcome == .applied || c.outcome == .failed else { return nil }
            switch try? fix.configuration() {
            case .quiz?: return "No answer recorded."
            case .scenario?: return "No choice recorded."
            case .counter?: return "No count recorded."
            // A timed fix's spec says its timer must complete, a multi-step's that its steps are
            // done: marked without either, the page and the command said nothing of it.
            case .timed?: return "No timer recorded."
            case .multiStep?: return "No steps recorded."
            default: return nil
            }
        }
        if let n = o.count {
            if case .counter(let cfg)? = try? fix.configuration() {
                // A description that names its unit says it once: "Counted 3: sentences you finish
                // for someone else." (it read "Counted 3 sentences: sentences you ...").
                if cfg.describesItsUnit { return "Counted \(n): \(cfg.targetDescription)." }
                return "Counted \(Plural.count(n, unit: cfg.unit ?? "times")): \(cfg.targetDescription)."
            }
            return "Counted \(n)."
        }
        if let id = o.optionId {
            switch try? fix.configuration() {
            case .quiz(let q)?: if let chosen = q.options.first(where: { $0.id == id }) { return "Answered: \(chosen.text)" }
            case .scenario(let s)?: if let chosen = s.options.first(where: { $0.id == id }) { return "Chose: \(chosen.text)" }
            default: break
            }
            // The catalogue rewrote the fix since it was answered (the second edition turned
            // quizzes into plain fixes under their numbers): the answer was there and is said to
            // have been, where it left nothing under the prompt.
            // An id as the catalogue writes them ("a" to "d") is named; anything else an import let in is not.
            return (id.utf8.count <= 20 && NameShape.isSlug(id) ? "Option \(id) chosen." : "An option chosen.") + " The fix has changed since; what it offered then is not kept."
        }
        if o.timerCompleted == true { return "Timer ran out." }
        if let s = o.stepsCompleted { return Plural.of(s, "step", "steps") + " done." }
        return nil
    }
}
