import Foundation

/// What `egofix timer` shows, pure: a bar with the time left on a terminal, a plain line per
/// minute otherwise.
public enum TimerFace {
    /// The longest timer `--seconds` takes: a day.
    public static let maxSeconds = 86_400
    public static let barWidth = 30

    /// "0:07", "4:00", "1:02:03".
    public static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        let h = s / 3600, m = (s % 3600) / 60, r = s % 60
        func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
        return h > 0 ? "\(h):\(two(m)):\(two(r))" : "\(m):\(two(r))"
    }

    /// "[##########--------------------] 2:13 left": the part done filled, the time left beside it.
    public static func bar(remaining: Int, total: Int, width: Int = barWidth) -> String {
        let total = max(1, total), left = min(max(0, remaining), total)
        let done = Int((Double(total - left) / Double(total) * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: done) + String(repeating: "-", count: width - done) + "] " + clock(left) + " left"
    }

    /// The line a plain output gets when `remaining` seconds are left, or nil: one at the start
    /// and one at each whole minute after it.
    public static func plainLine(remaining: Int, total: Int) -> String? {
        guard remaining > 0, remaining == total || remaining % 60 == 0 else { return nil }
        return clock(remaining) + " left"
    }
}
