import Foundation

/// One bug's rating held up against what was logged about it in the same week.
public struct MirrorLine: Sendable, Equatable {
    public let bugId: UUID
    public let title: String
    public let said: BugIntensity
    public let crashes: Int
    public let applied: Int
    public let skipped: Int
    public let failed: Int
    /// Whether the rating and the log tell the same story.
    public let agrees: Bool
    /// "You said quiet. You logged 2 crashes about it."
    public let text: String
}

/// The mirror check: the week's diagnostic next to the week's log.
///
/// - quiet, with a crash about it that week, or with two or more of its fixes failed: does not agree.
/// - present, with three or more crashes about it: does not agree (that is loud by most measures).
/// - loud, with no crash and no failed fix about it: does not agree.
/// - anything else agrees.
///
/// The week is the ISO week the diagnostic reviews, in the user's time zone.
///
/// Counts are written as the patterns write them: digits inside a sentence ("You logged 3
/// crashes about it", beside the week's counts, which are digits), a word opening one ("Two
/// fixes for it failed"), "no" for none.
public enum MirrorCheck {
    public static func check(_ diagnostic: WeeklyDiagnostic, practice: Practice, calendar cal: Calendar) -> [MirrorLine] {
        check(diagnostic, ledger: DayLedger(practice, calendar: cal))
    }

    /// The same, reading the week from a ledger built once for many weeks: each call costs the
    /// week's records, not the whole history. The week's crashes and marked fixes are those that
    /// counted on its days where they were made, as the week's counts and day lists have them (a
    /// crash logged on a Sunday in Los Angeles is in that week in a site built in Berlin).
    public static func check(_ diagnostic: WeeklyDiagnostic, ledger: DayLedger) -> [MirrorLine] {
        let week = diagnostic.week(in: ledger.calendar)
        let (crashes, completions) = ledger.records(from: week, through: week.adding(days: 6))
        let marked = completions.filter { $0.outcome != .pending && $0.completedAt != nil }
        return lines(diagnostic, crashes: crashes, marked: marked, fixes: ledger.fixes, bugs: ledger.bugs)
    }

    static func lines(_ diagnostic: WeeklyDiagnostic, crashes: [Crash], marked: [FixCompletion], fixes: [UUID: Fix],
                      bugs: [UUID: Bug]) -> [MirrorLine] {
        var seen = Set<UUID>()
        var out: [MirrorLine] = []
        for r in diagnostic.responses where seen.insert(r.bugId).inserted {
            var n = 0
            for c in crashes where c.bugId == r.bugId { n += 1 }
            var applied = 0, skipped = 0, failed = 0
            for c in marked where fixes[c.fixId]?.bugId == r.bugId {
                switch c.outcome {
                case .applied: applied += 1
                case .skipped: skipped += 1
                case .failed: failed += 1
                case .pending: break
                }
            }
            // One string, reserved once: "You said quiet. You logged 1 crash about it."
            var text = ""
            text.reserveCapacity(128)
            text += "You said "
            text += r.intensity.rawValue
            text += "."
            func crashLine() {
                text += " You logged "
                text += n == 0 ? "no crashes" : Plural.of(n, "crash", "crashes")
                text += " about it."
            }
            func failedLine() {
                text += " "
                text += PatternCopy.sentence(Plural.inWords(failed, "fix", "fixes"))
                text += " for it failed"
            }
            let agrees: Bool
            switch r.intensity {
            case .quiet:
                if n > 0 {
                    agrees = false
                    crashLine()
                } else if failed >= 2 {
                    agrees = false
                    failedLine()
                    text += " that week."
                } else {
                    agrees = true
                    text += " The log agrees."
                }
            case .present:
                agrees = n < 3
                crashLine()
                if !agrees { text += " Present is a generous word for that." }
            case .loud:
                if n == 0 && failed == 0 {
                    agrees = false
                    text += " You logged nothing about it that week"
                    if applied > 0 {
                        text += ", and applied "
                        text += Plural.of(applied, "fix", "fixes")
                        text += " for it."
                    } else {
                        text += "."
                    }
                    text += " Loud on the inside, quiet in the log."
                } else {
                    agrees = true
                    if n > 0 {
                        crashLine()
                    } else {
                        failedLine()
                        text += "."
                    }
                }
            }
            out.append(MirrorLine(bugId: r.bugId, title: bugs[r.bugId]?.title ?? "Unnamed bug", said: r.intensity,
                                  crashes: n, applied: applied, skipped: skipped, failed: failed, agrees: agrees, text: text))
        }
        return out
    }
}
