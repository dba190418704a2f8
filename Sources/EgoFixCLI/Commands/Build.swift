import ArgumentParser
import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

/// `egofix build`: reads its arguments and the workspace, runs the site's build pipeline
/// (`SitePipeline`: its steps are listed there) and prints what it did.
struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the static site: weekly reports, rollups, changelog, graph, patterns, share cards.",
        discussion: """
        Reads the store, ./content (weeks/2026-W47.md, versions/1.3.md, pages/*.md) and ./egofix.toml. \
        ./Templates and ./Assets override the built-in theme file by file. Builds into a temporary folder \
        and swaps it in; unchanged files keep their bytes and mtime.
        """)

    @OptionGroup var options: StoreOptions
    @Option(help: ArgumentHelp("Output folder. Default: `output` in egofix.toml, else ./site.", valueName: "dir")) var out: String?
    @Option(help: ArgumentHelp("Absolute base URL for feed links and share-card meta (https://...).", valueName: "url")) var baseURL: String?
    @Flag(help: "Build from the built-in demo history instead of the store.") var demo = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Demo history length in years (with --demo).", valueName: "n")) var years: Int = 1
    @Option(parsing: .unconditional, help: ArgumentHelp("Demo seed (with --demo).", valueName: "n")) var seed: UInt64 = 7
    @Flag(help: .hidden) var stats = false

    func run() async throws {
        let started = Date()
        let env = Session.environment()
        // egofix.toml's time zone is checked (by ICU) once there is work to do: a rebuild that
        // finds nothing changed has the egofix.toml and the egofix of a build that checked it.
        let config: WorkspaceConfig
        do { config = try Session.loadConfig(checkingTimeZone: false) } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        let cwdPath = try Session.workingFolder()
        let outputPath = Build.outputPath(out ?? config.output ?? "site", in: cwdPath)
        var request = SiteBuildRequest(workspace: cwdPath, outputPath: outputPath, contentFolder: config.content ?? "content",
                                       title: config.title ?? "EgoFix", baseURL: baseURL ?? config.baseURL,
                                       source: try source(config: config, env: env),
                                       manifestPath: BuildFingerprint.manifestLocation(for: outputPath, xdgCacheHome: env["XDG_CACHE_HOME"],
                                                                                       home: env["HOME"]))
        request.releaseAtExit = true
        request.remindAt = config.remindAt ?? .standard
        // Progress on standard error, for builds long enough to wonder about (and only on a terminal).
        if isatty(STDERR_FILENO) == 1 { request.progress = { StandardStreams.error("egofix: " + $0 + "\n") } }
        let result: SiteBuildResult
        do { result = try await SitePipeline.run(request) } catch let e as SiteBuildFailure { throw CLIError(e.description) }

        for line in result.notesNotOnTheSite {
            StandardStreams.error("egofix: warning: " + line + "\n")
        }
        let shown = outputPath.hasPrefix(cwdPath + "/") ? String(outputPath.dropFirst(cwdPath.count + 1)) : outputPath
        let ms = Int(Date().timeIntervalSince(started) * 1000)
        print(Terminal.neutralised("Built \(result.files) files into \(shown)/ in \(ms) ms: \(result.written) written, \(result.unchanged) unchanged, \(result.removed) removed."))
        print(Terminal.neutralised("Open \(shown)/index.html"))
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
            return .demo(years: years, seed: seed, catalogue: {
                // egofix.toml read again, its time zone checked this time (a store build's session does it).
                do { _ = try Session.loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
                return try Session.seedFilesBuiltIn().builtInCatalogue()
            })
        }
        return try StoreBuildSource.source(options: options, config: config, env: env)
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
