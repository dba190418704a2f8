import Foundation

/// The longest value each egofix.toml setting may hold, in characters. Command-line options that
/// stand in for a setting (`--base-url`) are held to the same limit.
public enum ConfigLimits {
    public static let maxValueLength = ["title": 200, "base_url": 2048, "time_zone": 64, "week_start": 16,
                                        "output": 4096, "content": 4096, "store": 4096, "remind_at": 16]
}
