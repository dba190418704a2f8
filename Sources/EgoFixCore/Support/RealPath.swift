import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A path as the file system resolves it: every link and "." or ".." followed (`realpath`).
public enum RealPath {
    /// The resolved path, or nil when nothing is there (or a part cannot be read).
    public static func of(_ path: String) -> String? {
        guard let r = realpath(path, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }
}
