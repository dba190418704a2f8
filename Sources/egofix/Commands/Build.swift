import ArgumentParser
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

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
    @Option(parsing: .unconditional, help: ArgumentHelp("Demo history length in years (with --demo).", valueName: "n")) var years: Int = BuildRequest.defaultYears
    @Option(parsing: .unconditional, help: ArgumentHelp("Demo seed (with --demo).", valueName: "n")) var seed: UInt64 = BuildRequest.defaultSeed
    @Flag(help: .hidden) var stats = false

    var request: BuildRequest {
        BuildRequest(out: out, baseURL: baseURL, demo: demo, years: years, seed: seed, store: options.store, now: options.now,
                     stats: stats)
    }

    func run() async throws {
        try await Build.run(request, parsed: true)
    }

    /// The build `request` asks for; `parsed` says whether swift-argument-parser read it (for --stats).
    static func run(_ request: BuildRequest, parsed: Bool) async throws {
        let started = Date()
        let env = EnvironmentVariables(reading: Session.buildEnvironmentNames)
        let (stats, demo, years, seed) = (request.stats, request.demo, request.years, request.seed)
        // egofix.toml's time zone is checked (by ICU) once there is work to do: a rebuild that
        // finds nothing changed has the egofix.toml and the egofix of a build that checked it.
        let config: WorkspaceConfig
        do { config = try Session.loadConfig(checkingTimeZone: false) } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        let cwdPath = FileManager.default.currentDirectoryPath
        let cwd = URL(fileURLWithPath: cwdPath, isDirectory: true)
        // The output folder's path as given when it is plain (as most are), else as Foundation
        // standardizes it (see `SiteWriter.realPath`).
        let given = request.out ?? config.output ?? "site"
        var outputPath = given.hasPrefix("/") ? given : cwdPath + "/" + given
        if PathName.isPlainAbsolute(outputPath) {
            if outputPath.hasSuffix("/") { outputPath.removeLast() }
        } else {
            outputPath = URL(fileURLWithPath: given, relativeTo: cwd).standardizedFileURL.path
        }
        // What a build killed midway left beside the output (private pages) goes first, whatever
        // this build goes on to do.
        let writer = SiteWriter(outputPath: outputPath)
        writer.removeLeftovers()
        var base = request.baseURL ?? config.baseURL
        if let b = base {
            guard b.hasPrefix("https://") || b.hasPrefix("http://") else { throw CLIError("--base-url must start with https:// or http://.") }
            // The same limits as base_url in egofix.toml: it is copied into every feed entry and card.
            guard b.count <= (WorkspaceConfig.maxValueLength["base_url"] ?? 2048),
                  !b.unicodeScalars.contains(where: Terminal.isControl) else {
                throw CLIError("--base-url must be at most \(WorkspaceConfig.maxValueLength["base_url"] ?? 2048) characters, with no control characters.")
            }
            if !b.hasSuffix("/") { base = b + "/" }
        }
        var phases: [(String, Date)] = [("start", started)]
        func phase(_ name: String) { if stats { phases.append((name, Date())) } }
        let shown = outputPath.hasPrefix(cwdPath + "/") ? String(outputPath.dropFirst(cwdPath.count + 1)) : outputPath
        func finish(files: Int, written: Int, unchanged: Int, removed: Int) {
            let ms = Int(Date().timeIntervalSince(started) * 1000)
            print(Terminal.neutralised("Built \(files) files into \(shown)/ in \(ms) ms: \(written) written, \(unchanged) unchanged, \(removed) removed."))
            print(Terminal.neutralised("Open \(shown)/index.html"))
            if stats {
                var lines = ["command line: " + (parsed ? "parsed by swift-argument-parser" : "read directly (a plain build)")]
                for (i, p) in phases.enumerated().dropFirst() {
                    lines.append("\(p.0): \(Int(p.1.timeIntervalSince(phases[i - 1].1) * 1000)) ms")
                }
                StandardStreams.error(lines.joined(separator: "\n") + "\n")
            }
        }
        let storePath = demo ? nil : StoreLocation.resolve(flag: request.store ?? (env["EGOFIX_STORE"] == nil ? config.store.map(Session.expandTilde) : nil),
                                                           environment: env.dictionary)
        if let path = storePath, !FileManager.default.fileExists(atPath: path) {
            throw CLIError("no store at \(path). `egofix init` starts one; `egofix build --demo` builds the demo site.")
        }

        // Nothing changed since the last build into this folder (same inputs, same egofix, files
        // as that build left them): nothing to do.
        let manifestPath = BuildFingerprint.manifestLocation(for: writer.root, environment: env)
        let clockNow: Date? = demo ? nil : try Session.clock(request.now, environment: env)
        let zone = demo ? DemoSite.zone : (try Session.timeZone(config: config, environment: env)).identifier
        let key = BuildFingerprint.key(workspace: cwdPath, config: config, contentFolder: config.content ?? "content",
                                       source: demo ? .demo(years: years, seed: seed) : .store(path: storePath ?? "", now: clockNow ?? Date()),
                                       zone: zone, title: config.title ?? "EgoFix", baseURL: base)
        phase("inputs hashed")
        let listing = manifestPath.flatMap { SiteManifest.Listing.read(path: $0) }
        phase("manifest read")
        if let listing, listing.key == key {
            do {
                if let count = try writer.unchangedCount(as: listing) {
                    phase("checked, nothing changed")
                    if stats { StandardStreams.error("share cards: 0 drawn, \(listing.cards.count) reused\n") }
                    finish(files: count, written: 0, unchanged: count, removed: 0)
                    return
                }
            } catch let e as SiteWriterError { throw CLIError(e.description) }
        }
        phase("inputs checked")
        // Read again, its time zone checked this time.
        do { _ = try Session.loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        let previous = listing.map(SiteManifest.init)

        // The templates load on another core while the data is made.
        let loading = Parallel.Background { () -> Result<(SiteBuilder, SiteContent), Error> in
            Result {
                let contentFolder = URL(fileURLWithPath: config.content ?? "content", relativeTo: cwd)
                let content = try SiteContent.load(folder: contentFolder, label: config.content ?? "content", workspace: cwd)
                return (try SiteBuilder.load(workspace: cwd), content)
            }
        }
        let data: SiteData
        let now: Date
        let calendar: Calendar
        // A share card the last build drew, for the same card and the same egofix, is kept.
        let previousFiles = previous?.files ?? [:], previousCards = previous?.cardKeys ?? [:]
        let previousRoot = writer.root
        let kept: @Sendable (String, String) -> Data? = { path, key in
            guard previousCards[path] == key, let stamp = previousFiles[path], SiteManifest.stamp(previousRoot + "/" + path) == stamp else {
                return nil
            }
            return FileManager.default.contents(atPath: previousRoot + "/" + path)
        }
        let cardSalt = BuildFingerprint.executableIdentity()
        var early: EarlyCards?
        if demo {
            // The demo's share cards are drawn on the other core while its history is made.
            let catalogue = try Session.seedFilesBuiltIn().builtInCatalogue()
            let cards = EarlyCards(bugs: catalogue.bugs, salt: cardSalt, kept: kept)
            early = cards
            let d = try DemoSite.make(years: years, seed: seed, catalogue: catalogue, onShare: cards.start)
            data = d.data
            now = d.now
            calendar = d.calendar
        } else {
            let s = try Session.open(store: request.store, now: request.now)
            try s.ensureCatalogue()
            data = try await SiteData.load(s.repos)
            now = s.now
            calendar = s.calendar
            // The shared fixes' cards are drawn on the other core while the pages are set up.
            let cards = EarlyCards(bugs: data.bugs, salt: cardSalt, kept: kept)
            cards.start(sharedIn: data)
            early = cards
        }
        phase("data")
        let builder: SiteBuilder
        let content: SiteContent
        do { (builder, content) = try loading.wait().get() } catch let e as SiteContent.LoadError {
            throw CLIError(e.description)
        } catch let e as TemplateError { throw CLIError(e.description) }
        phase("templates")
        // Progress on standard error, for builds long enough to wonder about (and only on a terminal).
        let showProgress = isatty(STDERR_FILENO) == 1
        func progress(_ line: String) {
            guard showProgress else { return }
            StandardStreams.error("egofix: " + line + "\n")
        }
        progress("\(data.completions.count) fixes, \(data.crashes.count) crashes read in \(Int(Date().timeIntervalSince(started) * 1000)) ms; rendering into \(outputPath)")
        var buildStats = SiteBuildStats()
        let reuse: @Sendable (String, String) -> (png: Data, drawn: Bool)? = { [early] path, key in
            if let ready = early?.png(path, key: key) { return ready }
            return kept(path, key).map { (png: $0, drawn: false) }
        }
        // Each file is written into the new site as soon as it is rendered, then the site is swapped in.
        let paths: [String]
        let report: SiteWriteReport
        let site: SiteBuild
        do {
            site = try writer.begin()
            do {
                paths = try builder.build(data: data, content: content,
                                          options: SiteOptions(title: config.title ?? "EgoFix", baseURL: base, now: now, calendar: calendar,
                                                               workspace: cwd, cardSalt: cardSalt,
                                                               patternsAreDetection: demo, remindAt: config.remindAt ?? .standard),
                                          reuseCard: reuse, stats: &buildStats, into: site, release: .atExit)
                phase("rendered and written")
                report = try site.commit()
            } catch {
                site.abandon()
                throw error
            }
        } catch let e as SiteBuildError { throw CLIError(e.description) } catch let e as SiteWriterError { throw CLIError(e.description) }
        phase("swapped in")
        // A note no page shows is said on every build, the no-change ones too: a build that said
        // one leaves a manifest whose key the next build cannot match, so it looks again (its
        // files and share cards are still reused).
        for line in buildStats.notesNotOnTheSite {
            StandardStreams.error("egofix: warning: " + line + "\n")
        }
        let manifestKey = buildStats.notesNotOnTheSite.isEmpty ? key : key + " (notes not on the site)"
        // Best effort: without it the next build simply does all the work.
        if let manifestPath, let bytes = site.manifest(key: manifestKey, cardKeys: buildStats.cardKeys) {
            try? SiteManifest.write(bytes, to: URL(fileURLWithPath: manifestPath))
        }
        phase("manifest")
        if stats {
            StandardStreams.error("share cards: \(buildStats.cardsDrawn) drawn, \(buildStats.cardsReused) reused\n")
        }
        finish(files: paths.count, written: report.written.count, unchanged: report.unchanged.count, removed: report.removed.count)
        // The build is done and reported: the process ends here, without freeing the history, the
        // pages and the cards one object at a time (the kernel takes the memory back whole).
        try StandardStreams.finish()
        Foundation.exit(0)
    }
}

/// `egofix bench-card`, hidden: draws share cards for a sample of the catalogue (every tenth fix)
/// and prints the time per card, for `make bench`.
struct BenchCard: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench-card", abstract: "Time share-card PNGs.",
                                                    shouldDisplay: false)
    @Option(help: "Times each card is drawn.") var `repeat`: Int = 10

    func run() throws {
        let catalogue = try Session.seedFilesBuiltIn().builtInCatalogue()
        var bugs: [UUID: Bug] = [:]
        for b in catalogue.bugs { bugs[b.id] = b }
        let cards = try catalogue.fixes.enumerated().filter { $0.offset % 10 == 0 }.compactMap { item -> ShareCard? in
            guard let bug = bugs[item.element.bugId] else { return nil }
            return try ShareCard(fix: item.element, bug: bug)
        }
        guard !cards.isEmpty, (1...1000).contains(`repeat`) else { throw CLIError("nothing to draw (--repeat 1...1000)") }
        var seconds = (draw: 0.0, encode: 0.0)
        var bytes = 0
        for card in cards { _ = try ShareCardPNG.render(card) }  // warm-up: fonts loaded, caches filled
        for _ in 0..<`repeat` {
            for card in cards { bytes += try ShareCardPNG.render(card, seconds: &seconds).count }
        }
        let n = Double(cards.count * `repeat`)
        print(String(format: "%d cards, %.3f ms per card (%.3f ms drawing, %.3f ms encoding), %d bytes per card",
                     cards.count, (seconds.draw + seconds.encode) * 1000 / n, seconds.draw * 1000 / n, seconds.encode * 1000 / n,
                     bytes / (cards.count * `repeat`)))
    }
}

/// Share cards drawn one at a time on a queue of their own, started as the demo history shares
/// each fix (or, from a store, as soon as the data is read), so they are ready (or nearly) when
/// the pages render. The queue runs at background priority, below the history, the detectors and
/// the day ledger, which the build waits for: the cards fill what is left of the other core (with
/// the cards a step above, the detectors shared the core with them and the main thread waited for
/// them). A card the queue has not begun by the time the pages
/// ask for it is drawn by the thread that asks. A card an earlier build drew is kept instead; one
/// that fails to draw is left for the page build, which reports the error.
final class EarlyCards: @unchecked Sendable {
    private final class Card: @unchecked Sendable {
        let key: String
        let card: ShareCard
        let path: String
        let done = DispatchSemaphore(value: 0)
        /// Set, under the cards' lock, by the one thread that makes the PNG.
        var claimed = false
        var png: Data?
        var drawn = false
        init(key: String, card: ShareCard, path: String) {
            self.key = key
            self.card = card
            self.path = path
        }
    }

    private let queue = DispatchQueue(label: "egofix.share-cards", qos: .background)
    private let lock = NSLock()
    private var cards: [String: Card] = [:]
    private let bugs: [UUID: Bug]
    private let salt: String
    private let kept: @Sendable (String, String) -> Data?

    init(bugs: [Bug], salt: String, kept: @escaping @Sendable (String, String) -> Data?) {
        var byId: [UUID: Bug] = [:]
        for b in bugs { byId[b.id] = b }
        self.bugs = byId
        self.salt = salt
        self.kept = kept
    }

    func start(_ fix: Fix) {
        guard let bug = bugs[fix.bugId], let card = try? ShareCard(fix: fix, bug: bug) else { return }
        let path = ShareCardPNG.path(card)
        lock.lock()
        guard cards[path] == nil else {
            lock.unlock()
            return
        }
        let entry = Card(key: ShareCardPNG.key(card, salt: salt), card: card, path: path)
        cards[path] = entry
        lock.unlock()
        queue.async { if self.claim(entry) { self.make(entry) } }
    }

    /// The cards of the data's shared fixes (the cards the site will have).
    func start(sharedIn data: SiteData) {
        var fixes: [UUID: Fix] = [:]
        for f in data.fixes { fixes[f.id] = f }
        for id in data.sharedFixIds { if let fix = fixes[id] { start(fix) } }
    }

    /// True for the one thread that gets to make the card's PNG.
    private func claim(_ entry: Card) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if entry.claimed { return false }
        entry.claimed = true
        return true
    }

    private func make(_ entry: Card) {
        if let png = kept(entry.path, entry.key) {
            entry.png = png
        } else {
            entry.png = try? ShareCardPNG.render(entry.card)
            entry.drawn = true
        }
        entry.done.signal()
    }

    /// The card's PNG once it is ready (made here if the queue has not begun it), if it was
    /// started for this key and drew.
    func png(_ path: String, key: String) -> (png: Data, drawn: Bool)? {
        lock.lock()
        let entry = cards[path]
        lock.unlock()
        guard let entry, entry.key == key else { return nil }
        if claim(entry) { make(entry) }
        entry.done.wait()
        entry.done.signal()  // ready for anyone who asks again
        guard let png = entry.png else { return nil }
        return (png, entry.drawn)
    }
}

struct Share: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a fix: the next build writes its public card to share/. Only the fix's text, never anything about you.")

    @OptionGroup var options: StoreOptions
    @Argument(help: ArgumentHelp("The fix number (37, #037 or FIX #037). Default: today's fix.", valueName: "fix")) var fix: String?
    @Flag(help: "Take the fix's card back out: the next build removes it from share/.") var remove = false

    /// The number in "37", "#037", "FIX #037" or "fix 37": digits alone after the optional
    /// "FIX" and "#", nothing else ("1-2", "0x25" and "-37" are not fix numbers).
    static func number(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.uppercased().hasPrefix("FIX") { rest = rest.dropFirst(3).drop(while: { $0 == " " }) }
        if rest.hasPrefix("#") { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.count <= 6, rest.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(rest)
    }

    func run() async throws {
        let s = try Session.open(options)
        try s.ensureCatalogue()
        let user = try await s.profile()
        let chosen: Fix
        if let fix {
            guard let n = Share.number(fix) else {
                throw CLIError("'\(Terminal.visible(fix))' is not a fix number. Give it as shown on the card: 37, #037 or FIX #037.")
            }
            guard let f = try await s.repos.fixes.getAll().first(where: { $0.number == n }) else {
                throw CLIError("no fix '\(fix)' in the catalogue. Give its number, as shown on the card (FIX #037 is 37).")
            }
            chosen = f
        } else {
            guard !remove else { throw CLIError("--remove needs the fix number: egofix share --remove 37.") }
            guard let today = try await DailyFixService(repos: s.repos, calendar: s.calendar).todaysAssignment(at: s.now) else {
                throw CLIError("no fix today to share. Run `egofix today`, or give a fix number.")
            }
            chosen = today.fix
        }
        if remove {
            let shares = try await s.repos.events.getAll().filter { $0.eventType == .fixShared && $0.fixId == chosen.id && $0.deletedAt == nil }
            guard !shares.isEmpty else { throw CLIError("\(chosen.label) is not shared. Nothing changed.") }
            for e in shares { try await s.repos.events.delete(e.id) }
            s.print(["\(chosen.label) unshared. The next `egofix build` removes its card from share/."])
            return
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
