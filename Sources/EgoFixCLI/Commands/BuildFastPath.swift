/// `egofix build` with nothing but `--store`, `--out`, `--now` and `--base-url` (each at most
/// once, as `--name value`), read without swift-argument-parser: the daily rebuild that finds
/// nothing changed is a few milliseconds, and the parser's start (its reflection of the commands,
/// and the check for `--generate-completion-script` it makes on every line) was about a fifth of
/// it (docs/performance.md, "the build's command line"). Any other line, `--help` and every error
/// included, goes to the parser; tests hold this reading to the parser's for the lines it takes.
enum BuildFastPath {
    /// The build a command line (without the program's name) asks for, or nil for the parser.
    static func arguments(_ line: ArraySlice<String>) -> BuildArguments? {
        guard line.first == "build" else { return nil }
        var arguments = BuildArguments()
        var names: [String] = []
        var rest = line.dropFirst()
        while let name = rest.popFirst() {
            guard !names.contains(name), let value = rest.popFirst(), !value.isEmpty, !value.hasPrefix("-") else { return nil }
            names.append(name)
            switch name {
            case "--store": arguments.store = value
            case "--out": arguments.out = value
            case "--now": arguments.now = value
            case "--base-url": arguments.baseURL = value
            default: return nil
            }
        }
        return arguments
    }
}
