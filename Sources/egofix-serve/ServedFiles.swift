import EgoFixCore
import EgoFixSite
import Foundation

/// What `egofix serve` may send from the site folder, and how: a request path resolved inside the
/// folder (or refused), its content type, and its validator.
enum ServedFiles {
    enum Resolution: Equatable {
        case file(String)
        case notFound
        /// A path that tries to leave the folder: `..`, percent-encoded or not, or a symlink out.
        case refused
        /// A folder asked for without its "/": relative links need it.
        case addSlash
    }

    /// `rawPath` as the request line had it (percent-encoded), resolved inside `root`.
    /// A folder means its index.html.
    static func resolve(rawPath: String, root: String) -> Resolution {
        guard rawPath.hasPrefix("/"), let decoded = rawPath.removingPercentEncoding else { return .notFound }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        for s in segments {
            if s == ".." || s == "." || s.contains("\\") || s.contains("\0") { return .refused }
        }
        // The marker that says egofix made the folder is bookkeeping, not a page.
        if segments.count == 1, segments[0] == SiteWriter.markerName { return .notFound }
        guard let realRoot = realPath(root) else { return .notFound }
        var candidate = root + "/" + segments.joined(separator: "/")
        var isFolder: ObjCBool = false
        if !decoded.hasSuffix("/"), FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), isFolder.boolValue,
           let real = realPath(candidate), real.hasPrefix(realRoot + "/") {
            return .addSlash
        }
        if decoded.hasSuffix("/") {
            candidate += (candidate.hasSuffix("/") ? "" : "/") + "index.html"
        }
        // Symlinks are followed, then the place they lead must still be inside the folder.
        guard let real = realPath(candidate) else {
            // A dangling link is still a link out of reach.
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: candidate)) != nil { return .refused }
            return .notFound
        }
        guard real == realRoot || real.hasPrefix(realRoot + "/") else { return .refused }
        var st = stat()
        guard stat(real, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return .notFound }
        return .file(real)
    }

    static func realPath(_ path: String) -> String? { RealPath.of(path) }

    static func contentType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "xml": return "application/xml; charset=utf-8"
        case "atom": return "application/atom+xml; charset=utf-8"
        case "ics": return "text/calendar; charset=utf-8"
        case "json": return "application/json"
        case "webmanifest": return "application/manifest+json"
        case "txt", "md": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    /// The file as the file system describes it (inode, size, modification time), as an ETag.
    static func stamp(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return "\(st.st_ino)-\(st.st_size)-\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }
}
