import EgoFixCore
import Foundation

/// A build that failed for a reason the user can fix: one line saying what and where.
public struct SiteBuildFailure: Error, CustomStringConvertible {
    public let description: String
    /// Another build was writing into the same folder (nothing is wrong; it can be run again).
    public var isBusy = false
    /// The signal that stopped the build (Ctrl-C: SIGINT), if one did.
    public var signal: Int32?
    /// The command line itself is wrong (a --years or --base-url out of its kind or range): exit 64.
    public var isUsage = false

    public init(description: String, isBusy: Bool = false, isUsage: Bool = false) {
        self.description = description
        self.isBusy = isBusy
        self.isUsage = isUsage
    }

    /// The site's own errors as one line; any other error as it is.
    static func wrapping(_ error: Error) -> Error {
        switch error {
        case let e as SiteBuildError: return SiteBuildFailure(description: e.description)
        case let e as SiteWriterError:
            if case .busy = e { return SiteBuildFailure(description: e.description, isBusy: true) }
            return SiteBuildFailure(description: e.description)
        case let e as SiteContent.LoadError: return SiteBuildFailure(description: e.description)
        case let e as TemplateError: return SiteBuildFailure(description: e.description)
        default: return error
        }
    }
}
