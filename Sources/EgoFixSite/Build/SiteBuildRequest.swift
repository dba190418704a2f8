import EgoFixCore
import Foundation

/// What a site build is asked for, all resolved by the caller: where the workspace and the output
/// are, the site's title and base URL, and where the practice comes from.
public struct SiteBuildRequest: Sendable {
    /// The workspace folder (egofix.toml, content, Templates, Assets and Seeds are read from it).
    public var workspace: String
    /// The output folder, absolute.
    public var outputPath: String
    /// The folder the build was started in, when it is not the workspace (a subfolder of it): the
    /// output may not hold it either, since a build replaces the output whole.
    public var startedIn: String?
    /// The content folder, as given (relative to the workspace unless absolute).
    public var contentFolder: String
    public var title: String
    /// Absolute (http or https); a "/" is added at its end.
    public var baseURL: String?
    public var source: SiteSource
    /// Where the last build's manifest is kept; nil: none is read or written, every build does all the work.
    public var manifestPath: String?
    /// Lines for a person waiting, while the build runs.
    public var progress: (@Sendable (String) -> Void)?
    /// The page context is never freed: for a process that ends right after the build.
    public var releaseAtExit = false
    /// Ctrl-C or SIGTERM while the build writes stops it cleanly: the half-made folder is removed and
    /// the site left as it was (`egofix build`; serve stops on its own terms).
    public var stopsOnInterrupt = false
    /// When the day's reminder comes in reminders.ics (`remind_at` in egofix.toml).
    public var remindAt: ReminderTime = .standard

    public init(workspace: String, outputPath: String, contentFolder: String, title: String, baseURL: String?,
                source: SiteSource, manifestPath: String?) {
        self.workspace = workspace
        self.outputPath = outputPath
        self.contentFolder = contentFolder
        self.title = title
        self.baseURL = baseURL
        self.source = source
        self.manifestPath = manifestPath
    }
}
