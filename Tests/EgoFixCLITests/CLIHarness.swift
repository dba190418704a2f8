import Foundation
import XCTest

/// Runs the real `egofix` binary that `swift test` built next to the test bundle.
struct CLI {
    let store: String
    let zone: String
    let workdir: String

    /// The products folder: on Linux the test bundle's URL is that folder, elsewhere its parent.
    static var binary: URL {
        let bundle = Bundle(for: BundleMarker.self).bundleURL
        let here = bundle.appendingPathComponent("egofix")
        if FileManager.default.isExecutableFile(atPath: here.path) { return here }
        return bundle.deletingLastPathComponent().appendingPathComponent("egofix")
    }

    static func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "egofix-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    init(zone: String = "Europe/Berlin") throws {
        workdir = try CLI.temporaryDirectory()
        store = workdir + "/store.sqlite"
        self.zone = zone
    }

    struct Result {
        let status: Int32
        let out: String
        let err: String
    }

    @discardableResult
    /// `wrapper`: a program egofix runs under, with its arguments (`setpriv --reuid=65534 ...`).
    /// `namingTheStore: false` leaves out the `--store` the harness adds, for the default store.
    func run(_ args: [String], at now: String? = nil, stdin: String? = nil, env extra: [String: String] = [:],
             stdout target: FileHandle? = nil, in folder: String? = nil, wrapper: [String] = [], namingTheStore: Bool = true) throws -> Result {
        let p = Process()
        var a = args
        if namingTheStore && !args.contains("--store") && !["lint", "help", "--help", "--version", "calibrate"].contains(args.first ?? "") { a += ["--store", store] }
        if let now { a += ["--now", now] }
        if let program = wrapper.first {
            p.executableURL = URL(fileURLWithPath: program)
            a = wrapper.dropFirst() + [CLI.binary.path] + a
        } else {
            p.executableURL = CLI.binary
        }
        p.arguments = a
        var env = ["TZ": zone, "NO_COLOR": "1", "HOME": workdir, "PATH": "/usr/bin:/bin", "LANG": "C", "SWIFT_BACKTRACE": "enable=no", "TMPDIR": workdir]
        for (k, v) in extra { env[k] = v }
        p.environment = env
        p.currentDirectoryURL = URL(fileURLWithPath: folder ?? workdir)
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = target ?? out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        if target != nil { try out.fileHandleForWriting.close() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// Marks the pending fix `outcome` ("applied", "skipped", "failed"), giving what its kind
    /// takes when it is refused without it: a count of 1, option a, 1 step.
    @discardableResult
    func mark(_ outcome: String, at now: String, message: String? = nil) throws -> Result {
        let m = message.map { ["-m", $0] } ?? []
        var r = try run([outcome] + m, at: now)
        for (flag, value) in [("--count", "1"), ("--option", "a"), ("--steps", "1")] where r.status != 0 && r.err.contains(flag) {
            r = try run([outcome, flag, value] + m, at: now)
        }
        return r
    }

    func json(_ args: [String], at now: String? = nil) throws -> [String: Any] {
        let r = try run(args + ["--json"], at: now)
        XCTAssertEqual(r.status, 0, r.err)
        return (try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]) ?? [:]
    }

    func export() throws -> Data {
        let path = workdir + "/export-\(UUID().uuidString).json"
        let r = try run(["export", path])
        XCTAssertEqual(r.status, 0, r.err)
        return FileManager.default.contents(atPath: path) ?? Data()
    }
}

final class BundleMarker {}

extension CLI {
    /// `egofix ARGS` in a pseudo-terminal (util-linux's `script`), `input` typed into it (each line
    /// read when a prompt asks; its end is Ctrl-D): what a person at a terminal sees and gets.
    /// `before` runs in the same terminal first, `then` after egofix ends (a `sed` there reads what egofix left
    /// unread, as the shell would). A run that has not ended in 60 s is stopped (`timeout`), as a hang.
    /// `later` is typed `delay` seconds after `input` (a Ctrl-C meant for a prompt, not for the shell
    /// that starts egofix).
    func runInTerminal(_ args: [String], at now: String, input: String, later: String? = nil, after delay: TimeInterval = 1,
                       env extra: [String: String] = [:], before: String = "", then: String = "") throws -> Result {
        let command = (before.isEmpty ? "" : before + "; ")
            + ([CLI.binary.path] + args + ["--store", store, "--now", now]).map { "'" + $0 + "'" }.joined(separator: " ")
            + (then.isEmpty ? "" : "; " + then)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = ["60", "/usr/bin/script", "-qec", command, "/dev/null"]
        var env = ["TZ": zone, "NO_COLOR": "1", "HOME": workdir, "PATH": "/usr/bin:/bin", "LANG": "C", "SWIFT_BACKTRACE": "enable=no", "TMPDIR": workdir]
        for (k, v) in extra { env[k] = v }
        p.environment = env
        p.currentDirectoryURL = URL(fileURLWithPath: workdir)
        let inPipe = Pipe(), outPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = outPipe
        try p.run()
        inPipe.fileHandleForWriting.write(Data(input.utf8))
        if let later {
            Thread.sleep(forTimeInterval: delay)
            inPipe.fileHandleForWriting.write(Data(later.utf8))
        }
        try inPipe.fileHandleForWriting.close()
        let out = String(decoding: outPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return Result(status: p.terminationStatus, out: out, err: "")
    }
}

extension CLI {
    /// Two machines sharing a sync folder: A begins a practice on `bug` at `begun` and rates it
    /// quiet at each of `quiet`, syncs at `synced`, and B joins a few minutes later.
    static func twoMachines(bug: String, begun: String, quiet: [String], synced: String,
                            joined: String) throws -> (a: CLI, b: CLI, folder: String) {
        let a = try CLI(), b = try CLI()
        let dir = a.workdir + "/shared"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertEqual(try a.run(["init", "--bug", bug], at: begun).status, 0)
        for at in quiet { XCTAssertEqual(try a.run(["diagnostic", "--rate", "\(bug)=quiet"], at: at).status, 0) }
        XCTAssertEqual(try a.run(["sync", dir], at: synced).status, 0)
        XCTAssertEqual(try b.run(["init", "--from", dir], at: joined).status, 0)
        return (a, b, dir)
    }

    /// The two machines sync into `folder` in turn, `a` first, once at each instant.
    static func syncInTurn(_ a: CLI, _ b: CLI, folder: String, at instants: [String]) throws {
        for (i, t) in instants.enumerated() { XCTAssertEqual(try (i % 2 == 0 ? a : b).run(["sync", folder], at: t).status, 0) }
    }

    /// After the syncs, on each machine: `bugs --json` at `bugsAt` meets `check`, and a sync at
    /// `syncAt` changes nothing; the two exports are byte-identical.
    static func assertAgree(_ a: CLI, _ b: CLI, folder: String, bugsAt: String, syncAt: String,
                            _ check: ([[String: Any]]) throws -> Void) throws {
        for m in [a, b] {
            try check(try m.json(["bugs"], at: bugsAt)["bugs"] as? [[String: Any]] ?? [])
            XCTAssertTrue(try m.run(["sync", folder], at: syncAt).out.contains("0 records changed here"))
        }
        XCTAssertEqual(try a.export(), try b.export())
    }
}
