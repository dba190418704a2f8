import ArgumentParser
import Dispatch
import EgoFixConfig
import EgoFixCLI
import EgoFixCore
import EgoFixSite
import EgoFixStore
import FlyingFox
import FlyingSocks
import Foundation

/// `egofix serve` (the program egofix hands over to): builds the site into a cache folder, serves
/// it on localhost, and rebuilds it when the store or the workspace changes; open pages reload by
/// themselves.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "egofix serve", abstract: ServeOptions.abstract,
                                                    discussion: ServeOptions.discussion, version: EgoFixInfo.version)

    @OptionGroup var serve: ServeOptions
    var options: StoreOptions { serve.store }
    var port: Int? { serve.port }
    var host: String { serve.host }
    var open: Bool { serve.open }

    func run() async throws {
        let env = Session.environment()
        let here = try Session.workingFolder()
        let workspace = Session.workspace(from: here)
        if let port, !(0...65535).contains(port) { throw CLIError("--port must be between 0 and 65535.", code: 64) }
        // A store that is not there is refused at the start, as every command refuses it (serve
        // served a site of 404s, "the last good site" it never had, and waited).
        if let config = try? Session.loadConfig(folder: workspace, checkingTimeZone: false) {
            let (path, from) = try Session.storeLocation(flag: options.store, config: config, env: env)
            guard SQLiteStore.exists(at: path) else { throw Session.noStore(at: path, from: from) }
        }
        let address = try ServeCommand.address(host: host, port: UInt16(port ?? 0))
        // The store as given (--store, else EGOFIX_STORE; egofix.toml's is the workspace's): two
        // serves of one folder with two stores built into one cache site and showed each other's.
        let store = (options.store ?? env["EGOFIX_STORE"]).map(Session.expandTilde).map { $0.hasPrefix("/") ? $0 : here + "/" + $0 } ?? ""
        guard let cache = ServeCommand.cacheFolder(workspace: workspace, store: store, env: env) else {
            throw CLIError("no cache folder: set XDG_CACHE_HOME or HOME.")
        }
        let site = cache + "/site"
        try ServeCommand.makePrivateFolder(cache)
        ServeCommand.removeStaleCopies(besides: cache)
        // Held shared while this serve runs: the last one of a folder to stop removes the copy.
        let serving = lockFile(cache + "/.serving")
        if serving >= 0 { _ = flock(serving, LOCK_SH) }

        let live = LiveReload()
        let builder = Rebuilder(options: options, workspace: workspace, site: site, env: env)
        // The first build: a failure is reported like any other, and the last good site (the
        // cache's, from an earlier serve) is served meanwhile.
        // Taken before each build: what changes while a build runs is built next.
        var last = builder.fingerprint()
        let first = await builder.build()
        report(first, first: true, hasSite: FileManager.default.fileExists(atPath: site + "/index.html"))
        switch first {
        case .failure(let message): live.built(error: message)
        case .busy: last = ""  // another serve of this workspace was building: build at the first look
        case .success: break
        }

        let key = ServeKey()
        let server = HTTPServer(address: address, timeout: 15, logger: .disabled,
                                handler: SiteHandler(root: site, live: live, defaultHost: ServeCommand.hostPort(host, port ?? 0),
                                                     loopbackOnly: ServeCommand.isLoopback(host), key: key))
        let failure = ErrorBox()
        Task { do { try await server.run() } catch { failure.set(error) } }
        var bound: Socket.Address?
        for _ in 0..<500 {
            if let e = failure.get() { throw CLIError(ServeCommand.bindMessage(e, host: host, port: port)) }
            if let a = await server.listeningAddress { bound = a; break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        guard let bound else { throw CLIError("could not start listening on \(host).") }
        let actualPort: UInt16
        switch bound {
        case .ip4(_, let p), .ip6(_, let p): actualPort = p
        case .unix: actualPort = 0
        }
        // Listening on every address: the URL to open is this machine's loopback one (a browser
        // cannot open 0.0.0.0); the warning below says the network sees it too.
        let reachable = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        let url = "http://\(ServeCommand.hostPort(reachable, Int(actualPort)))/?\(ServeKey.parameter)=\(key.value)"
        if !ServeCommand.isLoopback(host) {
            // An IPv6 address in brackets: "listening on :::" read as a typo.
            let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            StandardStreams.error("egofix: warning: listening on \(shown): the private site (reflections, crashes, patterns) is visible to that network.\n")
        }
        ServeCommand.say(Terminal.neutralised("Serving \(site) at \(url)"))
        ServeCommand.say("Watching the store and the workspace. Ctrl-C stops.")
        if open { ServeCommand.openInBrowser(url, through: cache + "/open.html") }
        ServeCommand.stopOnSignals(removing: serving >= 0 ? (lock: serving, folder: cache,
                                                              manifest: BuildFingerprint.manifestLocation(for: site, xdgCacheHome: env["XDG_CACHE_HOME"], home: StoreLocation.home(environment: env))) : nil)

        var hadSite = FileManager.default.fileExists(atPath: site + "/index.html")
        while true {
            try? await Task.sleep(nanoseconds: 250_000_000)
            let now = builder.fingerprint()
            // A site removed from the cache while served (its pages were 404 until an input
            // changed) is built again.
            let gone = hadSite && !FileManager.default.fileExists(atPath: site + "/index.html")
            guard now != last || gone, !Signals.stopping.isSet else { continue }
            let result = await builder.build()
            if Signals.stopping.isSet { continue }
            report(result, first: false, hasSite: FileManager.default.fileExists(atPath: builder.site + "/index.html"))
            switch result {
            case .success: live.built(error: nil)
            case .failure(let message): live.built(error: message)
            case .busy: continue  // another serve of this workspace is building into the folder: again at the next look
            }
            last = now
            hadSite = FileManager.default.fileExists(atPath: site + "/index.html")
        }
    }

    private func report(_ result: Rebuilder.Outcome, first: Bool, hasSite: Bool) {
        switch result {
        case .success(let r, let ms):
            ServeCommand.say(Terminal.neutralised("\(first ? "Built" : "Rebuilt") \(r.files) files in \(ms) ms: \(r.written) written, \(r.unchanged) unchanged, \(r.removed) removed."))
            for line in r.notesNotOnTheSite { StandardStreams.error("egofix: warning: " + line + "\n") }
        case .failure(let message):
            StandardStreams.error("egofix: " + Terminal.visible("\(first ? "build" : "rebuild") failed: \(message)") + (message.hasSuffix(".") ? "" : ".") + (hasSite ? " Serving the last good site until it is fixed.\n" : " There is no site yet; the pages say why until it is fixed.\n"))
        case .busy:
            break
        }
    }

    // MARK: helpers

    /// A line on standard output at once (a pipe would otherwise hold it).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func address(host: String, port: UInt16) throws -> any SocketAddress {
        let h = host == "localhost" ? "127.0.0.1" : host
        do {
            if h.contains(":") { return try sockaddr_in6.inet6(ip6: h.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port) }
            return try sockaddr_in.inet(ip4: h, port: port)
        } catch {
            throw CLIError("--host takes an IP address or localhost (127.0.0.1, 0.0.0.0, ::1), not \(host).")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    static func hostPort(_ host: String, _ port: Int) -> String {
        let h = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(h):\(port)"
    }

    static func bindMessage(_ error: Error, host: String, port: Int?) -> String {
        let text = "\(error)"
        if text.contains("in use") || text.contains("EADDRINUSE") {
            return "port \(port ?? 0) on \(host) is in use. Pick another with --port, or leave --port out for a free one."
        }
        // The socket library's value ("failed(type: \"Bind\", errno: 99, ...)") said in words.
        if text.contains("errno: 99") || text.contains("EADDRNOTAVAIL") || text.contains("Cannot assign requested address") {
            return "cannot listen on \(host): no network interface of this machine has that address. Leave --host out for 127.0.0.1, or give an address of this machine."
        }
        if text.contains("errno: 13") || text.contains("Permission denied") {
            return "cannot listen on \(hostPort(host, port ?? 0)): a port below 1024 needs the administrator. Leave --port out for a free one."
        }
        let message = text.range(of: #"message: "([^"]*)""#, options: .regularExpression).map { String(text[$0].dropFirst(10).dropLast()) } ?? text
        return "could not listen on \(host)\(port.map { ":\($0)" } ?? ""): \(message)."
    }

    /// $XDG_CACHE_HOME/egofix/serve/<hash of the workspace>, else ~/.cache/...
    static func cacheFolder(workspace: String, store: String, env: [String: String]) -> String? {
        let base: String
        if let x = env["XDG_CACHE_HOME"], x.hasPrefix("/") { base = x } else { base = StoreLocation.home(environment: env) + "/.cache" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // A store named adds itself to the key; with none, the key is the workspace's alone (as it was).
        for b in workspace.utf8 + (store.isEmpty ? [] : [0] + Array(store.utf8)) { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return base + "/egofix/serve/" + String(format: "%016llx", hash)
    }

    /// Opens `url` in the browser through a page at `page` (0600) that goes on to it: the address
    /// carries the key, and a command line (xdg-open's, then the browser's, for as long as it
    /// runs) is anyone's to read in the process list.
    static func openInBrowser(_ url: String, through page: String) {
        let html = "<!doctype html>\n<meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0;url=\(url)\"><title>egofix serve</title>\n"
        let target = (try? AtomicFile.write(Data(html.utf8), to: page, mode: 0o600)) != nil ? URL(fileURLWithPath: page).absoluteString : nil
        guard let target else {
            StandardStreams.error("egofix: could not write \(page) to open the browser with. Open the address above by hand.\n")
            return
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["xdg-open", target]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        if (try? p.run()) == nil { StandardStreams.error("egofix: could not open a browser (xdg-open). Open the address above by hand.\n") }
    }

    /// Makes the cache folder and the folders above it that it makes readable by this user alone,
    /// whatever the umask, and tightens the ones egofix made before (up to `egofix` in the cache):
    /// made 0777 under umask 000, another account could put a site of its own in the place of the
    /// served one, which then ran on this user's keyed address. Refused when the folder is not
    /// this user's.
    static func makePrivateFolder(_ cache: String) throws {
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var folder = cache
        for _ in 0..<3 {
            guard PrivateFolder.isOwnedAndTightened(folder) else {
                throw CLIError("\(Terminal.visible(folder)) is not a folder of yours; serve keeps its copy of the private site there. Remove it, or set XDG_CACHE_HOME.")
            }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// Removes the copies of the site that serves ended without removing (closed by `kill -9`, or
    /// by an egofix before SIGHUP was heard): those no serve holds (`.serving` can be locked
    /// alone) and made more than a minute ago, so a serve starting now keeps its own.
    static func removeStaleCopies(besides cache: String) {
        let parent = (cache as NSString).deletingLastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names.sorted() where parent + "/" + name != cache {
            let folder = parent + "/" + name, lockPath = folder + "/.serving"
            var st = stat()
            guard lstat(lockPath, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == getuid(),
                  Date().timeIntervalSince1970 - Double(st.st_mtim.tv_sec) > 60 else { continue }
            let fd = Glibc.open(lockPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(atPath: folder) }
            close(fd)
        }
    }

    /// Ctrl-C, SIGTERM and SIGHUP (the terminal closed) end the process at once with exit 0: a build cut short leaves the
    /// previous site whole and its leftovers are cleared by the next build. The last serve of a
    /// folder to stop (no other holds `lock`) removes its copy of the site and its manifest: the
    /// private pages stayed in the cache after the store itself was deleted.
    ///
    /// The signal is taken by a C handler that writes its number to a pipe, and the stop is made on
    /// a thread of its own that waits on that pipe: a handler on a dispatch queue needed a free
    /// thread of the pool the requests run on, and a request whose headers took minutes to parse
    /// (one per core) left none, so Ctrl-C, SIGTERM and a closed terminal did nothing and only
    /// `kill -9` ended serve, leaving the private copy of the site in the cache (helper 111).
    static func stopOnSignals(removing copy: (lock: Int32, folder: String, manifest: String?)?) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        // Close-on-exec: a browser `--open` starts does not hold the pipe.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        Signals.pipeWrite = fds[1]
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { n in
                var byte = UInt8(truncatingIfNeeded: n)
                _ = write(Signals.pipeWrite, &byte, 1)
            }
        }
        let readEnd = fds[0]
        let stopper = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            Signals.stopping.set()
            if let copy, flock(copy.lock, LOCK_EX | LOCK_NB) == 0 {
                try? FileManager.default.removeItem(atPath: copy.folder)
                if let m = copy.manifest { unlink(m) }
                ServeCommand.say("Stopped. Its copy of the site is removed from the cache.")
            } else {
                ServeCommand.say("Stopped.")
            }
            Foundation.exit(0)
        }
        stopper.start()
    }
}

/// A file opened to be held with `flock` (the C `open`; `open` in `ServeCommand` is its flag).
private func lockFile(_ path: String) -> Int32 {
    open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
}

private enum Signals {
    /// The pipe's write end, for the C signal handler (set once, before any handler is installed).
    nonisolated(unsafe) static var pipeWrite: Int32 = -1
    /// Set once a stop has begun: the watch loop then builds and reports nothing more (it took the
    /// cache copy's removal for a site gone missing, rebuilt into the half-removed folder, and
    /// printed "rebuild failed" after the stop).
    static let stopping = Flag()
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?
    func set(_ e: Error) { lock.withLock { error = e } }
    func get() -> Error? { lock.withLock { error } }
}

/// One build of the served site: egofix.toml read again, the store's source made afresh (with
/// the clock as it is now), the pipeline run into the cache folder.
struct Rebuilder: Sendable {
    enum Outcome {
        case success(SiteBuildResult, ms: Int)
        case failure(String)
        /// Another build (a second serve of the workspace) was writing into the folder.
        case busy
    }

    let options: StoreOptions
    let workspace: String
    let site: String
    let env: [String: String]

    func build() async -> Outcome {
        let started = Date()
        do {
            let config = try Session.loadConfig(folder: workspace)
            if let problem = config.siteProblems.first { throw problem }
            // Served from the root of this server, not at base_url's path: with base_url =
            // https://example.org/me/, the 404 page's links led to /me/style.css and /me/..., which are not here.
            let request = SiteBuildRequest.workspace(workspace, config: config, outputPath: site, baseURL: nil,
                                                     source: try StoreBuildSource.source(store: options.store, now: options.now, config: config, env: env),
                                                     env: env)
            let result = try await SitePipeline.run(request)
            return .success(result, ms: Int(Date().timeIntervalSince(started) * 1000))
        } catch let e as WorkspaceConfig.ParseError {
            return .failure(e.description)
        } catch let e as SiteBuildFailure {
            return e.isBusy ? .busy : .failure(e.description)
        } catch {
            return .failure(EgoFix.userFacingMessage(error) ?? "\(error)")
        }
    }

    /// The inputs as `InputWatch` sees them, with the local day (a new day is a new dashboard).
    func fingerprint() -> String {
        let config = (try? Session.loadConfig(folder: workspace, checkingTimeZone: false)) ?? WorkspaceConfig()
        let zone = (try? Session.timeZone(config: config, environment: env)) ?? TimeZone(identifier: "UTC") ?? .current
        let now = (try? Session.clock(options.now, environment: env)) ?? Date()
        let day = SiteClockView(now: now, calendar: UserCalendar.make(timeZone: zone)).text
        return InputWatch.fingerprint(store: (try? Session.storePath(flag: options.store, config: config, env: env)) ?? "", workspace: workspace,
                                      contentFolder: config.content ?? "content", day: day)
    }
}
