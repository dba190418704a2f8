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
        let ctx = try PageContext(data: data, content: content, options: options, templates: templates)
        var files: [(String, Data)] = []
        for page in ctx.pagePlan() {
            do {
                files.append((page.path, Data(try page.render(ctx).utf8)))
            } catch let e as TemplateError {
                throw SiteBuildError.page(path: page.path, underlying: e.description)
            } catch let e as Markdown.Error {
                throw SiteBuildError.page(path: page.path, underlying: e.description)
            }
        }
        files += try ctx.extraFiles(assets: assets)
        files += try ctx.shareFiles(assets: assets)
        return files.sorted { $0.0 < $1.0 }.map { (path: $0.0, data: $0.1) }
    }
}

/// One page to write: its path and how to render it.
struct PagePlan {
    let path: String
    let render: (PageContext) throws -> String
}
