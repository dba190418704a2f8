import EgoFixCore
import Foundation

/// Where a file the build publishes (content notes, template and asset overrides) may come from:
/// inside the workspace or the folder it was read from, as the file system resolves it. A
/// symbolic link from there to /etc/shadow or ~/.ssh is refused, not published; so is anything
/// that is not a regular file (a FIFO would stall the build, a device would be read).
struct PublishedFileCheck {
    enum Problem: Error, Equatable {
        case unreadable
        case linkOutside(target: String)
        case notAFile
    }

    private let roots: [String]

    /// `folders`: the workspace and the folder the files are read from (missing ones are skipped).
    init(folders: [String?]) {
        roots = folders.compactMap { $0.flatMap(PublishedFileCheck.resolved) }
    }

    /// The file's real path when it may be published, else the problem.
    func check(_ path: String) -> Result<String, Problem> {
        guard let target = PublishedFileCheck.resolved(path) else { return .failure(.unreadable) }
        guard roots.contains(where: { target == $0 || target.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
            return .failure(.linkOutside(target: target))
        }
        var st = stat()
        guard stat(target, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return .failure(.notAFile) }
        return .success(target)
    }

    /// The path with every link and "." or ".." resolved, or nil when it does not resolve.
    static func resolved(_ path: String) -> String? { RealPath.of(path) }
}
