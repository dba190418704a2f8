import Foundation

/// How the insights read a practice. Soft-deleted records are ignored everywhere.
extension Practice {
    /// The records not deleted, in time order, ties by id (records usually come in that order
    /// with none deleted: then the array itself).
    var liveCompletions: [FixCompletion] {
        RecordOrder.sorted(completions, keep: { $0.deletedAt == nil }, at: { $0.completedAt ?? $0.assignedAt }, id: { $0.id })
    }

    var liveCrashes: [Crash] {
        RecordOrder.sorted(crashes, keep: { $0.deletedAt == nil }, at: { $0.crashedAt }, id: { $0.id })
    }

    var liveEvents: [AnalyticsEvent] {
        RecordOrder.sorted(events, keep: { $0.deletedAt == nil }, at: { $0.timestamp }, id: { $0.id })
    }

    var liveDiagnostics: [WeeklyDiagnostic] {
        RecordOrder.sorted(diagnostics, keep: { $0.deletedAt == nil }, at: { $0.weekStarting }, id: { $0.id })
    }

    func fixIndex() -> [UUID: Fix] {
        var out: [UUID: Fix] = [:]
        for f in fixes { out[f.id] = f }
        return out
    }

    func bugIndex() -> [UUID: Bug] {
        var out: [UUID: Bug] = [:]
        for b in bugs { out[b.id] = b }
        return out
    }
}
