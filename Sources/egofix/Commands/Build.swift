import ArgumentParser
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
    @Option(help: ArgumentHelp("Demo history length in years (with --demo).", valueName: "n")) var years: Int = 1
    @Option(help: ArgumentHelp("Demo seed (with --demo).", valueName: "n")) var seed: UInt64 = 7

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        let config: WorkspaceConfig
        do { config = try Session.loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let output = URL(fileURLWithPath: out ?? config.output ?? "site", relativeTo: cwd).standardizedFileURL
        var base = baseURL ?? config.baseURL
        if let b = base {
            guard b.hasPrefix("https://") || b.hasPrefix("http://") else { throw CLIError("--base-url must start with https:// or http://.") }
            if !b.hasSuffix("/") { base = b + "/" }
        }
        let started = Date()
        let data: SiteData
        let now: Date
        let calendar: Calendar
        if demo {
            let d = try DemoSite.make(years: years, seed: seed)
            data = d.data
            now = d.now
            calendar = d.calendar
        } else {
            let path = StoreLocation.resolve(flag: options.store ?? (env["EGOFIX_STORE"] == nil ? config.store.map(Session.expandTilde) : nil),
                                             environment: env)
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIError("no store at \(path). `egofix init` starts one; `egofix build --demo` builds the demo site.")
            }
            let s = try Session.open(options)
            try s.ensureCatalogue()
            data = try await SiteData.load(s.repos)
            now = s.now
            calendar = s.calendar
        }
        let contentFolder = URL(fileURLWithPath: config.content ?? "content", relativeTo: cwd)
        let content: SiteContent
        do { content = try SiteContent.load(folder: contentFolder, label: config.content ?? "content") } catch let e as SiteContent.LoadError {
            throw CLIError(e.description)
        }
        let builder: SiteBuilder
        do { builder = try SiteBuilder.load(workspace: cwd) } catch let e as TemplateError { throw CLIError(e.description) }
        // Progress on standard error, for builds long enough to wonder about (and only on a terminal).
        let showProgress = isatty(STDERR_FILENO) == 1
        func progress(_ line: String) {
            guard showProgress else { return }
            FileHandle.standardError.write(Data(("egofix: " + line + "\n").utf8))
        }
        progress("\(data.completions.count) fixes, \(data.crashes.count) crashes read in \(Int(Date().timeIntervalSince(started) * 1000)) ms; rendering")
        let files: [(path: String, data: Data)]
        do {
            files = try builder.build(data: data, content: content,
                                      options: SiteOptions(title: config.title ?? "EgoFix", baseURL: base, now: now, calendar: calendar,
                                                           workspace: cwd))
        } catch let e as SiteBuildError { throw CLIError(e.description) }
        progress("\(files.count) files rendered in \(Int(Date().timeIntervalSince(started) * 1000)) ms; writing \(output.path)")
        let report: SiteWriteReport
        do { report = try SiteWriter(output: output).write(files) } catch let e as SiteWriterError { throw CLIError(e.description) }
        let ms = Int(Date().timeIntervalSince(started) * 1000)
        let shown = output.path.hasPrefix(cwd.path + "/") ? String(output.path.dropFirst(cwd.path.count + 1)) : output.path
        print("Built \(files.count) files into \(shown)/ in \(ms) ms: \(report.written.count) written, \(report.unchanged.count) unchanged, \(report.removed.count) removed.")
        print("Open \(shown)/index.html")
    }
}

struct Share: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Share a fix: the next build writes its public card to share/. Only the fix's text, never anything about you.")

    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The fix number (37, #037 or FIX #037). Default: today's fix.", valueName: "fix")) var fix: String?

    func run() async throws {
        let s = try Session.open(options)
        try s.ensureCatalogue()
        let user = try await s.profile()
        let chosen: Fix
        if let fix {
            let digits = fix.filter(\.isNumber)
            guard let n = Int(digits), let f = try await s.repos.fixes.getAll().first(where: { $0.number == n }) else {
                throw CLIError("no fix '\(fix)' in the catalogue. Give its number, as shown on the card (FIX #037 is 37).")
            }
            chosen = f
        } else {
            guard let today = try await DailyFixService(repos: s.repos, calendar: s.calendar).todaysAssignment(at: s.now) else {
                throw CLIError("no fix today to share. Run `egofix today`, or give a fix number.")
            }
            chosen = today.fix
        }
        guard let bug = try await s.repos.bugs.getById(chosen.bugId) else { throw CLIError("\(chosen.label) has no bug in the catalogue.") }
        let card = try ShareCard(fix: chosen, bug: bug)
        try await EventRecorder(repos: s.repos, calendar: s.calendar).record(.fixShared, userId: user.id, bugId: bug.id, fixId: chosen.id, at: s.now)
        var lines = ["EgoFix", ""] + Text.wrap(card.prompt)
        if let c = card.inlineComment { lines += [""] + Text.wrapComment(c) }
        lines += ["", s.style.dim("// Shared. `egofix build` writes share/\(card.slug)/ (page, card.svg, card.png). Nothing about you is in it.")]
        s.print(lines)
    }
}
