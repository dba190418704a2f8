import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum SiteWriterError: Error, Equatable, CustomStringConvertible {
    case invalidPath(String, reason: String)
    case duplicatePath(String)
    /// A file of the workspace's Assets at the path of a page or file the build makes.
    case assetOverMadeFile(asset: String, path: String)
    case pathConflict(String, with: String)
    case notASiteFolder(String)
    /// The output folder given cannot hold a site: `/`, or a path ending in `.` or `..`.
    case unusableOutput(String)
    case busy(String)
    case finished
    /// Ctrl-C or SIGTERM while the build was writing (`BuildInterrupt`).
    case interrupted
    case io(path: String, reason: String)
    /// A folder beside the site that egofix left (an earlier site, or a half-made one) and cannot
    /// remove: it holds private pages.
    case leftover(String)

    public var description: String {
        switch self {
        case .invalidPath(let path, let reason):
            return "site file '\(path)': \(reason). This is a bug in the page that produced it."
        case .duplicatePath(let path):
            return "site file '\(path)' was produced twice. Two pages want the same path; rename one."
        case .assetOverMadeFile(let asset, let path):
            return "\(asset) has the path of a file the build makes (\(path)): an asset cannot replace it. Rename or move the asset."
        case .pathConflict(let path, let other):
            return "site file '\(path)' conflicts with '\(other)' (one is a folder of the other). Rename one."
        case .notASiteFolder(let path):
            return "\(path): refusing to replace this folder: it has files and no \(SiteWriter.markerName) marker, "
                + "so egofix did not build it. Choose an empty or new output folder."
        case .unusableOutput(let path):
            return "\(path): egofix cannot build into this folder: a site needs a folder of its own inside another, such as ./site. Choose another output folder."
        case .busy(let path):
            return "\(path): another egofix build is writing here. Wait for it to finish and run again."
        case .finished:
            return "this site build was already committed or abandoned."
        case .interrupted:
            return "interrupted; the site is as it was."
        case .io(let path, let reason):
            return "\(path): \(reason)"
        case .leftover(let path):
            return "\(path) holds what is left of an earlier site, which egofix cannot remove (files that are not yours to remove). "
                + "Remove it, then build again."
        }
    }
}
