import Foundation

/// A desktop notification through `notify-send` (libnotify, which speaks D-Bus's
/// org.freedesktop.Notifications), when it is on PATH. Nothing is said when it is absent or
/// fails: a reminder that cannot be shown is not an error.
enum DesktopNotification {
    /// The longest `notify-send` is waited for; a bus that does not answer must not hold the command.
    static let timeoutSeconds = 5.0

    /// Sends one notification; true when notify-send ran and exited 0.
    @discardableResult
    static func send(title: String, body: String) -> Bool {
        guard let exe = executable("notify-send") else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["--app-name=EgoFix", title, body]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            return false
        }
        return p.terminationReason == .exit && p.terminationStatus == 0
    }

    /// The first executable file called `name` in a PATH folder.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
