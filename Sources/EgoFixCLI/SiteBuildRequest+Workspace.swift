import EgoFixConfig
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

extension SiteBuildRequest {
    /// A build of `workspace`'s site into `outputPath`, as its egofix.toml sets it (the content
    /// folder, the title, the day's reminder time), with the manifest kept in the cache folder:
    /// `egofix build`'s request and each of `egofix serve`'s.
    package static func workspace(_ workspace: String, config: WorkspaceConfig, outputPath: String, baseURL: String?,
                                  source: SiteSource, env: [String: String]) -> SiteBuildRequest {
        var request = SiteBuildRequest(workspace: workspace, outputPath: outputPath, contentFolder: config.content ?? "content",
                                       title: config.title ?? "EgoFix", baseURL: baseURL, source: source,
                                       manifestPath: BuildFingerprint.manifestLocation(for: outputPath, xdgCacheHome: env["XDG_CACHE_HOME"],
                                                                                       home: StoreLocation.home(environment: env)))
        request.remindAt = config.remindAt ?? .standard
        return request
    }
}
