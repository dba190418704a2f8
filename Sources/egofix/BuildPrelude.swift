import EgoFixCore
import EgoFixSite
import EgoFixStore
import Foundation

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
}

extension BuildRequest {
    /// The request in a command line (without the program name) of the plain forms, `build` then
    /// `--name value`, `--name=value` and flags, each once; nil for anything else (help, another
    /// command, an unknown or repeated option, a value that looks like an option). It is a guess
    /// made before the arguments are parsed: the build uses what was worked out from it only when
    /// it equals the request the parser makes.
    init?(commandLine args: [String]) {
        guard args.first == "build" else { return nil }
        var seen: [String] = []
        var i = 1
        while i < args.count {
            var name = args[i]
            var value: String?
            if name.hasPrefix("--"), let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard !seen.contains(name) else { return nil }
            seen.append(name)
            switch name {
            case "--demo", "--stats":
                guard value == nil else { return nil }
                if name == "--demo" { demo = true }
            case "--out", "--base-url", "--years", "--seed", "--store", "--now":
                if value == nil {
                    i += 1
                    guard i < args.count, !args[i].hasPrefix("-") else { return nil }
                    value = args[i]
                }
                guard let v = value else { return nil }
                switch name {
                case "--out": out = v
                case "--base-url": baseURL = v
                case "--years": guard let n = Int(v) else { return nil }; years = n
                case "--seed": guard let n = UInt64(v) else { return nil }; seed = n
                case "--store": store = v
                default: now = v
                }
            default:
                return nil
            }
            i += 1
        }
    }
}

/// The first part of a build, before any page: the settings, where the site goes, the key of its
/// inputs, the last build's manifest, and whether the folder already holds this very build.
struct BuildPrelude: Sendable {
    let began: Date
    let cwd: URL
    let config: WorkspaceConfig
    let output: URL
    /// The base URL, ending in "/".
    let base: String?
    let writer: SiteWriter
    let manifestURL: URL?
    let key: String
    let listing: SiteManifest.Listing?
    /// Every file of the folder, unchanged, when it holds the build of these same inputs; else nil.
    let unchanged: SiteWriteReport?
    /// When the key was made, the manifest read and the folder checked (for --stats).
    let phases: [(String, Date)]

    init(_ request: BuildRequest, environment env: [String: String]) throws {
        began = Date()
        let config: WorkspaceConfig
        do { config = try Session.loadConfig() } catch let e as WorkspaceConfig.ParseError { throw CLIError(e.description) }
        self.config = config
        cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        output = URL(fileURLWithPath: request.out ?? config.output ?? "site", relativeTo: cwd).standardizedFileURL
        var base = request.baseURL ?? config.baseURL
        if let b = base {
            guard b.hasPrefix("https://") || b.hasPrefix("http://") else { throw CLIError("--base-url must start with https:// or http://.") }
            if !b.hasSuffix("/") { base = b + "/" }
        }
        self.base = base
        let demo = request.demo
        let storePath = demo ? nil : StoreLocation.resolve(flag: request.store ?? (env["EGOFIX_STORE"] == nil ? config.store.map(Session.expandTilde) : nil),
                                                       environment: env)
        if let path = storePath, !FileManager.default.fileExists(atPath: path) {
            throw CLIError("no store at \(path). `egofix init` starts one; `egofix build --demo` builds the demo site.")
        }
        writer = SiteWriter(output: output)
        manifestURL = BuildFingerprint.manifestLocation(for: writer.output, environment: env)
        let clockNow = demo ? nil : try Session.clock(request.now, environment: env)
        let zone = demo ? DemoSite.zone : (try Session.timeZone(config: config, environment: env)).identifier
        key = BuildFingerprint.key(workspace: cwd, config: config, contentFolder: config.content ?? "content",
                                   source: demo ? .demo(years: request.years, seed: request.seed)
                                       : .store(path: storePath ?? "", now: clockNow ?? Date()),
                                   zone: zone, title: config.title ?? "EgoFix", baseURL: base)
        var phases = [("inputs hashed", Date())]
        listing = manifestURL.flatMap { SiteManifest.Listing.read($0) }
        phases.append(("manifest read", Date()))
        // Nothing changed since the last build into this folder (same inputs, same egofix, files
        // as that build left them): nothing to do.
        var unchanged: SiteWriteReport?
        if let listing, listing.key == key {
            do { unchanged = try writer.unchanged(as: listing) } catch let e as SiteWriterError { throw CLIError(e.description) }
        }
        self.unchanged = unchanged
        phases.append((unchanged == nil ? "inputs checked" : "checked, nothing changed", Date()))
        self.phases = phases
    }
}

/// The prelude of `egofix build`, worked out on another core while swift-argument-parser reads the
/// command line (a few milliseconds of reflection), from a guess at the request (see
/// `BuildRequest(commandLine:)`). A no-change rebuild is mostly that prelude.
enum EarlyBuild {
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var pending: (request: BuildRequest, work: Parallel.Background<Result<BuildPrelude, Error>>)?
    }
    private static let slot = Slot()

    /// Starts the prelude when the command line is a plain `egofix build`. Call before parsing.
    static func start(commandLine: [String]) {
        guard let request = BuildRequest(commandLine: Array(commandLine.dropFirst())) else { return }
        let work = Parallel.Background.onNewThread { Result { try BuildPrelude(request, environment: ProcessInfo.processInfo.environment) } }
        slot.lock.lock()
        slot.pending = (request, work)
        slot.lock.unlock()
    }

    /// The prelude made early, when it was made for `request` and got through; nil otherwise (the
    /// build then makes its own, with its own errors). Waits for one still being made, which may
    /// hold the output folder's lock.
    static func take(for request: BuildRequest) -> BuildPrelude? {
        slot.lock.lock()
        let pending = slot.pending
        slot.pending = nil
        slot.lock.unlock()
        guard let pending else { return nil }
        let result = pending.work.wait()
        guard pending.request == request, case .success(let prelude) = result else { return nil }
        return prelude
    }
}
