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
        let known = PlainCommandLine.storeOptionNames.merging(["--out": true, "--base-url": true, "--demo": false, "--years": true,
                                                           "--seed": true, "--stats": false]) { a, _ in a }
        guard args.first == "build", let o = PlainCommandLine.options(args.dropFirst(), known: known) else { return nil }
        if let v = o["--years"] {
            guard let n = Int(v) else { return nil }
            years = n
        }
        if let v = o["--seed"] {
            guard let n = UInt64(v) else { return nil }
            seed = n
        }
        out = o["--out"]
        baseURL = o["--base-url"]
        demo = o["--demo"] != nil
        stats = o["--stats"] != nil
        store = o["--store"]
        now = o["--now"]
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
