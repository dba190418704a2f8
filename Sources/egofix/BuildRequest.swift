/// What `egofix build` was asked for: the arguments that decide where it builds and from what.
struct BuildRequest: Equatable, Sendable {
    static let defaultYears = 1
    static let defaultSeed: UInt64 = 7

    var out: String?
    var baseURL: String?
    var demo = false
    var years = BuildRequest.defaultYears
    var seed = BuildRequest.defaultSeed
    var store: String?
    var now: String?
    /// `--stats`: the phases' times on standard error.
    var stats = false
}

extension BuildRequest {
    /// The request in a command line (without the program name) of the plain forms (see
    /// `PlainCommandLine`); nil for anything else (help, another command, an unknown or repeated
    /// option, a value that looks like an option or does not read as its type). `main` builds
    /// straight from it, without swift-argument-parser; anything else goes to the parser, which
    /// makes the same request from these forms (a test holds the two to that).
    init?(commandLine args: [String]) {
        guard args.first == "build",
              let o = PlainCommandLine.options(args.dropFirst(), valued: PlainCommandLine.storeOptionNames + ["--out", "--base-url", "--years", "--seed"],
                                               flags: ["--demo", "--stats"]),
              let years: Int? = PlainCommandLine.value(o, "--years"), let seed: UInt64? = PlainCommandLine.value(o, "--seed") else {
            return nil
        }
        self.years = years ?? BuildRequest.defaultYears
        self.seed = seed ?? BuildRequest.defaultSeed
        out = o["--out"]
        baseURL = o["--base-url"]
        demo = o["--demo"] != nil
        stats = o["--stats"] != nil
        store = o["--store"]
        now = o["--now"]
    }
}
