import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Interactive prompts, only when both ends are a terminal.
enum Prompt {
    static var interactive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    static func ask(_ question: String) -> String? {
        Swift.print(question, terminator: " ")
        fflush(nil)
        return readLine()?.trimmingCharacters(in: .whitespaces)
    }

    /// What a numbered menu got: an option, an empty answer (enter), or the end of input (Ctrl-D).
    enum Choice: Equatable {
        case picked(Int)
        case skipped
        case ended
    }

    /// A numbered menu. `skip` says what enter does ("to skip", "for your primary bug"); without
    /// one, enter asks again.
    static func choose(_ question: String, _ options: [String], skip: String? = "to skip") -> Choice {
        Swift.print(Terminal.neutralised(question, keepingStyle: true))
        for (i, o) in options.enumerated() { Swift.print(Terminal.neutralised("  \(i + 1)  \(o)", keepingStyle: true)) }
        while true {
            guard let a = ask(">") else {
                Swift.print("")
                return .ended
            }
            if a.isEmpty, skip != nil { return .skipped }
            if let n = Int(a), (1...options.count).contains(n) { return .picked(n - 1) }
            Swift.print("  a number from 1 to \(options.count)" + (skip.map { ", or enter \($0)" } ?? ""))
        }
    }

    /// What a free-text question got: the text (nil for none), or the end of input (Ctrl-D).
    enum Answer: Equatable {
        case text(String?)
        case ended
    }

    /// The longest line a terminal hands over (Linux's line discipline keeps 4,095 bytes and
    /// drops the rest of the line).
    static let terminalLine = 4095

    /// A free-text answer (a crash's note, the timer's reflection): the line typed, or every line
    /// of a paste (left unread, the lines after the first ran as shell commands once egofix
    /// ended). Read as bytes and checked as `-m` is (`ReflectionInput.checked`): text that is not
    /// UTF-8 or a line the terminal cut short is refused, never stored changed. `longer` says
    /// where a longer text goes.
    static func askText(_ question: String, what: String, longer: String) throws -> Answer {
        Swift.print(question, terminator: " ")
        fflush(nil)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        var first = true
        while true {
            if !first {
                // The rest of a paste is already there, or comes within moments.
                var p = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { break }
            }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if first {
                    Swift.print("")
                    return .ended
                }
                break
            }
            bytes += chunk[0..<n]
            first = false
        }
        // A line still being typed when the paste ended goes too, rather than to the shell.
        if isatty(STDIN_FILENO) == 1 { tcflush(STDIN_FILENO, TCIFLUSH) }
        if bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).contains(where: { $0.count >= terminalLine }) {
            throw CLIError("the \(what) is longer than a terminal line holds (4,095 bytes) and was cut short. \(longer) Nothing recorded.")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError("the \(what) is not UTF-8 text (check the terminal's encoding). Nothing recorded.")
        }
        return .text(try ReflectionInput.checked(text, what: what))
    }

    /// Runs `cleanup`, says `line` and ends the process (130) if Ctrl-C comes while the returned
    /// watch is live (cancel it when the question is answered): a prompt waits in the middle of
    /// a command.
    static func onInterrupt(saying line: String, _ cleanup: @escaping @Sendable () -> Void = {}) -> InterruptWatch {
        InterruptWatch {
            Swift.print("\n" + line)
            cleanup()
            Foundation.exit(130)
        }
    }
}
