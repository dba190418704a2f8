import EgoFixResources
import Foundation

/// The files copied as is into the site: the built-in `Assets/` overridden file by file by the
/// workspace's `Assets/` folder.
public struct AssetSet: Sendable {
    /// Sorted by path.
    public let files: [OverlayFile]
    /// The workspace's hidden files and folders in `Assets/` (names starting with "."), which
    /// are not published: their paths there, sorted. A build names them, so an `.htaccess`
    /// meant to guard the published site is not missed in silence.
    public let hidden: [String]
    /// The workspace's empty files in `Assets/` that take a built-in file's place (an empty
    /// `style.css` left the pages unstyled without a word): their paths there, sorted.
    public let emptyOverrides: [String]

    /// - Parameters:
    ///   - builtIn: the embedded defaults (`BuiltIn.files(under: "Assets")`).
    ///   - folder: the user's `Assets/` folder; ignored when it does not exist.
    public init(builtIn: [(path: String, data: Data)], overrides folder: URL?) throws {
        (files, hidden) = try Overlay.mergeNamingHidden(builtIn: builtIn, builtInFolder: "Assets", folder: folder,
                                                       workspace: folder?.deletingLastPathComponent())
        let builtInPaths = Set(builtIn.map(\.path))
        emptyOverrides = files.filter { !$0.isBuiltIn && $0.data.isEmpty && builtInPaths.contains($0.path) }.map(\.path)
        // A name the site's paths cannot hold is the file's to change, said with its name (it
        // failed later as "a bug in the page that produced it").
        for f in files where !f.isBuiltIn && f.path.utf8.contains(where: PathName.isRefusedByte) {
            throw TemplateError.refused(path: f.origin, reason: "a name with a backslash or a control character, which a path on the site cannot hold. Rename the file")
        }
        // A database (the store linked or copied in: links inside the workspace are followed)
        // would go out with the site, share/ included, readable by all.
        for f in files where !f.isBuiltIn && f.data.starts(with: AssetSet.sqliteHeader) {
            throw TemplateError.refused(path: f.origin, reason: "an SQLite database, such as a store, which the site would publish with every text in it. Move it out of Assets/")
        }
        // So would an export or a sync folder's device file: the whole practice, as JSON.
        for f in files where !f.isBuiltIn && AssetSet.holdsAPractice(f.data) {
            throw TemplateError.refused(path: f.origin, reason: "an egofix export or sync file, which the site would publish with every text in it. Move it out of Assets/")
        }
        // The share folder's stylesheet has two names (see `PageContext.sharePlan`); one of each
        // of one's own was one file too many, and one of them changed nothing.
        if let a = files.first(where: { $0.path == "share.css" && !$0.isBuiltIn }),
           let b = files.first(where: { $0.path == "share/share.css" && !$0.isBuiltIn }) {
            throw TemplateError.refused(path: a.origin, reason: "the share pages' stylesheet, which \(b.origin) is too; only one is published as share/share.css. Keep one of the two")
        }
    }

    /// Whether `data` is JSON as `egofix export` or `egofix sync` writes it: an object whose keys
    /// include "formatVersion" and "completions" (an export) or "deviceId" and "profileId" (a
    /// device file), found as keys (a quoted name followed by a colon).
    static func holdsAPractice(_ data: Data) -> Bool {
        guard data.first(where: { !" \t\r\n".utf8.contains($0) }) == UInt8(ascii: "{") else { return false }
        func key(_ name: String) -> Bool {
            data.range(of: Data("\"\(name)\" :".utf8)) != nil || data.range(of: Data("\"\(name)\":".utf8)) != nil
        }
        return (key("formatVersion") && key("completions")) || (key("deviceId") && key("profileId"))
    }

    /// The first 16 bytes of every SQLite 3 database file.
    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

    /// The built-in assets overridden by `<workspace>/Assets/` when it exists.
    public static func load(workspace: URL?) throws -> AssetSet {
        try AssetSet(builtIn: BuiltIn.files(under: "Assets"),
                     overrides: workspace?.appendingPathComponent("Assets", isDirectory: true))
    }

    public func file(_ path: String) -> OverlayFile? {
        files.first { $0.path == path }
    }

    public var paths: [String] { files.map(\.path) }
}
