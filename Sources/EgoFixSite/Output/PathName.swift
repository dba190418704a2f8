import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths as plain strings.
public enum PathName {
    /// Whether `path` is absolute and has no empty, `.` or `..` part (a trailing slash aside).
    public static func isPlainAbsolute(_ path: String) -> Bool {
        var parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count > 1, parts[0].isEmpty else { return false }
        if parts.count > 2, parts[parts.count - 1].isEmpty { parts.removeLast() }
        return parts.dropFirst().allSatisfy { part in
            !part.isEmpty && !(part.count <= 2 && part.allSatisfy { $0 == UInt8(ascii: ".") })
        }
    }

    /// Whether a byte of a path is one no path on the site may hold: a control character or a
    /// backslash (every byte of a scalar beyond ASCII is 0x80 or more, so such a byte is such a
    /// scalar). The site writer refuses such a path; an asset's name is checked before, so the
    /// refusal names the file.
    public static func isRefusedByte(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\")
    }
}
