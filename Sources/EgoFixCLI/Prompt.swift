import EgoFixCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Interactive prompts, only when both ends are a terminal.
enum Prompt {
    static var interactive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    static func ask(_ question: String) -> String? {
        asking(question) { _ in readLine()?.trimmingCharacters(in: .whitespaces) }
    }

    /// Prints `question` and runs `body` to read its answer in line mode (`lineModes`), given those
    /// modes (nil off a terminal); the terminal's own are put back after, and by Ctrl-C.
    private static func asking<T>(_ question: String, _ body: (termios?) throws -> T) rethrows -> T {
        Swift.print(question, terminator: " ")
        fflush(nil)
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return try body(nil) }
        Prompt.modes.withLock { $0 = saved }
        let lines = lineModes(from: saved)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            Prompt.modes.withLock { $0 = nil }
        }
        return try body(lines)
    }

    /// A line as the user types it, with its editing keys, Enter, Ctrl-C and Ctrl-D, whatever mode
    /// the terminal was left in (`stty raw -echo` by another program).
    @discardableResult
    static func lineModes(from saved: termios) -> termios {
        var lines = saved
        lines.c_lflag |= tcflag_t(ICANON | ECHO | ISIG)
        // IUTF8: Backspace erases a whole character, not the last byte of an "é" (the note was
        // then refused as not UTF-8).
        lines.c_iflag |= tcflag_t(ICRNL | IUTF8)
        lines.c_iflag &= ~tcflag_t(INLCR | IGNCR)
        lines.c_oflag |= tcflag_t(OPOST | ONLCR)
        if lines.c_lflag != saved.c_lflag || lines.c_iflag != saved.c_iflag || lines.c_oflag != saved.c_oflag {
            tcsetattr(STDIN_FILENO, TCSANOW, &lines)
        }
        return lines
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
        for line in Text.fitted(question) { Swift.print(Terminal.neutralised(line, keepingStyle: true)) }
        for (i, o) in options.enumerated() { Swift.print(Terminal.neutralised("  \(i + 1)  \(o)", keepingStyle: true)) }
        // What enter does, said before it is needed (the diagnostic's skip showed only after a
        // wrong answer), unless the question says it.
        if let skip, !question.contains("enter") { Swift.print("  (1 to \(options.count), or enter \(skip))") }
        // With no skip (init's menu), what leaves: Ctrl-D, with nothing done.
        if skip == nil { Swift.print("  (1 to \(options.count), or Ctrl-D to leave)") }
        while true {
            guard let a = ask(">") else {
                Swift.print("")
                return .ended
            }
            if a.isEmpty, skip != nil { return .skipped }
            if let n = Int(a), (1...options.count).contains(n) { return .picked(n - 1) }
            for line in Text.fitted("  a number from 1 to \(options.count)" + (skip.map { ", or enter \($0)" } ?? "")) { Swift.print(line) }
        }
    }

    /// What a free-text question got: the text (nil for none), or the end of input (Ctrl-D).
    enum Answer: Equatable {
        case text(String?)
        case ended
    }

    /// The terminal's modes while a question has changed them, to put back if Ctrl-C ends the process.
    private static let modes = Mutex<termios?>(nil)

    /// The longest line a terminal hands over (Linux's line discipline keeps 4,095 bytes and
    /// drops the rest of the line).
    static let terminalLine = 4095

    /// A free-text answer (a crash's note, the timer's reflection): the line typed, or every line
    /// of a paste, the last one too when it has no line break (left unread, the lines after the
    /// first ran as shell commands once egofix ended). The first line is read as the terminal
    /// edits it; input already waiting then is the rest of a paste, read until the input has been
    /// quiet for 0.2 s (a paste over ssh arrives in pieces). Read as bytes and checked as `-m` is
    /// (`ReflectionInput.checked`): text that is not UTF-8, or a line the terminal cut short, is
    /// refused, never stored changed; `refused` ends the message. `longer` says where a longer
    /// text goes.
    static func askText(_ question: String, what: String, longer: String, refused: String = "Nothing recorded.") throws -> Answer {
        guard let bytes = asking(question, readText) else { return .ended }
        if bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).contains(where: { $0.count >= terminalLine }) {
            throw CLIError("the \(what) is longer than a terminal line holds (4,095 bytes) and was cut short. \(longer) \(refused)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError("the \(what) is not UTF-8 text (check the terminal's encoding). \(refused)")
        }
        return .text(try ReflectionInput.checked(text, what: what, refused: refused))
    }

    /// The bytes of a free-text answer (see `askText`), or nil at the end of input. `lines`: the
    /// terminal's line modes while it is asked (nil off a terminal); the rest of a paste is read
    /// in those, less line editing (in the user's own, `stty raw` left its line breaks as CR).
    private static func readText(_ lines: termios?) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 8192)
        func readSome() -> Int {
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
        let n = readSome()
        guard n > 0 else {
            Swift.print("")
            return nil
        }
        var bytes = Array(chunk[0..<n])
        if let lines {
            // More already there when the first line is read (a partial line too) is the rest of
            // a paste: read as it comes (in pieces over ssh) until the input has been quiet for
            // 0.2 s. Nothing there: the line was typed, and keys pressed next are for the shell.
            var rest = lines
            rest.c_lflag &= ~tcflag_t(ICANON)
            func quiet(tenths: UInt8) -> Bool {
                withUnsafeMutableBytes(of: &rest.c_cc) { cc in
                    cc[Int(VMIN)] = 0
                    cc[Int(VTIME)] = tenths
                }
                return tcsetattr(STDIN_FILENO, TCSANOW, &rest) == 0
            }
            // Without line editing the end-of-input key (Ctrl-D, or `script` at the end of its
            // input) comes as a byte: it ends the text there.
            let endKey = withUnsafeBytes(of: lines.c_cc) { $0[Int(VEOF)] }
            if quiet(tenths: 0) {
                var more = readSome()
                if more > 0 { _ = quiet(tenths: 2) }
                while more > 0 {
                    if endKey != 0, let end = chunk[0..<more].firstIndex(of: endKey) {
                        bytes += chunk[0..<end]
                        break
                    }
                    bytes += chunk[0..<more]
                    more = readSome()
                }
            }
        }
        // A last line without its line break (ended with Ctrl-D, or a paste's): what follows starts on a line of its own.
        if bytes.last != UInt8(ascii: "\n") { Swift.print("") }
        return bytes
    }

    /// Drops lines typed before a question was asked (Enter pressed during the timer's countdown
    /// answered its first question). A Ctrl-D typed ahead is no line, and stays: the question
    /// then ends at once, as it did.
    static func discardTypeahead() {
        var waiting: Int32 = 0
        guard isatty(STDIN_FILENO) == 1, ioctl(STDIN_FILENO, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { return }
        tcflush(STDIN_FILENO, TCIFLUSH)
    }

    /// Runs `cleanup`, says `line` and ends the process (130) if Ctrl-C comes while the returned
    /// watch is live (cancel it when the question is answered): a prompt waits in the middle of
    /// a command.
    static func onInterrupt(saying line: String, _ cleanup: @escaping @Sendable () -> Void = {}) -> InterruptWatch {
        InterruptWatch {
            // The terminal as the prompt found it (Ctrl-C while a paste was read left it
            // without line editing for the shell).
            if var saved = Prompt.modes.withLock({ $0 }) { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            // Written and ended without C's streams: the main thread waits in a read holding
            // standard input's lock, and exit(3) flushing every stream waited for it (glibc 2.39).
            _ = WholeWrite.write(Data(("\n" + line + "\n").utf8), to: STDOUT_FILENO)
            cleanup()
            _exit(130)
        }
    }
}
