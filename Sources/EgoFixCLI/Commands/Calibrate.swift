import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

struct Calibrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Run the detectors on seeded random histories with nothing planted; report how often an alert fires.",
        discussion: "A trustworthy detector stays quiet on noise. The target is an alert rate of at most 5%.")
    @Option(parsing: .unconditional, help: ArgumentHelp("Histories to generate, 1 to 100000.", valueName: "n")) var runs: Int = 200
    @Option(parsing: .unconditional, help: ArgumentHelp("Seed.", valueName: "n")) var seed: UInt64 = 1
    @Flag(help: "Print JSON (alertRate, insightRate, per pattern type).") var json = false

    struct JSONLine: Encodable { let type: String, observations: Int, insights: Int, alerts: Int }
    struct JSONOutput: Encodable {
        let runs: Int, seed: UInt64, runsWithAlert: Int, runsWithInsight: Int, alertRate: Double, insightRate: Double
        let byType: [JSONLine]
    }

    func run() async throws {
        guard (1...100_000).contains(runs) else { throw CLIError("--runs must be between 1 and 100000.", code: 64) }
        let r = Calibration.run(runs: runs, seed: seed)
        if json {
            Swift.print(try JSONOut.encode(JSONOutput(
                runs: r.runs, seed: r.seed, runsWithAlert: r.runsWithAlert, runsWithInsight: r.runsWithInsight,
                alertRate: r.alertRate, insightRate: r.insightRate,
                byType: r.lines.map { JSONLine(type: $0.patternType.rawValue, observations: $0.observations, insights: $0.insights, alerts: $0.alerts) })))
            return
        }
        var out = Text.fitted(r.summary) + [""]
        for l in r.lines { out.append(pad(l.patternType.rawValue, 16) + " alerts \(l.alerts), insights \(l.insights), observations \(l.observations)") }
        out.append("")
        out.append(r.alertRate <= 0.05 ? "Alert rate within the 5% target." : "Alert rate above the 5% target.")
        Swift.print(out.joined(separator: "\n"))
    }
}
