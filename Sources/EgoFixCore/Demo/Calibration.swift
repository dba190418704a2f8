import Foundation

/// How often the detectors cry wolf: every detector run over seeded histories in which nothing
/// was planted — bugs independent of each other and stationary, skips independent of the bug,
/// contexts independent of the intensity, crash times drawn like every other use of the tool.
/// Anything found there is chance, so the share of histories with an alert is the false-alarm rate.
public struct CalibrationReport: Sendable, Equatable {
    /// Patterns found across all runs, for one pattern type.
    public struct Line: Sendable, Equatable {
        public let patternType: PatternType
        public let observations: Int
        public let insights: Int
        public let alerts: Int
    }

    public let runs: Int
    public let seed: UInt64
    public let years: Int
    /// Runs in which at least one alert-severity pattern fired.
    public let runsWithAlert: Int
    /// Runs in which at least one insight or alert fired.
    public let runsWithInsight: Int
    /// One line per pattern type, in `PatternType.allCases` order.
    public let lines: [Line]

    public var alertRate: Double { runs == 0 ? 0 : Double(runsWithAlert) / Double(runs) }
    public var insightRate: Double { runs == 0 ? 0 : Double(runsWithInsight) / Double(runs) }

    /// "200 histories with nothing planted: an alert in 3 (1.5%), an insight or stronger in 40 (20.0%)."
    public var summary: String {
        let a = String(format: "%.1f%%", alertRate * 100), i = String(format: "%.1f%%", insightRate * 100)
        return "\(runs) histories with nothing planted: an alert in \(runsWithAlert) (\(a)), an insight or stronger in \(runsWithInsight) (\(i))."
    }
}

public enum Calibration {
    /// A fixed end for the calibration histories, so the report depends only on its arguments.
    public static let defaultEnd = Date(timeIntervalSince1970: 1_795_348_800)   // 2026-11-22 12:00 UTC

    /// Runs `runs` null histories of `years` years each, seeded from `seed`, and counts what fired.
    public static func run(runs: Int, seed: UInt64, catalogue: SeedCatalogue = DemoCatalogue.synthetic(),
                           endingAt: Date = Calibration.defaultEnd, calendar: Calendar? = nil,
                           years: Int = 1) -> CalibrationReport {
        let cal = calendar ?? UserCalendar.make(timeZone: TimeZone(secondsFromGMT: 0) ?? TimeZone.current)
        var alerts = 0, insights = 0
        var counts = [[Int]](repeating: [0, 0, 0], count: PatternType.allCases.count)
        for i in 0..<max(0, runs) {
            let runSeed = StableHash.fnv1a(["calibration", String(seed), String(i)])
            var sim = DemoSimulator(catalogue: catalogue, endingAt: endingAt, years: max(1, years), seed: runSeed,
                                    calendar: cal, mode: .null)
            let data = sim.run()
            let found = PatternEngine.run(events: data.events, diagnostics: data.diagnostics,
                                          context: DetectionContext(practice: data, now: endingAt, calendar: cal, seed: runSeed)).patterns
            if found.contains(where: { $0.severity == .alert }) { alerts += 1 }
            if found.contains(where: { $0.severity >= .insight }) { insights += 1 }
            for p in found {
                guard let t = PatternType.allCases.firstIndex(of: p.patternType) else { continue }
                counts[t][p.severity.rank] += 1
            }
        }
        let lines = PatternType.allCases.enumerated().map { k, t in
            CalibrationReport.Line(patternType: t, observations: counts[k][0], insights: counts[k][1], alerts: counts[k][2])
        }
        return CalibrationReport(runs: max(0, runs), seed: seed, years: max(1, years), runsWithAlert: alerts,
                                 runsWithInsight: insights, lines: lines)
    }
}
