import Foundation

/// Where the store lives: `--store`, else `EGOFIX_STORE`, else `$XDG_DATA_HOME/egofix/egofix.sqlite`
/// (with `~/.local/share` when XDG_DATA_HOME is unset, or relative: the XDG spec says to ignore a
/// relative one, and a store found through it would depend on the folder a command runs in).
public enum StoreLocation {
    public static func resolve(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let env = environment["EGOFIX_STORE"], !env.isEmpty { return env }
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = home(environment: environment) + "/.local/share"
        }
        return base + "/egofix/egofix.sqlite"
    }

    /// The home folder: $HOME when it is an absolute path, else the user's entry in the password
    /// database (an empty HOME put the store at /.local/share, a relative one under the folder a
    /// command ran in).
    public static func home(environment: [String: String]) -> String {
        if let h = environment["HOME"], h.hasPrefix("/") { return h }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir {
            let d = String(cString: dir)
            if d.hasPrefix("/") { return d }
        }
        return "/"
    }
}

extension StoreLocation {
    /// The folder part of a path: what comes before its last "/" ("" for a bare name, "/" for a
    /// name at the root). Foundation's `deletingLastPathComponent` traps on a one-character path
    /// ("s"), which a user may pass as --store.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
