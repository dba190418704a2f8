import Foundation

/// The running egofix's own file, links resolved (`/proc/self/exe`): what the systemd unit runs
/// (`remind --install`) and where `egofix-serve` is looked for (`serve`). Nil where it cannot be read.
enum RunningExecutable {
    static func path() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
