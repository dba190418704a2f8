import ArgumentParser
import EgoFixSite

/// `egofix build`: its arguments, as swift-argument-parser reads them and shows them in help.
/// `BuildArguments` runs the build (`SitePipeline`: its steps are listed there).
struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the static site: weekly reports, rollups, changelog, graph, patterns, share cards.",
        discussion: """
        Reads the store and the workspace (the folder of the nearest egofix.toml, from here up; else this \
        folder): its egofix.toml, content/ (weeks/2026-W47.md, versions/1.3.md, pages/*.md), and Templates/ \
        and Assets/, which override the built-in theme file by file. Builds into a temporary folder \
        and swaps it in; unchanged files keep their bytes and mtime.
        """)

    @OptionGroup var options: StoreOptions
    @Option(help: ArgumentHelp("Output folder. Default: `output` in egofix.toml, else site in the workspace.", valueName: "dir")) var out: String?
    @Option(help: ArgumentHelp("Absolute base URL for feed links and share-card meta (https://...).", valueName: "url")) var baseURL: String?
    @Flag(help: ArgumentHelp("Build from the built-in demo history instead of the store. It ends \(DemoSite.endDate.prefix(10)) whatever --now says; `egofix demo` fills a store that ends at --now.")) var demo = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Demo history length in years (with --demo), 1 to \(DemoSite.years.upperBound). Default: 1.", valueName: "n")) var years: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Demo seed (with --demo). Default: 7.", valueName: "n")) var seed: UInt64?
    @Flag(help: .hidden) var stats = false

    /// The command line's values, which `BuildArguments` runs (`BuildFastPath` reads the common
    /// ones without the parser).
    var arguments: BuildArguments {
        BuildArguments(store: options.store, now: options.now, out: out, baseURL: baseURL, demo: demo, years: years, seed: seed, stats: stats)
    }

    func run() async throws { try await arguments.run() }
}
