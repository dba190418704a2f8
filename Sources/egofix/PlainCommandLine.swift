import ArgumentParser

/// Command lines read without swift-argument-parser, whose reflection costs a few milliseconds a
/// process (the runtime scans the binary's 6,900 protocol conformances for each type it asks
/// about): a plain `egofix build` (see `BuildRequest(commandLine:)`) and the commands run every
/// day, `today`, `applied`, `skipped` and `failed`. Plain means the command, then its own long
/// options (`--name value`, `--name=value`, flags), each once, with values that read as their types
/// and do not look like options. Anything else goes to the parser, with its messages and help;
/// tests hold what is read here to what the parser makes of the same line.
enum PlainCommandLine {
    /// The options of a plain command line, as given: a name (`--out`) and its value, a flag's
    /// value empty. Looked up by name in a list rather than a dictionary: a command line has a
    /// handful, and the first dictionary a process makes costs it more than reading them all.
    struct Options {
        var names: [String] = []
        var values: [String] = []

        subscript(name: String) -> String? { names.firstIndex(of: name).map { values[$0] } }
    }

    /// The options of a plain command line (after the command's name); nil when it is not plain.
    /// `valued` are the options that take a value, `flags` those that do not.
    static func options(_ args: ArraySlice<String>, valued: [String], flags: [String]) -> Options? {
        var out = Options()
        var i = args.startIndex
        while i < args.endIndex {
            let arg = args[i]
            guard arg.hasPrefix("--") else { return nil }
            var name = arg
            var value: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                value = String(arg[arg.index(after: eq)...])
                guard value != "" else { return nil }  // the parser refuses `--out=`
            }
            guard out[name] == nil else { return nil }
            if valued.contains(name) {
                if value == nil {
                    i += 1
                    guard i < args.endIndex, !args[i].hasPrefix("-") else { return nil }
                    value = args[i]
                }
            } else {
                guard flags.contains(name), value == nil else { return nil }
                value = ""
            }
            out.names.append(name)
            out.values.append(value ?? "")
            i += 1
        }
        return out
    }

    /// The value of option `name` read as a `T` (as the parser reads it): `.some(nil)` when the
    /// option is not there, nil when its value does not read as one.
    static func value<T: LosslessStringConvertible>(_ o: Options, _ name: String) -> T?? {
        guard let v = o[name] else { return .some(nil) }
        return T(v).map { .some($0) }
    }

    /// The options every command that touches the store takes (both take a value).
    static let storeOptionNames = ["--store", "--now"]

    static func storeOptions(from o: Options) -> StoreOptions {
        var s = StoreOptions()
        s.store = o["--store"]
        s.now = o["--now"]
        return s
    }

    /// `today`, `applied`, `skipped` or `failed` with every option set as the parser would set it,
    /// when `args` (the whole command line after the program's name) is one of them, plain.
    static func dailyCommand(_ args: [String]) -> ParsableCommand? {
        guard let name = args.first else { return nil }
        switch name {
        case "today":
            guard let o = options(args.dropFirst(), valued: storeOptionNames, flags: ["--json"]) else { return nil }
            var t = Today()
            t.options = storeOptions(from: o)
            t.json = o["--json"] != nil
            return t
        case "applied", "skipped", "failed":
            guard let o = options(args.dropFirst(), valued: storeOptionNames + ["--message", "--count", "--option", "--steps"],
                                  flags: ["--edit", "--timer-done"]),
                  let count: Int? = value(o, "--count"),
                  let steps: Int? = value(o, "--steps") else { return nil }
            var outcome = OutcomeOptions()
            outcome.store = storeOptions(from: o)
            outcome.message = o["--message"]
            outcome.edit = o["--edit"] != nil
            outcome.count = count
            outcome.option = o["--option"]
            outcome.timerDone = o["--timer-done"] != nil
            outcome.steps = steps
            switch name {
            case "applied":
                var c = Applied()
                c.o = outcome
                return c
            case "skipped":
                var c = Skipped()
                c.o = outcome
                return c
            default:
                var c = Failed()
                c.o = outcome
                return c
            }
        default:
            return nil
        }
    }
}
