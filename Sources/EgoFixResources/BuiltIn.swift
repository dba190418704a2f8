import Foundation

/// The default seeds, templates and assets, compiled into the binary.
public enum BuiltIn {
    /// Every embedded file, sorted by path ("Seeds/bugs.json", "Templates/layout.mustache", ...).
    public static let files: [(path: String, data: Data)] = EmbeddedFiles.all.compactMap { entry in
        Data(base64Encoded: entry.base64).map { (entry.path, $0) }
    }

    public static func file(_ path: String) -> Data? {
        files.first { $0.path == path }?.data
    }

    /// Files under a folder, with paths relative to it.
    public static func files(under folder: String) -> [(path: String, data: Data)] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return files.filter { $0.path.hasPrefix(prefix) }.map { (String($0.path.dropFirst(prefix.count)), $0.data) }
    }
}
