import Foundation

/// The longest value each egofix.toml setting may hold, in characters. Command-line options that
/// stand in for a setting (`--base-url`) are held to the same limit.
public enum ConfigLimits {
    public static let maxValueLength = ["title": 200, "base_url": 2048, "time_zone": 64, "week_start": 16,
                                        "output": 4096, "content": 4096, "store": 4096, "remind_at": 16]

    /// Why a base URL (egofix.toml's `base_url`, `build --base-url`) is refused, or nil: it starts
    /// with https:// or http:// and names a host ("https://" alone made links to https:///share/...).
    public static func baseURLProblem(_ value: String) -> String? {
        guard value.hasPrefix("https://") || value.hasPrefix("http://") else { return "must start with https:// or http://" }
        let host = value.dropFirst(value.hasPrefix("https://") ? 8 : 7).prefix { $0 != "/" }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "\"" || $0 == "<" || $0 == ">" }) else {
            return "needs a host after the scheme, such as https://example.org/egofix/"
        }
        // A path that begins "//" or holds a backslash (which browsers read as "/") names
        // another host to a link made from it: the 404 page's links, made from the base URL's
        // path, led to evil.example from https://example.org//evil.example/.
        let path = value.dropFirst(value.hasPrefix("https://") ? 8 : 7).dropFirst(host.count)
        guard !value.contains("\\"), !path.contains("//") else {
            return "has an empty path segment (//) or a backslash, which a browser reads as another host; write it as https://example.org/egofix/"
        }
        return nil
    }
}
