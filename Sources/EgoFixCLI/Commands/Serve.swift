import ArgumentParser
import Foundation

/// `egofix serve`'s arguments: read here (for help and usage errors) and again by the server.
package struct ServeOptions: ParsableArguments {
    package static let abstract = "Serve the site on localhost while you practice: rebuilt when the store or the workspace changes, pages reload."
    package static let discussion = """
        Builds into a cache folder ($XDG_CACHE_HOME/egofix/serve), not into `output`. Watches the store, egofix.toml, \
        content/, Templates/, Assets/ and Seeds/. A failed rebuild keeps the last good site and says why, here and on \
        the pages. The address it prints carries a key (other accounts on this machine reach \
        localhost too): open that address. GET and HEAD only. Ctrl-C stops it.
        """

    @OptionGroup package var store: StoreOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("Port, 0 to 65535. Default: a free one (0 too), printed on start.", valueName: "n")) package var port: Int?
    @Option(help: ArgumentHelp("Address to listen on. Anything but loopback shows the private site to that network.", valueName: "host"))
    package var host: String = "127.0.0.1"
    @Flag(help: "Open the site in the default browser.") package var open = false

    package init() {}
}

/// `egofix serve`: the server is its own program, `egofix-serve`, installed beside egofix. It links
/// an HTTP library (and, through Foundation's networking, libcurl and some thirty libraries more)
/// that every other command would otherwise load at each start; this command hands over to it
/// with the same arguments.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: ServeOptions.abstract,
                                                    discussion: ServeOptions.discussion)

    @OptionGroup var serve: ServeOptions

    func run() throws {
        guard let path = Serve.serverPath() else { throw CLIError("cannot tell where egofix is installed (/proc/self/exe), so egofix-serve cannot be found.") }
        let rest = Array(CommandLine.arguments.drop { $0 != "serve" }.dropFirst())
        try StandardStreams.finish()
        let argv = ([path] + rest).map { strdup($0) } + [nil]
        execv(path, argv)
        let why = String(cString: strerror(errno))
        throw CLIError("cannot run \(path) (\(why)). It is the program behind `egofix serve`: `make install` puts it beside egofix; `swift build` builds it beside the debug egofix.")
    }

    /// `egofix-serve` in the folder of the running egofix (links resolved).
    static func serverPath() -> String? {
        guard let exe = RunningExecutable.path(), let slash = exe.lastIndex(of: "/") else { return nil }
        return String(exe[..<slash]) + "/egofix-serve"
    }
}
