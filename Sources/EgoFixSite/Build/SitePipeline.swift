import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A site build as a list of named steps, run in order (`SitePipeline.steps`):
///
/// 1. check the request: the base URL
/// 2. check for changes: the same inputs as the last build into this folder, and its files as it
///    left them: nothing to do, and the build stops here
/// 3. load templates and content: the theme and the user's Markdown, on another core
/// 4. load practice: the store's records, or the demo history
/// 5. draw share cards: the shared fixes' PNGs, on another core at background priority
/// 6. render pages: every page, the feed, the theme's files and the cards, written into a new
///    folder as each is made
/// 7. swap in: the new folder replaces the site
/// 8. write manifest: what the next build's change check compares against
///
/// The command line makes a `SiteBuildRequest`, runs the pipeline and prints its `SiteBuildResult`.
public final class SitePipeline: @unchecked Sendable {
    /// A step: its name (for `--stats` and errors) and what it does. It answers false when the
    /// build is done early (nothing changed).
    public struct Step: Sendable {
        public let name: String
        let run: @Sendable (SitePipeline) async throws -> Bool
    }

    /// The steps of every build, in order.
    public static let steps: [Step] = [
        Step(name: "check the request", run: { try $0.checkRequest() }),
        Step(name: "check for changes", run: { try $0.checkForChanges() }),
        Step(name: "load templates and content", run: { $0.loadTheme() }),
        Step(name: "load practice", run: { try await $0.loadPractice() }),
        Step(name: "draw share cards", run: { $0.drawShareCards() }),
        Step(name: renderStep, run: { try $0.renderPages() }),
        Step(name: swapStep, run: { try $0.swapIn() }),
        Step(name: "write manifest", run: { $0.writeManifest() }),
    ]

    /// The step that makes the new folder beside the site, and the one that swaps it in.
    static let renderStep = "render pages", swapStep = "swap in"

    /// Runs every step of a build of `request`.
    public static func run(_ request: SiteBuildRequest) async throws -> SiteBuildResult {
        let pipeline = SitePipeline(request)
        var last = Date()
        var watching: BuildInterrupt.Previous?
        defer { if let watching { BuildInterrupt.stopWatching(watching) } }
        func interrupted(_ sig: Int32) -> SiteBuildFailure {
            pipeline.site?.abandon()
            var failure = SiteBuildFailure(description: "interrupted; the site is as it was.")
            failure.signal = sig
            return failure
        }
        for step in steps {
            // From the first write (the new folder beside the site) a signal is noted: each file
            // put looks (`SiteBuild.put`), and so does the swap; after the swap the build finishes.
            if step.name == renderStep, request.stopsOnInterrupt { watching = BuildInterrupt.watch() }
            if watching != nil, step.name == swapStep, let sig = BuildInterrupt.received { throw interrupted(sig) }
            let goOn: Bool
            do { goOn = try await step.run(pipeline) } catch {
                if watching != nil, let sig = BuildInterrupt.received { throw interrupted(sig) }
                throw SiteBuildFailure.wrapping(pipeline.saidOfTheSite(error))
            }
            let now = Date()
            pipeline.result.stepTimes.append((step.name, now.timeIntervalSince(last)))
            last = now
            if !goOn { break }
        }
        return pipeline.result
    }

    private var request: SiteBuildRequest
    private let writer: SiteWriter
    private var result = SiteBuildResult()
    private var key = ""
    private var previous: SiteManifest?
    private var theme: Parallel.Background<Result<(SiteBuilder, SiteContent), Error>>?
    private var practice: SitePractice?
    private var cards: EarlyCards?
    private var site: SiteBuild?
    private var cardKeys: [String: String] = [:]

    private init(_ request: SiteBuildRequest) {
        self.request = request
        writer = SiteWriter(outputPath: request.outputPath)
        // What a build killed midway left beside the output (private pages) goes first, whatever
        // this build goes on to do.
        writer.removeLeftovers()
    }

    private var workspace: URL { URL(fileURLWithPath: request.workspace, isDirectory: true) }

    // MARK: the steps

    private func checkRequest() throws -> Bool {
        request.baseURL = try SitePipeline.baseURL(request.baseURL)
        // The swap replaces the whole output folder: a store inside it would go with the old site.
        if case .store(let path, _, _) = request.source, let store = RealPath.of(path) {
            if store.hasPrefix(writer.root + "/") {
                throw SiteBuildFailure(description: "the store \(path) is inside the output folder \(request.outputPath), which a build "
                                       + "replaces whole, store included. Move the store out of it or build into another folder. Nothing was changed.")
            }
        }
        // Nor may it hold the workspace (`--out .`: the swap took the folder the shell was in
        // away), or lie inside a folder the build reads (an output in Assets/ was copied into
        // each next site as an asset, the sites nesting). A new output is looked at through its
        // parent's real path (a link to Assets/ was not followed).
        var root = writer.root
        if RealPath.of(root) == nil, let slash = root.lastIndex(of: "/"),
           let parent = RealPath.of(slash == root.startIndex ? "/" : String(root[..<slash])) {
            root = (parent == "/" ? "" : parent) + String(root[slash...])
        }
        // The folder the build runs in counts too, when it is a subfolder of the workspace (`--out .`
        // there, or a build started inside the site).
        let ws = RealPath.of(request.workspace)
        for (held, here) in [(request.startedIn.flatMap(RealPath.of), true), (ws, false)] {
            guard let held, held == root || held.hasPrefix(root + "/") else { continue }
            // Advice that fits: a build run inside the output folder is run from another folder.
            let inside = here ? "Run it from outside the output folder, or give another --out" : "Build into a folder inside it, such as site"
            throw SiteBuildFailure(description: "the output folder \(request.outputPath) holds the folder you build in, and a build "
                                   + "replaces the output folder whole. \(inside). Nothing was changed.")
        }
        if let ws {
            for input in InputFolders.all(content: request.contentFolder) {
                // (A content folder that is the workspace itself reads its Markdown files only.)
                guard let read = RealPath.of(input.hasPrefix("/") ? input : ws + "/" + input), read != ws,
                      root == read || root.hasPrefix(read + "/") else { continue }
                throw SiteBuildFailure(description: "the output folder \(request.outputPath) is inside \(input), which the build reads: "
                                       + "each build would read the last site as its input. Build into a folder outside it, such as site. Nothing was changed.")
            }
        }
        return true
    }

    /// The base URL checked, with a "/" at its end.
    static func baseURL(_ given: String?) throws -> String? {
        guard let b = given else { return nil }
        if let problem = ConfigLimits.baseURLProblem(b) {
            throw SiteBuildFailure(description: "--base-url \(problem).", isUsage: true)
        }
        // The same limits as base_url in egofix.toml: it is copied into every feed entry and card.
        let max = ConfigLimits.maxValueLength["base_url"] ?? 2048
        guard b.unicodeScalars.count <= max, !b.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw SiteBuildFailure(description: "--base-url must be at most \(max) characters, with no control characters.", isUsage: true)
        }
        return b.hasSuffix("/") ? b : b + "/"
    }

    private func checkForChanges() throws -> Bool {
        key = BuildFingerprint.key(request)
        let listing = request.manifestPath.flatMap { SiteManifest.Listing.read(path: $0) }
        if let listing, listing.key == key, let count = try writer.unchangedCount(as: listing) {
            result.files = count
            result.unchanged = count
            result.cardsReused = listing.cards.count
            result.notesNotOnTheSite = listing.notes
            return false
        }
        previous = listing.map(SiteManifest.init)
        return true
    }

    private func loadTheme() -> Bool {
        let (workspace, folder) = (self.workspace, request.contentFolder)
        theme = Parallel.Background {
            Result {
                let content = try SiteContent.load(folder: URL(fileURLWithPath: folder, relativeTo: workspace), label: folder,
                                                   workspace: workspace)
                return (try SiteBuilder.load(workspace: workspace), content)
            }
        }
        return true
    }

    private func loadPractice() async throws -> Bool {
        // A share card the last build drew, for the same card and the same egofix, is kept.
        let files = previous?.files ?? [:], keys = previous?.cardKeys ?? [:], root = writer.root
        let kept: @Sendable (String, String) -> Data? = { path, key in
            guard keys[path] == key, let stamp = files[path], SiteManifest.stamp(root + "/" + path) == stamp else { return nil }
            return FileManager.default.contents(atPath: root + "/" + path)
        }
        let cards = EarlyCards(salt: BuildFingerprint.executableIdentity(), kept: kept)
        self.cards = cards
        switch request.source {
        case .demo(let years, let seed, let catalogue):
            // The demo's cards are drawn on the other core as its history shares each fix.
            practice = try DemoSite.make(years: years, seed: seed, catalogue: try catalogue(), onShare: cards.start)
        case .store(_, _, let load):
            // The store's cards are started on the other core once its tables are read, while the
            // lifecycle is settled and the page context begins.
            practice = try await load(cards.start)
        }
        return true
    }

    private func drawShareCards() -> Bool {
        // Both sources start their cards as the practice loads; this makes sure every card the
        // site will have is started, whatever the source reported (a card started is not again).
        if let practice { cards?.start(sharedIn: practice.data) }
        return true
    }

    private func renderPages() throws -> Bool {
        guard let practice, let theme else { return false }
        let (builder, content) = try theme.wait().get()
        request.progress?("\(practice.data.completions.count) fixes, \(practice.data.crashes.count) crashes read; rendering into \(request.outputPath)")
        let cards = self.cards, salt = BuildFingerprint.executableIdentity()
        let reuse: @Sendable (String, String) -> (png: Data, drawn: Bool)? = { path, key in cards?.png(path, key: key) }
        let site = try writer.begin()
        do {
            var stats = SiteBuildStats()
            let options = SiteOptions(title: request.title, baseURL: request.baseURL, now: practice.now, calendar: practice.calendar,
                                      workspace: workspace, cardSalt: salt, patternsAreDetection: practice.patternsAreDetection,
                                      remindAt: request.remindAt)
            result.files = try builder.build(data: practice.data, content: content, options: options, reuseCard: reuse, stats: &stats,
                                             into: site, release: request.releaseAtExit ? .atExit : .inBackground).count
            result.cardsDrawn = stats.cardsDrawn
            result.cardsReused = stats.cardsReused
            result.notesNotOnTheSite = stats.notesNotOnTheSite
            cardKeys = stats.cardKeys
        } catch {
            site.abandon()
            throw error
        }
        self.site = site
        return true
    }

    private func swapIn() throws -> Bool {
        guard let site else { return false }
        let report: SiteWriteReport
        do { report = try site.commit() } catch {
            site.abandon()
            throw error
        }
        result.written = report.written.count
        result.unchanged = report.unchanged.count
        result.removed = report.removed.count
        result.previousLeftAt = report.previousLeftAt
        return true
    }

    /// A file or folder of the new site that could not be written, said of the site: the path in
    /// the error was in the hidden folder beside it, gone with the build ("egofix:
    /// …/.site.egofix-build/index.html: No space left on device"), and the site is as it was.
    func saidOfTheSite(_ error: Error) -> Error {
        guard case SiteWriterError.io(let path, var reason) = error else { return error }
        let build = writer.buildFolder.path
        guard path == build || path.hasPrefix(build + "/") else { return error }
        let inside = path == build ? "" : " (" + String(path.dropFirst(build.count + 1)) + ")"
        while reason.hasSuffix(".") { reason.removeLast() }
        var st = stat()
        let kept = stat(writer.root, &st) == 0 ? "The previous site is as it was." : "Nothing was written."
        return SiteBuildFailure(description: "cannot write the site into \(request.outputPath)\(inside): \(reason). \(kept)")
    }

    private func writeManifest() -> Bool {
        // A note no page shows is said on every build, the no-change ones too: the manifest keeps
        // what this build said, and a rebuild with the same inputs (which the notes follow from)
        // says it again from there. It used to leave a key no build could match, so every
        // rebuild of a workspace with next week's note written did all the work. Best effort:
        // without a manifest the next build simply does all the work.
        if let path = request.manifestPath, var bytes = site?.manifest(key: key, cardKeys: cardKeys) {
            bytes.append(SiteManifest.noteLines(result.notesNotOnTheSite))
            try? SiteManifest.write(bytes, to: URL(fileURLWithPath: path))
        }
        return true
    }
}
