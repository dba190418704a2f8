import EgoFixCore
import Foundation

/// Turns the data, the user's Markdown and the templates into the files of the site.
public struct SiteBuilder: Sendable {
    public let templates: TemplateSet
    public let assets: AssetSet

    public init(templates: TemplateSet, assets: AssetSet) {
        self.templates = templates
        self.assets = assets
    }

    /// Built-in templates and assets, overridden file by file by the workspace's own folders.
    public static func load(workspace: URL?) throws -> SiteBuilder {
        SiteBuilder(templates: try TemplateSet.load(workspace: workspace), assets: try AssetSet.load(workspace: workspace))
    }

    /// Every file of the site, sorted by path.
    public func build(data: Practice, content: SiteContent, options: SiteOptions) throws -> [(path: String, data: Data)] {
        var stats = SiteBuildStats()
        return try build(data: data, content: content, options: options, reuseCard: { _, _ in nil }, stats: &stats)
    }

    /// Every file of the site, sorted by path (see the other `build` for `reuseCard` and `stats`).
    public func build(data: Practice, content: SiteContent, options: SiteOptions,
                      reuseCard: @escaping @Sendable (_ path: String, _ key: String) -> (png: Data, drawn: Bool)?,
                      stats: inout SiteBuildStats) throws -> [(path: String, data: Data)] {
        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var files: [(path: String, data: Data)] = []
            func add(_ path: String, _ data: Data) {
                lock.lock()
                files.append((path, data))
                lock.unlock()
            }
        }
        let collected = Collected()
        _ = try build(data: data, content: content, options: options, reuseCard: reuseCard, stats: &stats,
                      reserve: { _ in }, emit: { collected.add($0, $1) })
        return collected.files.sorted { $0.path < $1.path }
    }

    /// Builds the site straight into `site`: every path is reserved first (sorted), and each file is
    /// put as soon as it is rendered, on the thread that rendered it. Returns the paths, sorted.
    ///
    /// A share card's PNG is drawn only when `reuseCard` has no bytes for its path and key (see
    /// `SiteBuildStats.cardKeys`); the key changes with the card's text and with
    /// `options.cardSalt`. `drawn` says whether those bytes were drawn for this build (ahead of it)
    /// or kept from an earlier one.
    ///
    /// `release` says what becomes of the build's page context (its indexes and page values) once
    /// the pages are done.
    public func build(data: Practice, content: SiteContent, options: SiteOptions,
                      reuseCard: @escaping @Sendable (_ path: String, _ key: String) -> (png: Data, drawn: Bool)?,
                      stats: inout SiteBuildStats, into site: SiteBuild, release: ContextRelease = .inBackground) throws -> [String] {
        try build(data: data, content: content, options: options, reuseCard: reuseCard, stats: &stats,
                  reserve: { try site.reserve($0) }, emit: { try site.put($0, $1) }, release: release)
    }

    /// What becomes of a build's page context once the pages are done.
    public enum ContextRelease: Sendable {
        /// Freed on another core, beside whatever the caller does next.
        case inBackground
        /// Never freed: for a process that ends right after the build, whose memory the kernel
        /// takes back whole (freeing it value by value would only compete with the rest of the build).
        case atExit
    }

    private func build(data: Practice, content: SiteContent, options: SiteOptions,
                       reuseCard: @escaping @Sendable (_ path: String, _ key: String) -> (png: Data, drawn: Bool)?,
                       stats: inout SiteBuildStats, reserve: ([String]) throws -> Void,
                       emit: @escaping @Sendable (String, Data) throws -> Void,
                       release: ContextRelease = .inBackground) throws -> [String] {
        let ctx = try PageContext(data: data, content: content, options: options, templates: templates)
        defer {
            switch release {
            case .inBackground: Parallel.releaseInBackground(ctx)
            case .atExit: _ = Unmanaged.passRetained(ctx)
            }
        }
        let pages = ctx.pagePlan().map { page in FilePlan(path: page.path, make: page.render) }
        let extras = ctx.extraPlan(assets: assets)
        // A card that cannot be made fails the build where it always did: after the pages and the feed.
        let cardList = Result { try ctx.shareCards() }
        let cards = (try? cardList.get()) ?? []
        let keys = cards.map { ShareCardPNG.key($0, salt: options.cardSalt) }
        let shares = ctx.sharePlan(assets: assets, cards: cards)
        let planned = (pages + extras + shares).map(\.path) + cards.map(ShareCardPNG.path)
        // A path planned twice because an asset of the workspace's own has a made file's path says
        // so (it was "site file 'index.html' was produced twice", naming neither the asset nor Assets/).
        var seen = Set<String>()
        for path in planned where !seen.insert(path).inserted {
            if let asset = assets.files.first(where: { !$0.isBuiltIn && $0.path == path }) {
                throw SiteWriterError.assetOverMadeFile(asset: asset.origin, path: path)
            }
        }
        let paths = PathOrder.sorted(planned)
        try reserve(paths)

        // Everything renders and is written on every core. Cards go last: they are usually being
        // drawn ahead of the pages (see `reuseCard`), and a thread that asks for one before it is
        // ready waits for it. Errors are reported in the order the files were always made in:
        // pages in plan order, the theme and feed, the card list, each card, the share pages.
        enum Job: Sendable {
            case file(FilePlan)
            case card(ShareCard, key: String)
        }
        let jobs = (pages + extras + shares).map { Job.file($0) } + zip(cards, keys).map { Job.card($0, key: $1) }
        let outputs = Parallel.map(jobs) { job -> Result<Bool, Error> in
            Result {
                switch job {
                case .file(let plan):
                    try emit(plan.path, try plan.make(ctx))
                    return false
                case .card(let card, let key):
                    let path = ShareCardPNG.path(card)
                    if let ready = reuseCard(path, key) {
                        try emit(path, ready.png)
                        return ready.drawn
                    }
                    try emit(path, try ShareCardPNG.render(card))
                    return true
                }
            }
        }
        let fileOutputs = Array(outputs.prefix(jobs.count - cards.count)), cardOutputs = outputs.suffix(cards.count)
        for (page, output) in zip(pages, fileOutputs) {
            do {
                _ = try output.get()
            } catch let e as TemplateError {
                throw SiteBuildError.page(path: page.path, underlying: e.description)
            } catch let e as Markdown.Error {
                throw SiteBuildError.page(path: page.path, underlying: e.description)
            }
        }
        for output in fileOutputs[pages.count..<(pages.count + extras.count)] { _ = try output.get() }
        _ = try cardList.get()
        for output in cardOutputs {
            if try output.get() { stats.cardsDrawn += 1 } else { stats.cardsReused += 1 }
        }
        for output in fileOutputs.suffix(shares.count) { _ = try output.get() }
        for (card, key) in zip(cards, keys) { stats.cardKeys[ShareCardPNG.path(card)] = key }
        stats.notesNotOnTheSite = ctx.notesNotOnTheSite()
            + assets.hidden.map { "Assets/\($0) is not published: files and folders whose names start with a dot are left out of the site." }
            + assets.emptyOverrides.map { "Assets/\($0) is empty and takes the place of the built-in one" + ($0 == "style.css" ? ", so the pages are unstyled" : "")
                + ". Remove it to keep the built-in file." }
            + (options.workspace.map { MisnamedFolder.warnings(in: $0.path) } ?? [])
        return paths
    }
}

/// One page to write: its path and how to render it.
struct PagePlan: Sendable {
    let path: String
    let render: @Sendable (PageContext) throws -> Data
}

/// One file to write: its path and how to make its bytes.
struct FilePlan: Sendable {
    let path: String
    let make: @Sendable (PageContext) throws -> Data
}
