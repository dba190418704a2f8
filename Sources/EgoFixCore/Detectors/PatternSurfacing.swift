import Foundation

/// Where a pattern may appear.
public enum SurfacingMoment: String, Sendable, CaseIterable, Codable {
    /// Before the day's fix: alerts only.
    case beforeDailyFix
    /// After an outcome is marked: insights (and an alert not yet shown).
    case afterOutcome
    /// The patterns page: everything, observations included.
    case patternsPage

    public var allowed: [PatternSeverity] {
        switch self {
        case .beforeDailyFix: return [.alert]
        case .afterOutcome: return [.alert, .insight]
        case .patternsPage: return [.alert, .insight, .observation]
        }
    }
}

/// What has already been shown in this session (one run of the tool, one page view).
public struct SurfacingSession: Sendable, Equatable {
    public var shownPatternIds: [UUID]

    public init(shownPatternIds: [UUID] = []) { self.shownPatternIds = shownPatternIds }
}

/// The surfacing rules, pure:
///
/// - at most one pattern per session, and at most one per local day across commands (the viewing
///   time is stored with the pattern);
/// - the same pattern type not within 14 days of its last viewing (viewedAt or dismissedAt);
/// - alert > insight > observation, then the lower p-value, then the newer;
/// - alerts before the daily fix, insights after an outcome, observations only on the patterns page;
/// - a dismissed or deleted pattern does not come back, nor any pattern of a type dismissed
///   (`egofix patterns --dismiss TYPE`: a new finding of that type, about another bug or hour,
///   surfaced again once the cooldown was over).
public enum PatternSurfacing {
    /// The one pattern to show at `moment`, or nil. `history` is every pattern stored so far
    /// (with viewedAt / dismissedAt); `candidates` may overlap it.
    public static func pick(from candidates: [DetectedPattern], history: [DetectedPattern], moment: SurfacingMoment,
                            session: SurfacingSession, now: Date, calendar: Calendar) -> DetectedPattern? {
        guard session.shownPatternIds.isEmpty else { return nil }
        // One per local day across commands: the store remembers what was viewed when.
        guard !surfacedToday(history, now: now, calendar: calendar) else { return nil }
        let dismissed = Set((history + candidates).filter { $0.dismissedAt != nil || $0.deletedAt != nil }.map(\.id))
        let dismissedTypes = Set((history + candidates).filter { $0.dismissedAt != nil && $0.deletedAt == nil }.map(\.patternType))
        let eligible = candidates.filter { p in
            p.deletedAt == nil && p.dismissedAt == nil && !dismissed.contains(p.id) && !dismissedTypes.contains(p.patternType)
                && moment.allowed.contains(p.severity)
                && !isCoolingDown(p.patternType, history: history + candidates, now: now, calendar: calendar)
        }
        return eligible.sorted(by: order).first
    }

    /// Whether a pattern was already surfaced (viewed) on the local day of `now`.
    public static func surfacedToday(_ history: [DetectedPattern], now: Date, calendar: Calendar) -> Bool {
        let today = LocalDay(now, calendar: calendar)
        return history.contains { p in p.deletedAt == nil && p.viewedAt.map { $0 <= now && LocalDay($0, calendar: calendar) == today } ?? false }
    }

    /// True while a pattern of this type was viewed (or dismissed) fewer than 14 local days ago.
    public static func isCoolingDown(_ type: PatternType, history: [DetectedPattern], now: Date, calendar: Calendar) -> Bool {
        let seen = history.filter { $0.patternType == type }.compactMap { p -> Date? in
            [p.viewedAt, p.dismissedAt].compactMap { $0 }.max()
        }.filter { $0 <= now }
        guard let last = seen.max() else { return false }
        return LocalDay(now, calendar: calendar).days(since: LocalDay(last, calendar: calendar)) < Thresholds.patternCooldownDays
    }

    /// Whether a page other than the patterns page (the dashboard, a week's report) may show a
    /// pattern: an alert or an insight, not deleted or dismissed, nor of a dismissed type
    /// (`history`: every pattern stored). Observations stay on the patterns page. The day's limit
    /// and the cooldown are for interruptions; a page is read when its reader chooses, and
    /// building it views nothing.
    public static func showsOnPages(history: [DetectedPattern]) -> @Sendable (DetectedPattern) -> Bool {
        let dismissed = Set(history.filter { $0.dismissedAt != nil || $0.deletedAt != nil }.map(\.id))
        let dismissedTypes = Set(history.filter { $0.dismissedAt != nil && $0.deletedAt == nil }.map(\.patternType))
        return { p in
            p.deletedAt == nil && p.dismissedAt == nil && p.severity != .observation
                && !dismissed.contains(p.id) && !dismissedTypes.contains(p.patternType)
        }
    }

    /// The patterns page: every live pattern, strongest first, dismissed ones last. A pattern is
    /// dismissed when it, or any stored pattern of its type (`history`), was: a run's fresh
    /// findings carry no dismissal, and a dismissed type came first, unmarked.
    public static func page(_ patterns: [DetectedPattern], history: [DetectedPattern]) -> [(pattern: DetectedPattern, dismissed: Bool)] {
        let isDismissed = dismissal(history: history)
        return patterns.filter { $0.deletedAt == nil }.map { ($0, isDismissed($0)) }.sorted { a, b in
            a.dismissed != b.dismissed ? !a.dismissed : order(a.pattern, b.pattern)
        }
    }

    /// Whether a pattern is dismissed, itself or by its type (`egofix patterns --dismiss TYPE`).
    public static func dismissal(history: [DetectedPattern]) -> @Sendable (DetectedPattern) -> Bool {
        let ids = Set(history.filter { $0.dismissedAt != nil }.map(\.id))
        let types = Set(history.filter { $0.dismissedAt != nil && $0.deletedAt == nil }.map(\.patternType))
        return { p in p.dismissedAt != nil || ids.contains(p.id) || types.contains(p.patternType) }
    }

    /// Strongest first; for equal strength the newer detection first.
    static func order(_ a: DetectedPattern, _ b: DetectedPattern) -> Bool {
        if a.severity != b.severity { return a.severity > b.severity }
        if a.pValue != b.pValue { return a.pValue < b.pValue }
        if a.detectedAt != b.detectedAt { return a.detectedAt > b.detectedAt }
        if a.patternType != b.patternType { return a.patternType.rawValue < b.patternType.rawValue }
        return a.id.uuidString < b.id.uuidString
    }
}
