import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Fill an empty store with a realistic, seeded demo history (one planted instance of each pattern).",
        discussion: "Refuses a store that already holds a practice, and the default store: name one with --store, EGOFIX_STORE or egofix.toml. The history ends at --now (or $EGOFIX_NOW); without either, at 2026-11-22 20:00 Berlin, not the clock as for other commands.")
    @OptionGroup var options: StoreOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("Years of history, 1 to \(DemoSite.years.upperBound).", valueName: "n")) var years: Int = 1
    @Option(parsing: .unconditional, help: ArgumentHelp("Seed.", valueName: "n")) var seed: UInt64 = 7

    func run() async throws {
        guard DemoSite.years.contains(years) else { throw CLIError("--years must be between \(DemoSite.years.lowerBound) and \(DemoSite.years.upperBound).", code: 64) }
        // A made-up year in the default store would be taken for the person's own: `init` then
        // refuses ("already holds a practice") and `today` goes on from the demo's last day.
        // So would a store named by its own path (egofix.toml's example once was the default path).
        let env = Session.environment()
        let config: WorkspaceConfig
        do { config = try Session.loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        let (path, from) = try Session.storeLocation(flag: options.store, config: config, env: env)
        let standard = StoreLocation.resolve(flag: nil, environment: env.filter { $0.key != "EGOFIX_STORE" })
        if from == .standard || Demo.samePlace(path, standard) {
            throw CLIError("demo writes a made-up history, and \(from == .standard ? "with no --store " : "")it would go into your own store, \(standard). "
                           + "Pass a new path: `egofix demo --store demo.sqlite`. `egofix build --demo` shows the demo site with no store at all.")
        }
        var opts = options
        // The demo's own end unless a clock is given (an empty EGOFIX_NOW gives none, as everywhere).
        if opts.now == nil && (env["EGOFIX_NOW"] ?? "").isEmpty { opts.now = DemoSite.endDate }
        let s = try Session.open(opts, ifMissing: .create)
        do { try await fill(s) } catch {
            // A store made for a demo that was not written (a full disk) is not left behind, empty.
            s.discardMadeStore()
            throw error
        }
    }

    /// `word` as the shell reads it back: as it is when it holds only letters, digits and
    /// `/._-+,:@%~=`, else in single quotes (a store named "my demo.sqlite" gave a line to copy
    /// that failed).
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "/._-+,:@%=".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Whether two paths name one file, also before it or its folders exist: the nearest folder
    /// that exists resolved (links, the current folder), the rest of the path after it, "." and
    /// ".." taken out (the default store named by its path, not there yet, was filled with the demo).
    static func samePlace(_ a: String, _ b: String) -> Bool {
        func place(_ p: String) -> String? {
            let cwd = (try? Session.workingFolder()) ?? "/"
            var parts = (p.hasPrefix("/") ? p : cwd + "/" + p).split(separator: "/").map(String.init)
            var rest: [String] = []
            while true {
                let prefix = "/" + parts.joined(separator: "/")
                if let real = RealPath.of(prefix) {
                    var out = real.split(separator: "/").map(String.init)
                    for c in rest.reversed() {
                        if c == "." || c.isEmpty { continue }
                        if c == ".." { _ = out.popLast() } else { out.append(c) }
                    }
                    return "/" + out.joined(separator: "/")
                }
                guard let last = parts.popLast() else { return nil }
                rest.append(last)
            }
        }
        guard let x = place(a), let y = place(b) else { return false }
        return x == y
    }

    private func fill(_ s: Session) async throws {
        if let u = try await s.repos.users.get() {
            throw CLIError("\(s.storePath) already holds a practice (v\(u.currentVersion)). The demo only fills an empty store: pass --store with a new path.")
        }
        let catalogue = try Session.seedFiles().builtInCatalogue()
        // The store keeps no patterns from the demo: the detectors run on it when asked.
        let practice = DemoHistory.generate(catalogue: catalogue, endingAt: s.now, years: years, seed: seed, calendar: s.calendar,
                                            detect: false)
        let report: ImportReport
        do { report = try s.store.loadPractice(practice) } catch StoreError.importWouldOverwrite(let path, _) {
            // Another egofix wrote a practice while this history was being made.
            throw CLIError("store \(path) holds a practice now (another egofix wrote one meanwhile); `demo` fills only an empty store. Nothing was changed.")
        }
        try await s.ensureCatalogue()
        s.print(["Demo history written to \(Terminal.visible(s.storePath)): \(report.summary).",
                 s.style.dim("// \(years) year\(years == 1 ? "" : "s") ending \(LocalDay(s.now, calendar: s.calendar)), seed \(seed). `egofix build\(options.store.map { " --store " + Demo.shellWord(Terminal.visible($0)) } ?? "")` turns it into a site.")])
    }
}
