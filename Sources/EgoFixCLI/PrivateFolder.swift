import Foundation

/// A folder of this user's that holds private text (kept texts, serve's copy of the site): made
/// readable by this user alone whatever the umask, and tightened when it was left loose.
package enum PrivateFolder {
    /// Makes `path` (and the folders above it that it makes) 0700; whether it is now a folder
    /// this user owns, tightened to 0700 when group or others had any access to it.
    package static func make(_ path: String) -> Bool {
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])) != nil else { return false }
        return isOwnedAndTightened(path)
    }

    /// Whether `path` is a folder this user owns (not a link), tightened to 0700 when group or
    /// others had any access to it.
    package static func isOwnedAndTightened(_ path: String) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid() else { return false }
        if st.st_mode & 0o077 != 0 { _ = chmod(path, 0o700) }
        return true
    }
}
