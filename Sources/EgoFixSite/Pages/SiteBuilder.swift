import EgoFixCore
import Foundation

public enum SiteBuildError: Error, CustomStringConvertible {
    case page(path: String, underlying: String)
    public var description: String {
        switch self {
        case .page(let path, let why): return "building \(path): \(why)"
        }
    }
}

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
    public func build(data: SiteData, content: SiteContent, options: SiteOptions) throws -> [(path: String, data: Data)] {
        var stats = SiteBuildStats()
        return try build(data: data, content: content, options: options, reuseCard: { _, _ in nil }, stats: &stats)
    }

    /// Every file of the site, sorted by path. A share card's PNG is drawn only when `reuseCard`
    /// has no bytes for its path and key (see `SiteBuildStats.cardKeys`); the key changes with the
    /// card's text and with `options.cardSalt`. `drawn` says whether those bytes were drawn for this
    /// build (ahead of it) or kept from an earlier one.
    public func build(data: SiteData, content: SiteContent, options: SiteOptions,
                      reuseCard: @escaping @Sendable (_ path: String, _ key: String) -> (png: Data, drawn: Bool)?,
                      stats: inout SiteBuildStats) throws -> [(path: String, data: Data)] {
        let ctx = try PageContext(data: data, content: content, options: options, templates: templates)
        // Pages and cards render on every core; results come back in plan order, and the first
        // page that fails (in that order) is the one reported, as when they rendered one by one.
        let plan = ctx.pagePlan()
        // A card that cannot be made fails the build where it always did: after the pages and the feed.
        let cardList = Result { try ctx.shareCards() }
        let cards = (try? cardList.get()) ?? []
        let keys = cards.map { ShareCardPNG.key($0, salt: options.cardSalt) }
        enum Job: Sendable {
            case page(PagePlan)
            case card(ShareCard, key: String)
        }
        enum Output: Sendable {
            case page(Result<Data, Error>)
            case card(Result<Data, Error>, drawn: Bool)
        }
        // Cards first: each is a bigger piece of work than a page.
        let jobs = zip(cards, keys).map { Job.card($0, key: $1) } + plan.map { Job.page($0) }
        let outputs = Parallel.map(jobs) { job -> Output in
            switch job {
            case .page(let page):
                // Bytes become Data on the worker, so a page is never held twice.
                return .page(Result { Data(try page.render(ctx)) })
            case .card(let card, let key):
                if let ready = reuseCard(ShareCardPNG.path(card), key) { return .card(.success(ready.png), drawn: ready.drawn) }
                return .card(Result { try ShareCardPNG.render(card) }, drawn: true)
            }
        }
        var files: [(String, Data)] = []
        files.reserveCapacity(plan.count + 64)
        for (page, output) in zip(plan, outputs.suffix(plan.count)) {
            guard case .page(let result) = output else { continue }
            do {
                files.append((page.path, try result.get()))
            } catch let e as TemplateError {
                throw SiteBuildError.page(path: page.path, underlying: e.description)
            } catch let e as Markdown.Error {
                throw SiteBuildError.page(path: page.path, underlying: e.description)
            }
        }
        files += try ctx.extraFiles(assets: assets)
        _ = try cardList.get()
        var pngs: [Data] = []
        for output in outputs.prefix(cards.count) {
            guard case .card(let result, let drawn) = output else { continue }
            pngs.append(try result.get())
            if drawn { stats.cardsDrawn += 1 } else { stats.cardsReused += 1 }
        }
        for (card, key) in zip(cards, keys) { stats.cardKeys[ShareCardPNG.path(card)] = key }
        files += try ctx.shareFiles(assets: assets, cards: cards, pngs: pngs)
        return files.sorted { $0.0 < $1.0 }.map { (path: $0.0, data: $0.1) }
    }
}

/// What a build did beyond the files: share cards drawn or reused, and each card's key.
public struct SiteBuildStats: Sendable {
    public var cardsDrawn = 0
    public var cardsReused = 0
    /// The key of each share card PNG, by path: the same key means the same bytes.
    public var cardKeys: [String: String] = [:]

    public init() {}
}

/// One page to write: its path and how to render it.
struct PagePlan: Sendable {
    let path: String
    let render: @Sendable (PageContext) throws -> [UInt8]
}
