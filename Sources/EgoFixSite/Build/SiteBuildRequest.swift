import EgoFixCore
import Foundation

/// What a site build is asked for, all resolved by the caller: where the workspace and the output
/// are, the site's title and base URL, and where the practice comes from.
public struct SiteBuildRequest: Sendable {
    /// The workspace folder (egofix.toml, content, Templates, Assets and Seeds are read from it).
    public var workspace: String
    /// The output folder, absolute.
    public var outputPath: String
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

/// Where a build's practice comes from.
public enum SiteSource: Sendable {
    /// The built-in demo history (`DemoSite`), made from the catalogue.
    case demo(years: Int, seed: UInt64, catalogue: @Sendable () throws -> SeedCatalogue)
    /// A store file, read by `load`. The change check holds the file's bytes and what the pages
    /// show of the clock `now` in `timeZone` (see `SiteClockView`), not the instant.
    case store(path: String, clock: SiteClockView, load: @Sendable () async throws -> SitePractice)
}

/// A practice to build a site from: its records, the clock and the calendar.
public struct SitePractice: Sendable {
    public var data: SiteData
    public var now: Date
    public var calendar: Calendar
    /// See `SiteOptions.patternsAreDetection`.
    public var patternsAreDetection: Bool

    public init(data: SiteData, now: Date, calendar: Calendar, patternsAreDetection: Bool = false) {
        self.data = data
        self.now = now
        self.calendar = calendar
        self.patternsAreDetection = patternsAreDetection
    }
}

/// What a build did: files, and how many were written, kept and removed; share cards; notes no
/// page shows; the time each step took.
public struct SiteBuildResult: Sendable {
    public var files = 0
    public var written = 0
    public var unchanged = 0
    public var removed = 0
    public var cardsDrawn = 0
    public var cardsReused = 0
    /// See `SiteBuildStats.notesNotOnTheSite`.
    public var notesNotOnTheSite: [String] = []
    /// Each step run, with its seconds.
    public var stepTimes: [(step: String, seconds: Double)] = []
}

/// A build that failed for a reason the user can fix: one line saying what and where.
public struct SiteBuildFailure: Error, CustomStringConvertible {
    public let description: String

    /// The site's own errors as one line; any other error as it is.
    static func wrapping(_ error: Error) -> Error {
        switch error {
        case let e as SiteBuildError: return SiteBuildFailure(description: e.description)
        case let e as SiteWriterError: return SiteBuildFailure(description: e.description)
        case let e as SiteContent.LoadError: return SiteBuildFailure(description: e.description)
        case let e as TemplateError: return SiteBuildFailure(description: e.description)
        default: return error
        }
    }
}
