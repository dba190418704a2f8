import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

/// What `egofix build` was asked to do, as plain values: made by the command line's parser
/// (`Build`) or, for the common lines, by `BuildFastPath`; running it builds the site and prints
/// what the build did.
package struct BuildArguments: Equatable, Sendable {
    var store: String?
    var now: String?
    var out: String?
    var baseURL: String?
    var demo = false
    /// The demo history's length and seed, given only with `demo` (1 year, seed 7 when not given).
    var years: Int?
    var seed: UInt64?
    var stats = false

    /// Builds the site as asked and prints what the build did; the process ends here.
    func run() async throws {
        let started = Date()
        // Given for a build from the store, they were dropped without a word.
        if !demo, years != nil || seed != nil {
            throw CLIError("--\(years != nil ? "years" : "seed") sets the demo history: add --demo to build it, or leave it out to build from the store. Nothing was built.", code: 64)
        }
        let env = Session.environment()
        // egofix.toml's time zone is checked (by ICU) once there is work to do: a rebuild that
        // finds nothing changed has the egofix.toml and the egofix of a build that checked it.
        // --out is the current folder's; egofix.toml's output (already made absolute when the
        // workspace is a folder above) and the default "site" are the workspace's. The workspace
        // is looked for once, and egofix.toml read from it.
        let cwdPath = try Session.workingFolder()
        let workspace = Session.workspace(from: cwdPath)
        let config: WorkspaceConfig
        do { config = try Session.loadConfig(folder: workspace, checkingTimeZone: false) } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        if let problem = config.siteProblems.first { throw CLIError(problem.description) }
        if out?.trimmingCharacters(in: .whitespaces).isEmpty == true { throw CLIError("--out is empty. Give a folder, or leave --out out for egofix.toml's output or site.", code: 64) }
        let outputPath = out.map { BuildArguments.outputPath(Session.expandTilde($0), in: cwdPath) }
            ?? BuildArguments.outputPath(config.output ?? "site", in: workspace)
        var request = SiteBuildRequest.workspace(workspace, config: config, outputPath: outputPath, baseURL: baseURL ?? config.baseURL,
                                                 source: try source(config: config, env: env), env: env)
        request.startedIn = cwdPath == workspace ? nil : cwdPath
        request.releaseAtExit = true
        request.stopsOnInterrupt = true
        // Progress on standard error, for builds long enough to wonder about (and only on a terminal).
        if isatty(STDERR_FILENO) == 1 { request.progress = { StandardStreams.error("egofix: " + $0 + "\n") } }
        let result: SiteBuildResult
        do { result = try await SitePipeline.run(request) } catch let e as SiteBuildFailure {
            throw CLIError(e.description, code: e.signal.map { 128 + $0 } ?? (e.isUsage ? 64 : 1))
        }

        for line in result.notesNotOnTheSite {
            StandardStreams.error("egofix: warning: " + line + "\n")
        }
        if let left = result.previousLeftAt {
            StandardStreams.error("egofix: warning: " + Terminal.visible(left) + " still holds what egofix could not remove of the previous "
                + "site (files that are not yours to remove). Remove it; the next build needs it gone.\n")
        }
        let shown = outputPath.hasPrefix(cwdPath + "/") ? String(outputPath.dropFirst(cwdPath.count + 1)) : outputPath
        let ms = Int(Date().timeIntervalSince(started) * 1000)
        print(Terminal.neutralised("Built \(result.files) files into \(Terminal.visible(shown))/ in \(ms) ms: \(result.written) written, \(result.unchanged) unchanged, \(result.removed) removed."))
        print(Terminal.neutralised("Open \(Terminal.visible(shown))/index.html"))
        if stats {
            let steps = result.stepTimes.map { "\($0.step): \(Int($0.seconds * 1000)) ms" }
            StandardStreams.error((steps + ["share cards: \(result.cardsDrawn) drawn, \(result.cardsReused) reused"]).joined(separator: "\n") + "\n")
        }
        // The build is done and reported: the process ends here, without freeing the history, the
        // pages and the cards one object at a time (the kernel takes the memory back whole).
        try StandardStreams.finish()
        Foundation.exit(0)
    }

    /// Where the practice comes from: the demo, or the store (which must exist).
    private func source(config: WorkspaceConfig, env: [String: String]) throws -> SiteSource {
        if demo {
            return .demo(years: years ?? 1, seed: seed ?? 7, catalogue: {
                // egofix.toml read again, its time zone checked this time (a store build's session does it).
                do { _ = try Session.loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
                return try Session.seedFilesBuiltIn().builtInCatalogue()
            })
        }
        return try StoreBuildSource.source(store: store, now: now, config: config, env: env)
    }

    /// The output folder's path as given when it is plain (as most are), else as Foundation
    /// standardizes it (see `SiteWriter.realPath`).
    static func outputPath(_ given: String, in cwdPath: String) -> String {
        var path = given.hasPrefix("/") ? given : cwdPath + "/" + given
        guard PathName.isPlainAbsolute(path) else {
            return URL(fileURLWithPath: given, relativeTo: URL(fileURLWithPath: cwdPath, isDirectory: true)).standardizedFileURL.path
        }
        if path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
