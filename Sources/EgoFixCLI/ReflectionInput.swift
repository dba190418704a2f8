import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads private text without it passing through shell history: -m, piped stdin, or $EDITOR.
enum ReflectionInput {
    /// With `edit`, the file written in the editor is left in place and named in `draft`: the
    /// caller removes it once the text is stored, and names it when the command is refused, so
    /// text written there is never lost (it exists nowhere else).
    /// `initial`: the text the editor opens with (`amend -e`: the reflection as it stands).
    static func read(message: String?, edit: Bool, what: String, initial: String? = nil, draft: inout String?) throws -> String? {
        // Both would leave one of them unread; which one is the user's call.
        if message != nil, edit { throw CLIError("-m and -e both give the \(what); pass one of them. Nothing recorded.", code: 64) }
        if let message { return try checked(message, what: what) }
        if edit { return try fromEditor(what: what, initial: initial, draft: &draft) }
        if isatty(STDIN_FILENO) == 0, standardInputIsInherited, let input = try pipedInput(what: what, cap: keptCap) {
            // Refused as it stands (over the cap, not UTF-8, a control character), it is kept as
            // it came: a heredoc typed into the terminal exists nowhere else.
            let keep = { () -> String in
                input.total > input.bytes.count ? "" : keptFile(Data(input.bytes), what).map { keptSentence($0, what) } ?? ""
            }
            if input.total > Thresholds.maxMarkdownBytes {
                throw CLIError(PracticeError.reflectionTooLong(bytes: input.total).description + " Nothing recorded." + keep())
            }
            // Bytes that are not UTF-8 would be stored as U+FFFD, the text changed without a word.
            guard let text = String(validating: input.bytes, as: UTF8.self) else {
                throw CLIError("the \(what) on standard input is not UTF-8 text. Convert it (iconv -t UTF-8) and run the command again. Nothing recorded." + keep())
            }
            do { return try checked(text, what: what) } catch { throw naming(error, kept: keep()) }
        }
        return nil
    }

    /// Whether descriptor 0 is the standard input this process was started with. Started with it
    /// closed (as some daemons and scripts run commands), the runtime's first file opened takes
    /// descriptor 0 before main, and reading it would read that file. A descriptor opened here has
    /// FD_CLOEXEC set; an inherited one never has (exec closes those).
    static var standardInputIsInherited: Bool {
        let flags = fcntl(STDIN_FILENO, F_GETFD)
        return flags != -1 && flags & FD_CLOEXEC == 0
    }

    /// Standard input to its end, or nil when there is none (closed: Foundation's reader traps on
    /// a closed descriptor). Past the size cap the rest is only counted, up to 1 GiB, so a huge
    /// pipe is refused with its size without being held.
    /// After two seconds with nothing to read, standard error says what is awaited: a pipe left
    /// open (`ssh host egofix applied` without -t, a `while read` loop) held the command silent.
    /// Past `cap` bytes the rest is only counted (`import -` reads an export, capped higher).
    static func pipedInput(what: String = "reflection", cap: Int = keptCap) throws -> (bytes: [UInt8], total: Int)? {
        var waiting = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        if poll(&waiting, 1, 2000) == 0 {
            // Ctrl-D is a terminal's: a pipe whose writer is slow (`egofix export - | egofix import -`
            // of a large store) is only waited for.
            if isatty(STDIN_FILENO) == 1 || cap == keptCap {
                StandardStreams.error("egofix: waiting for the \(what) on standard input: end it with Ctrl-D"
                                      + (cap == keptCap ? ", or give it with -m, or add </dev/null for none.\n" : ".\n"))
            } else {
                StandardStreams.error("egofix: waiting for the \(what) on standard input, from the program writing it.\n")
            }
        }
        var out: [UInt8] = []
        var extra = 0
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while extra < 1 << 30 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EBADF && out.isEmpty { return nil }
                throw CLIError("cannot read standard input (\(String(cString: strerror(errno)))). Nothing recorded.")
            }
            if out.count <= cap { out += chunk[0..<n] } else { extra += n }
        }
        return (out, out.count + extra)
    }

    /// How much of a piped reflection or note is held: a text over the store's cap (64 KiB) is
    /// refused, and kept in a private file up to this size (`keptFile`), as every refused text is.
    static let keptCap = 16 << 20

    /// The text written in `$VISUAL` or `$EDITOR` (else vi) in a private file; `draft` names the
    /// file while it holds text not yet stored.
    static func fromEditor(what: String, initial: String? = nil, draft: inout String?) throws -> String {
        let env = ProcessInfo.processInfo.environment
        // An empty VISUAL or EDITOR names no editor (`VISUAL= egofix applied -e`).
        let named = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        // vi with no terminal to draw on writes its screen codes into the output and exits 1
        // (an editor named in VISUAL or EDITOR may open a window of its own: it is run).
        if named == nil, isatty(STDIN_FILENO) != 1 {
            throw CLIError("-e opens vi, and standard input is not a terminal. Pipe the \(what) in or give it with -m instead, "
                           + "or name an editor that opens its own window in VISUAL. Nothing recorded.")
        }
        let editor = named ?? "vi"
        let path = try privateFile(what)
        if let initial {
            do { try Data((initial + "\n").utf8).write(to: URL(fileURLWithPath: path)) } catch {
                discard(path)
                throw CLIError("cannot write the \(what) to \(path) for the editor (\(error.localizedDescription)). Nothing recorded.")
            }
        }
        guard let status = Editor.run(editor, file: path) else {
            discard(path)
            throw CLIError("cannot start /bin/sh to run \(editor). Nothing recorded.")
        }
        let bytes = FileManager.default.contents(atPath: path) ?? Data()
        // An empty file holds nothing to keep.
        if bytes.isEmpty { discard(path) } else { draft = path }
        guard status == 0 else {
            // The shell's 127 is an editor not found, 126 one that cannot run, 130 Ctrl-C: said
            // so, with what to do ("exited with 127" left the person to look the number up).
            let why: String
            switch status {
            case 127: why = "\(editor) was not found (exit 127): set VISUAL or EDITOR to an editor that is installed, or leave out -e"
            case 126: why = "\(editor) cannot be run (exit 126): set VISUAL or EDITOR to an editor that is installed, or leave out -e"
            case 130: why = "\(editor) was stopped with Ctrl-C"
            default: why = "\(editor) exited with \(status)"
            }
            throw CLIError(why + ". Nothing recorded." + kept(draft, what))
        }
        // Bytes that are not UTF-8 would be stored as U+FFFD, the text changed without a word.
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError("the \(what) written in the editor is not UTF-8 text (check the editor's encoding). Nothing recorded." + kept(draft, what))
        }
        let checkedText: String?
        do { checkedText = try checked(text, what: what) } catch {
            throw CLIError((EgoFix.userFacingMessage(error) ?? "\(error)") + kept(draft, what))
        }
        // Nothing written (`:q!`, or an editor that returned at once) is not a choice to mark
        // it without one, as a commit with an empty message is not made.
        guard let written = checkedText else {
            if let d = draft { discard(d) }
            draft = nil
            throw CLIError("the \(what) was left empty in the editor. Nothing recorded; "
                           + (initial == nil ? "leave out -e to mark it without one." : "`-m \"\"` removes it."))
        }
        return written
    }

    /// A new, empty file for the editor, in a folder of its own that only this user can enter
    /// (mkdtemp: a name nobody can guess or make first; a file named by the process id could be
    /// made beforehand by another user, readable by them, or be an earlier kept draft, emptied).
    static func privateFile(_ what: String) throws -> String {
        // An empty TMPDIR (or "/") is no folder for this: Foundation reads it as "//".
        var folder = NSTemporaryDirectory()
        while folder.hasSuffix("/") { folder.removeLast() }
        folder = (folder.isEmpty ? "/tmp" : folder) + "/"
        var template = Array((folder + "egofix-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard let made else {
            throw CLIError("cannot make a private folder in \(folder) for the editor (\(String(cString: strerror(errno)))). Nothing recorded.")
        }
        let path = String(cString: made) + "/\(what).md"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(String(cString: made))
            throw CLIError("cannot make \(path) for the editor (\(reason)). Nothing recorded.")
        }
        close(fd)
        return path
    }

    /// Removes a file `privateFile` made, with its folder and whatever the editor left in it (a
    /// backup such as `reflection.md~`).
    static func discard(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    /// " The reflection is kept in PATH." when text written in the editor was not stored: the
    /// draft is moved to the folder of kept texts (`keptFile`), which outlives a reboot (TMPDIR
    /// may not); it stays where it is when it cannot be moved.
    static func kept(_ draft: String?, _ what: String) -> String {
        guard let draft else { return "" }
        guard let data = FileManager.default.contents(atPath: draft), let moved = keptFile(data, what) else {
            return keptSentence(draft, what)
        }
        discard(draft)
        return keptSentence(moved, what)
    }

    /// " The reflection is kept in PATH.", the sentence every refusal that kept a text ends with.
    static func keptSentence(_ path: String, _ what: String) -> String { " The \(what) is kept in \(path)." }

    /// A new private file (0600) in the folder of kept texts (`StateFolder.keptFolder`) holding
    /// `data`: its path, or nil when it cannot be written.
    static func keptFile(_ data: Data, _ what: String) -> String? {
        guard let folder = StateFolder.keptFolder(environment: Session.environment()) else { return nil }
        var template = Array((folder + "/\(what)-XXXXXX.md").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemps($0, 3) } ?? -1 }
        guard fd >= 0 else { return nil }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let failure = WholeWrite.write(data, to: fd)
        if close(fd) != 0 || failure != 0 {
            unlink(path)
            return nil
        }
        return path
    }

    /// `error`, with the sentence naming where the text it refused is kept (`kept`,
    /// `keeping`); `error` as it is when nothing is kept.
    static func naming(_ error: Error, kept: String) -> Error {
        kept.isEmpty ? error : CLIError((EgoFix.userFacingMessage(error) ?? "\(error)") + kept, code: (error as? CLIError)?.code ?? 1)
    }

    /// Text piped in or typed at a prompt that a refused command did not store: it exists nowhere
    /// else (a heredoc typed into the terminal), so it is written to a private file, and `error`
    /// is returned naming it; `error` as it is when even that cannot be written.
    static func keeping(_ text: String, what: String, refusedBy error: Error) -> Error {
        if let path = keptFile(Data(text.utf8), what) { return naming(error, kept: keptSentence(path, what)) }
        // Else in TMPDIR, as a draft for the editor is.
        guard let path = try? privateFile(what) else { return error }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return naming(error, kept: kept(path, what))
        } catch {
            discard(path)
            return error
        }
    }

    /// A refusal that came before text piped in was read (the fix already marked, no pending fix,
    /// an answer the fix does not take): the text is read now and kept as `keeping` keeps it, since
    /// a heredoc typed into the terminal exists nowhere else. `error` as it is with no such text.
    static func keepingUnread(refusedBy error: Error, message: String?, edit: Bool, what: String) -> Error {
        guard message == nil, !edit, isatty(STDIN_FILENO) == 0, standardInputIsInherited,
              let input = try? pipedInput(what: what), input.total == input.bytes.count,
              !input.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }) else { return error }
        if let text = String(validating: input.bytes, as: UTF8.self) { return keeping(text, what: what, refusedBy: error) }
        // Kept as it came, as a refused pipe is.
        guard let path = keptFile(Data(input.bytes), what) else { return error }
        return naming(error, kept: keptSentence(path, what))
    }

    /// For a command refused before it read standard input (a mistyped --store or --now, a line
    /// that does not parse, a mistyped command): the text piped in, if any is there to read now,
    /// kept as `keepingUnread` keeps it, and the sentence naming where; "" when there is none, or
    /// it was read already (the pipe is at its end), or the command takes no text there. Waits at
    /// most 0.2 s for a pipe that has nothing in it yet.
    static func keptUnread(_ args: ArraySlice<String>) -> String {
        // Only a command that takes text on standard input, or a word that is no command (most
        // likely one of those mistyped): `tail -f log | egofix status --bogus` must not wait for
        // the pipe's end to be refused.
        let first = args.first ?? ""
        let commands = EgoFix.configuration.subcommands.map { $0._commandName }
        guard ["applied", "skipped", "failed", "amend", "crash"].contains(first) || !commands.contains(first),
              isatty(STDIN_FILENO) == 0, standardInputIsInherited else { return "" }
        var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 200) == 1, ready.revents & Int16(POLLIN) != 0 else { return "" }
        let what = args.first == "crash" ? "note" : ["applied", "skipped", "failed", "amend"].contains(args.first ?? "") ? "reflection" : "text"
        let refusal = CLIError("")
        guard let named = keepingUnread(refusedBy: refusal, message: nil, edit: false, what: what) as? CLIError, !named.message.isEmpty else { return "" }
        return named.message
    }

    /// `what` names the text in errors ("reflection", "note").
    static func checked(_ s: String, what: String = "reflection", refused: String = "Nothing recorded.") throws -> String? {
        if s.utf8.count > Thresholds.maxMarkdownBytes { throw PracticeError.reflectionTooLong(bytes: s.utf8.count) }
        // A NUL would cut the text short in the store, an escape sequence would drive the
        // terminal that shows it later: refused, never stored in part.
        for (offset, c) in s.unicodeScalars.enumerated() where ControlText.isRefused(c) {
            // An escape is most often an arrow key pressed at a prompt.
            let key = c == "\u{1B}" ? " (an arrow or another special key sends one)" : ""
            throw CLIError("the \(what) holds the control character U+\(String(format: "%04X", c.value))\(key) at character \(offset + 1); remove it (tabs and line breaks are fine). \(refused)")
        }
        let t = trimmedEnds(s)
        return VisibleText.showsNothing(t) ? nil : t
    }

    /// The text without blank lines before it and white space after it; the first line keeps its
    /// indentation (four spaces make a Markdown code block, and they used to be cut, so the
    /// block became a paragraph).
    static func trimmedEnds(_ s: String) -> String {
        var end = s.endIndex
        while end > s.startIndex, s[s.index(before: end)].isWhitespace { end = s.index(before: end) }
        var start = s.startIndex, i = s.startIndex
        while i < end, s[i].isWhitespace {
            if s[i].isNewline { start = s.index(after: i) }
            i = s.index(after: i)
        }
        return String(s[start..<end])
    }
}
