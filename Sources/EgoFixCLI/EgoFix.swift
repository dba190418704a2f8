import ArgumentParser
import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation
#if canImport(Glibc)
import CMalloc
#endif

/// The command line's root; `egofix` (Sources/egofix) runs it, `egofix-serve` runs the server.
public struct EgoFix: AsyncParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "egofix",
        abstract: "Ego patterns as bugs in legacy code. A daily fix, a weekly diagnostic, a static site.",
        discussion: """
        Your ego is legacy software: poorly documented, full of defensive functions that fire when \
        they shouldn't. EgoFix gives you one small fix a day and keeps the record in a local store. \
        Start with `egofix init`, or `egofix build --demo` to see the site.
        """,
        version: EgoFixInfo.version,
        subcommands: [Init.self, Today.self, Applied.self, Skipped.self, Failed.self, Amend.self, CrashCommand.self, Reboot.self,
                      Diagnostic.self, Status.self, History.self, Patterns.self, Bugs.self, BugCommand.self, Export.self, Import.self, Check.self, SyncCommand.self, Share.self, Build.self, Serve.self, BenchCard.self, Demo.self, Calibrate.self, Lint.self, TimerCommand.self, Remind.self])
}

extension EgoFix {
    /// Errors a user can cause end in one line on standard error and exit code 1;
    /// usage errors get ArgumentParser's message and help hint.
    public static func runCommandLine() async { await runCommandLine(of: EgoFix.self) }

    /// The command line of `root`, run as `runCommandLine` describes (the server's program uses it too).
    package static func runCommandLine<Root: ParsableCommand>(of root: Root.Type) async {
        reserveHeapsWhole()
        do {
            try refuseArgumentsNotUTF8()
            try refuseRepeatedOptions(CommandLine.arguments.dropFirst())
            // `help NAME` parses (as the overview); any other unknown first word is looked at only
            // when the parser refuses the line, so a command line that parses pays nothing.
            if CommandLine.arguments.dropFirst().first == "help" {
                try refuseUnknownCommand(of: root, CommandLine.arguments.dropFirst())
            }
            if Root.self == EgoFix.self, let build = BuildFastPath.arguments(CommandLine.arguments.dropFirst()) {
                try await build.run()
                try StandardStreams.finish()
                return
            }
            var command = try root.parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
            // Output that did not arrive is an error, not a silent success.
            try StandardStreams.finish()
        } catch {
            // Text piped in or typed into a heredoc that the refused command never read (a
            // mistyped --store or --now, a command line that does not parse) is kept, as every
            // refused text is: it may exist nowhere else.
            let kept = root.exitCode(for: error) == .success ? "" : ReflectionInput.keptUnread(CommandLine.arguments.dropFirst())
            if let line = userFacingMessage(error) {
                StandardStreams.error("egofix: " + Terminal.visible(line) + kept + "\n")
                Foundation.exit(error is CLIError ? (error as? CLIError)?.code ?? 1 : 1)
            }
            // Help and --version go to standard output like any other output: checked, so help
            // that did not arrive (a full disk) is an error, not a silent 0.
            if root.exitCode(for: error) == .success {
                do {
                    try StandardStreams.write(Data((root.fullMessage(for: error) + "\n").utf8))
                } catch {
                    StandardStreams.error("egofix: " + (userFacingMessage(error) ?? "\(error)") + "\n")
                    Foundation.exit(1)
                }
                Foundation.exit(0)
            }
            // A command line the parser refuses: one line, as every other error, with where to look.
            do { try refuseUnknownCommand(of: root, CommandLine.arguments.dropFirst()) } catch let unknown as CLIError {
                StandardStreams.error("egofix: " + unknown.message + kept + "\n")
                Foundation.exit(unknown.code)
            } catch {}
            StandardStreams.error("egofix: " + Terminal.visible(reflectionHint(usageLine(root.fullMessage(for: error)), CommandLine.arguments.dropFirst())) + kept + "\n")
            Foundation.exit(root.exitCode(for: error).rawValue)
        }
    }

    /// An option given twice with two values (`applied -m first -m second`, `init --bug a --bug
    /// b`): the parser keeps the last, and the first was dropped without a word. Refused (exit
    /// 64), but for `diagnostic --rate`, which takes one a bug. A flag given twice (`--json
    /// --json`), or an option twice with one value, changes nothing and passes. A word after
    /// `--` is no option.
    static func refuseRepeatedOptions(_ args: ArraySlice<String>) throws {
        let aliases = ["-m": "--message", "-e": "--edit", "-h": "--help"]
        var given: [String: String] = [:]
        var i = args.startIndex
        while i < args.endIndex {
            let a = args[i]
            if a == "--" { break }
            i += 1
            let long = a.hasPrefix("--") ? String(a.prefix { $0 != "=" }) : aliases[a]
            guard let name = long, name != "--rate" else { continue }
            // Its value: after "=", else the next word unless that is an option.
            let value: String
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                value = String(a[a.index(after: eq)...])
            } else if i < args.endIndex, !args[i].hasPrefix("-") {
                value = args[i]
                i += 1
            } else {
                continue
            }
            if let earlier = given[name], earlier != value {
                throw CLIError("\(a.hasPrefix("--") ? name : a) is given twice, and only one can count. Give it once. Nothing recorded.", code: 64)
            }
            given[name] = value
        }
    }

    /// A first word that is no command (`egofix aplied -m x`): the parser named the first option it
    /// could not place ("unknown option '-m'"), and `egofix help NAME` showed the overview with
    /// exit 0. Both say there is no such command (exit 64), with the nearest name when one is close.
    static func refuseUnknownCommand<Root: ParsableCommand>(of root: Root.Type, _ args: ArraySlice<String>) throws {
        guard !root.configuration.subcommands.isEmpty, let first = args.first, !first.hasPrefix("-") else { return }
        // `help A B`: each word a command of the one before (`help bug nope` showed bug's help).
        // Any other line: its leading words, so that a word in a subcommand's place is looked at too.
        let words = Array((first == "help" ? args.dropFirst() : args).prefix { !$0.hasPrefix("-") })
        var level: [ParsableCommand.Type] = root.configuration.subcommands
        var name = ""
        var names: [String] = []
        var path: [String] = []
        for (depth, word) in words.enumerated() {
            guard !level.isEmpty else { return }
            names = level.map { $0._commandName } + (depth == 0 ? ["help"] : [])
            name = word
            guard let next = level.first(where: { $0._commandName == word }) else { break }
            level = next.configuration.subcommands
            path.append(word)
            name = ""
        }
        guard !name.isEmpty, !names.contains(name) else { return }
        // `egofix bug need-to-be-right activate`: the parser said "2 unexpected arguments". The
        // subcommand may come after options too (`bug SLUG --store X activate`).
        let all = Array(args)
        if first != "help", !path.isEmpty, let place = all.firstIndex(of: name),
           let at = all[(place + 1)...].firstIndex(where: { names.contains($0) }) {
            var rest = Array(all[path.count...])
            rest.remove(at: at - path.count)
            let line = path + [all[at]] + rest
            let shown = "`egofix \(line.map { Demo.shellWord(Terminal.visible($0)) }.joined(separator: " "))`"
            // The line put in order is offered only when it parses; else what is still wrong with
            // it is said too (`bug SLUG activate --store` offered a line missing its store).
            do { _ = try root.parseAsRoot(line) } catch where root.exitCode(for: error) != .success {
                throw CLIError("the subcommand comes first (\(shown)); in that order it is still refused: " + usageLine(root.fullMessage(for: error)), code: 64)
            } catch {}
            throw CLIError("the subcommand comes first: \(shown).", code: 64)
        }
        // A near spelling of the word typed (`bug actvate`: activate), else the one command that
        // begins as it does for four letters or more (`apply` for applied, `skip`, `diag`: too far
        // apart to be a misspelling).
        let typed = name
        name = (path + [name]).joined(separator: " ")
        let stem = names.filter { $0.commonPrefix(with: typed).count >= 4 }
        let near = (NameShape.nearest(typed, among: names, firstOfEquals: true) ?? (stem.count == 1 ? stem.first : nil)).map { (path + [$0]).joined(separator: " ") }
        let help = path.isEmpty ? "'egofix --help' for the commands" : "'egofix \(path.joined(separator: " ")) --help' for its commands"
        throw CLIError("no command '\(Terminal.visible(name))'" + (near.map { " (\($0)?)" } ?? "") + ". See \(help).", code: 64)
    }

    /// An argument whose bytes are not UTF-8 (a path from another system's encoding): Swift reads
    /// it with U+FFFD in place of the bytes, so an existing store was "not there", `init` offered
    /// to make a second one at the changed path, and a build wrote into another folder.
    static func refuseArgumentsNotUTF8() throws {
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { continue }
            throw CLIError("argument \(i), '\(Terminal.visible(String(cString: raw)))', is not UTF-8 text, and egofix reads paths and text as UTF-8. "
                           + "Rename the file or folder, or give another path. Nothing was changed.", code: 64)
        }
    }

    /// swift-argument-parser's "Error: ..." (with its help and usage lines) as one line: the error,
    /// then its "See 'egofix history --help' for more information."
    /// `applied --note TEXT` (crash's word for its text) was answered "Did you mean '--now'?": for
    /// the commands that take a reflection, the option meant is named instead.
    static func reflectionHint(_ line: String, _ args: ArraySlice<String>) -> String {
        guard let command = args.first, ["applied", "skipped", "failed", "amend"].contains(command),
              let word = ["--note", "--reflection", "--text", "--comment"].first(where: { line.hasPrefix("unknown option '\($0)'") }) else { return line }
        return "unknown option '\(word)'. The reflection is -m TEXT (or piped in, or -e for the editor). See 'egofix \(command) --help' for more information."
    }

    static func usageLine(_ full: String) -> String {
        let lines = full.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var first = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 } ?? "this command line is not understood"
        if let c = first.first, c.isUppercase, first.dropFirst().first?.isUppercase != true { first = c.lowercased() + first.dropFirst() }
        if let last = first.last, !".?!".contains(last) { first += "." }
        return lines.first { $0.hasPrefix("See '") }.map { first + " " + $0 } ?? first
    }

    /// Each malloc heap a thread makes is made usable in one step, 32 MiB at a time, and kept once
    /// used: by default glibc unprotects a thread's heap a few pages at a time (a build's render
    /// threads made about 440 `mprotect` calls) and hands freed tops back to the kernel, to fault
    /// them in again on the next page. Only the address space is reserved; memory is still taken
    /// as it is touched.
    static func reserveHeapsWhole() {
        #if canImport(Glibc)
        _ = mallopt(M_TOP_PAD, 32 << 20)
        #endif
    }

    package static func userFacingMessage(_ error: Error) -> String? {
        switch error {
        case let e as CLIError: return e.message
        case let e as PracticeError: return e.description
        case let e as SeedLint.Failure:
            // One line: the first problem, and where the rest are listed.
            guard let first = e.issues.first else { return e.description }
            // What to do, even for one problem: the bare "Seeds/bugs.json: not valid JSON" stopped
            // the day's mark with no way on.
            let more = e.issues.count - 1
            let line = "Seeds/" + first.description + (more == 0 ? "" : " (and \(more) more)")
            return (line.hasSuffix(".") ? line : line + ".")
                + " Nothing recorded. Mend it (`egofix lint Seeds` lists every problem), or move Seeds/ aside for the built-in catalogue."
        case let e as FixCompletion.TransitionError: return e.description
        case let e as RepositoryError: return e.description
        case let e as StoreError: return e.description
        case let e as SyncError: return e.description
        default: return nil
        }
    }
}

package enum EgoFixInfo {
    package static let version = "0.1.0"
}
