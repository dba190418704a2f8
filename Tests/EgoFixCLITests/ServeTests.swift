import Foundation
import Synchronization
import XCTest

/// `egofix serve` as a user runs it: a real process on a free port, fetched with curl.
final class ServeTests: XCTestCase {
    /// What a process printed so far, read as it comes.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ d: Data) { lock.withLock { data.append(d) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    struct Served {
        let process: Process
        let out: Output
        let err: Output
        let url: String
        let site: String
    }

    func startServe(_ cli: CLI, extra: [String] = []) throws -> Served {
        let p = Process()
        p.executableURL = CLI.binary
        p.arguments = ["serve"] + (extra.contains("--store") ? [] : ["--store", cli.store]) + extra
        p.environment = ["TZ": cli.zone, "NO_COLOR": "1", "HOME": cli.workdir, "XDG_CACHE_HOME": cli.workdir + "/cache",
                         "PATH": "/usr/bin:/bin", "LANG": "C", "SWIFT_BACKTRACE": "enable=no"]
        p.currentDirectoryURL = URL(fileURLWithPath: cli.workdir)
        let out = Output(), err = Output(), o = Pipe(), e = Pipe()
        o.fileHandleForReading.readabilityHandler = { out.append($0.availableData) }
        e.fileHandleForReading.readabilityHandler = { err.append($0.availableData) }
        p.standardOutput = o
        p.standardError = e
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let line = try XCTUnwrap(wait(30) { out.text.split(separator: "\n").first { $0.hasPrefix("Serving ") }.map(String.init) },
                                 "no Serving line: \(out.text) \(err.text)")
        // "Serving <site> at http://127.0.0.1:PORT/?key=KEY"
        let parts = line.components(separatedBy: " at ")
        let printed = try XCTUnwrap(parts.last).components(separatedBy: "/?key=")
        XCTAssertEqual(printed.count, 2, line)
        let base = printed[0] + "/", key = try XCTUnwrap(printed.last)
        XCTAssertEqual(key.count, 32, line)
        ServeTests.keys.withLock { $0[base] = key }
        return Served(process: p, out: out, err: err, url: base, site: String(try XCTUnwrap(parts.first).dropFirst("Serving ".count)))
    }

    /// Each serve's key by its address: `fetch` sends it as the cookie a browser would have.
    static let keys = Mutex<[String: String]>([:])

    /// Polls `check` until it answers (or `seconds` pass).
    func wait<T>(_ seconds: Double, _ check: () throws -> T?) rethrows -> T? {
        let end = Date().addingTimeInterval(seconds)
        repeat {
            if let v = try check() { return v }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < end
        return nil
    }

    struct Fetched {
        let status: Int
        let headers: String
        let body: String
    }

    /// `url` fetched with curl, with the serve's key as its cookie unless `keyed` is false.
    func fetch(_ url: String, _ args: [String] = [], keyed: Bool = true) throws -> Fetched {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        let key = keyed ? ServeTests.keys.withLock { keys in keys.first { url.hasPrefix($0.key) }?.value } : nil
        let cookie = key.map { ["-H", "Cookie: egofix-serve-\($0.prefix(8))=\($0)"] } ?? []
        p.arguments = ["-s", "--path-as-is", "--max-time", "5", "-D", "-", url] + cookie + args
        let o = Pipe()
        p.standardOutput = o
        try p.run()
        let data = o.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Fetched(status: 0, headers: text, body: "") }
        let headers = String(text[..<split.lowerBound])
        let status = Int(headers.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Fetched(status: status, headers: headers, body: String(text[split.upperBound...]))
    }

    /// A page without what changes on every response (the nonce) or every build (the generation).
    func stable(_ page: String) -> String {
        page.split(separator: "\n").filter { !$0.contains("nonce") }.joined(separator: "\n")
    }

    func test_serve_rebuildsOnStoreNoteAndTemplateChanges_andKeepsTheLastGoodSiteOnAnError() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        XCTAssertEqual(try cli.run(["today"]).status, 0)
        let s = try startServe(cli)
        defer { if s.process.isRunning { s.process.terminate() } }
        XCTAssertTrue(s.url.hasPrefix("http://127.0.0.1:"), s.url)

        // The dashboard, with the reload script and a policy that allows exactly it.
        let first = try fetch(s.url)
        XCTAssertEqual(first.status, 200)
        XCTAssertTrue(first.headers.lowercased().contains("content-type: text/html"), first.headers)
        XCTAssertTrue(first.body.contains("new EventSource(\"/__egofix/events"), first.body)
        let port = s.url.dropFirst("http://127.0.0.1:".count).dropLast()
        XCTAssertTrue(first.body.contains("script-src 'nonce-"), first.body)
        XCTAssertTrue(first.body.contains("; connect-src http://127.0.0.1:\(port)/__egofix/events\""), first.body)
        let css = try fetch(s.url + "style.css")
        XCTAssertEqual(css.status, 200)
        XCTAssertTrue(css.headers.lowercased().contains("content-type: text/css"), css.headers)
        // The marker that says egofix made the folder is not a page.
        XCTAssertTrue(FileManager.default.fileExists(atPath: s.site + "/.egofix-site"))
        XCTAssertEqual(try fetch(s.url + ".egofix-site").status, 404)

        // A fix marked in another terminal: the dashboard changes.
        XCTAssertEqual(try cli.run(["applied", "-m", "Let Tom finish his sentence."]).status, 0)
        let changed = wait(5) { (try? fetch(s.url)).flatMap { stable($0.body) != stable(first.body) ? $0 : nil } }
        XCTAssertNotNil(changed, "the dashboard did not change after `egofix applied`: \(s.out.text) \(s.err.text)")

        // A week note: that week's page shows it.
        let weeks = try FileManager.default.contentsOfDirectory(atPath: s.site + "/weeks").sorted()
        let week = try XCTUnwrap(weeks.last { $0.contains("-W") })
        try FileManager.default.createDirectory(atPath: cli.workdir + "/content/weeks", withIntermediateDirectories: true)
        try "Noted while serving: the meeting went long.\n".write(toFile: cli.workdir + "/content/weeks/\(week).md", atomically: true, encoding: .utf8)
        XCTAssertEqual(try fetch(s.url + "weeks/\(week)").status, 301)
        // A folder asked for as "//weeks/..." is sent on to this server's "/weeks/.../", not to
        // "//weeks/.../", which a browser reads as the host "weeks".
        let doubled = try fetch(s.url + "/weeks/\(week)")
        XCTAssertEqual(doubled.status, 301)
        XCTAssertTrue(doubled.headers.contains("Location: /weeks/\(week)/\r\n") || doubled.headers.hasSuffix("Location: /weeks/\(week)/"), doubled.headers)
        XCTAssertNotNil(wait(5) { (try? fetch(s.url + "weeks/\(week)/"))?.body.contains("Noted while serving") == true ? true : nil },
                        "the week note did not appear: \(s.err.text)")

        // A broken template: the last good site is still served, with the error on it and in the terminal.
        let good = try fetch(s.url)
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Templates", withIntermediateDirectories: true)
        try "{{#title}} never closed\n".write(toFile: cli.workdir + "/Templates/dashboard.mustache", atomically: true, encoding: .utf8)
        XCTAssertNotNil(wait(5) { s.err.text.contains("rebuild failed") ? true : nil }, s.err.text)
        XCTAssertTrue(s.err.text.contains("dashboard.mustache"), s.err.text)
        let broken = try fetch(s.url)
        XCTAssertEqual(broken.status, 200)
        XCTAssertTrue(broken.body.contains("the last rebuild failed"), broken.body)
        XCTAssertTrue(broken.body.contains("dashboard.mustache"), broken.body)
        XCTAssertEqual(stable(broken.body.replacingOccurrences(of: #"<aside class="serve-error"[^\n]*</aside>\n"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "\n\n", with: "\n")), stable(good.body.replacingOccurrences(of: "\n\n", with: "\n")))
        // Fixed: rebuilt, the banner gone.
        try FileManager.default.removeItem(atPath: cli.workdir + "/Templates/dashboard.mustache")
        XCTAssertNotNil(wait(5) { (try? fetch(s.url))?.body.contains("the last rebuild failed") == false ? true : nil })
        XCTAssertTrue(s.out.text.contains("Rebuilt"), s.out.text)

        // Safe by default. Only a request that names a loopback host is answered: a page whose own
        // name points at 127.0.0.1 (DNS rebinding) gets nothing.
        let rebound = try fetch(s.url, ["-H", "Host: attacker.example"])
        XCTAssertEqual(rebound.status, 421)
        XCTAssertFalse(rebound.body.contains("<html"))
        XCTAssertEqual(try fetch(s.url, ["-H", "Host: localhost"]).status, 200)

        // Loopback is every account's on this machine: without the key the printed address
        // carries, no page (another user's curl read every reflection).
        for url in [s.url, s.url + "style.css", s.url + "weeks/\(week)/", s.url + "__egofix/events", s.url + "nothing-here"] {
            let bare = try fetch(url, keyed: false)
            XCTAssertEqual(bare.status, 403, url)
            XCTAssertFalse(bare.body.contains("<html") || bare.body.contains("Noted while serving"), bare.body)
        }
        let key = try XCTUnwrap(ServeTests.keys.withLock { $0[s.url] })
        XCTAssertEqual(try fetch(s.url + "?key=" + String(key.reversed()), keyed: false).status, 403)
        // A key one character off (its last one changed, never to itself: a key ending in "0" made
        // this the key, one run in sixteen).
        let off = key.dropLast() + (key.last == "0" ? "1" : "0")
        XCTAssertEqual(try fetch(s.url, ["-H", "Cookie: egofix-serve-\(key.prefix(8))=\(off)"], keyed: false).status, 403)
        // The printed address: the page, and the cookie that carries the key to the next request.
        let opened = try fetch(s.url + "weeks/\(week)/?key=" + key, keyed: false)
        XCTAssertEqual(opened.status, 200)
        XCTAssertTrue(opened.body.contains("Noted while serving"), opened.body)
        XCTAssertTrue(opened.headers.contains("Set-Cookie: egofix-serve-\(key.prefix(8))=\(key); Path=/; HttpOnly; SameSite=Strict"), opened.headers)
        XCTAssertTrue(opened.headers.lowercased().contains("cache-control: no-cache, no-store"), opened.headers)
        for path in ["../../../etc/passwd", "%2e%2e/%2e%2e/etc/passwd", "weeks/%2E%2E/%2e%2e/etc/passwd", "..%2f..%2fetc/passwd"] {
            let r = try fetch(s.url + path)
            XCTAssertTrue([403, 404].contains(r.status), "\(path): \(r.status)")
            XCTAssertFalse(r.body.contains("root:"), path)
        }
        try "private".write(toFile: cli.workdir + "/outside.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: s.site + "/leak.txt", withDestinationPath: cli.workdir + "/outside.txt")
        let leak = try fetch(s.url + "leak.txt")
        XCTAssertTrue([403, 404].contains(leak.status), "\(leak.status)")
        XCTAssertFalse(leak.body.contains("private"))
        let missing = try fetch(s.url + "weeks/2099-W01/")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.body.contains("<html"), "the site's 404 page")
        // Sent at any depth, its stylesheet and links still reach the site.
        for href in ["/style.css", "/index.html"] {
            XCTAssertTrue(missing.body.contains("href=\"\(href)\""), href)
            XCTAssertEqual(try fetch(s.url + String(href.dropFirst())).status, 200, href)
        }
        XCTAssertEqual(try fetch(s.url, ["-X", "POST"]).status, 405)
        XCTAssertEqual(try fetch(s.url, ["-X", "DELETE"]).status, 405)
        let head = try fetch(s.url + "style.css", ["-I"])
        XCTAssertEqual(head.status, 200)
        let etag = try XCTUnwrap(head.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(5)
            .trimmingCharacters(in: .whitespaces))
        XCTAssertEqual(try fetch(s.url + "style.css", ["-H", "If-None-Match: \(etag)"]).status, 304)

        // SIGTERM: gone within a second or two, exit 0.
        let stopped = Date()
        s.process.terminate()
        XCTAssertNotNil(wait(3) { s.process.isRunning ? nil : true })
        XCTAssertLessThan(Date().timeIntervalSince(stopped), 3)
        XCTAssertEqual(s.process.terminationStatus, 0)
        XCTAssertEqual(s.process.terminationReason, .exit)
    }

    func test_serve_eventsSayReloadAfterAStoreChange() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        XCTAssertEqual(try cli.run(["today"]).status, 0)
        let s = try startServe(cli)
        defer { if s.process.isRunning { s.process.terminate() } }
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        let key = try XCTUnwrap(ServeTests.keys.withLock { $0[s.url] })
        curl.arguments = ["-sN", "--max-time", "8", s.url + "__egofix/events?since=0", "-H", "Cookie: egofix-serve-\(key.prefix(8))=\(key)"]
        let events = Output(), pipe = Pipe()
        pipe.fileHandleForReading.readabilityHandler = { events.append($0.availableData) }
        curl.standardOutput = pipe
        try curl.run()
        defer { if curl.isRunning { curl.terminate() } }
        XCTAssertNotNil(wait(5) { events.text.contains("retry:") ? true : nil })
        XCTAssertFalse(events.text.contains("event: reload"))
        XCTAssertEqual(try cli.run(["applied", "-m", "Asked a question instead."]).status, 0)
        XCTAssertNotNil(wait(5) { events.text.contains("event: reload") ? true : nil }, events.text)
    }

    func test_serve_portInUseSaysSoInOneLine() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let s = try startServe(cli)
        defer { s.process.terminate() }
        let port = String(s.url.dropFirst("http://127.0.0.1:".count).dropLast())
        let r = try cli.run(["serve", "--port", port], env: ["XDG_CACHE_HOME": cli.workdir + "/cache2"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("in use"), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
    }

    /// Two serves of one workspace share its cache folder. While another build writes into it
    /// (here: its lock held for 1.5 s, as a second serve's rebuild holds it), a change is built
    /// once that build is done; it is not called a failed rebuild.
    func test_serve_waitsForAnotherBuildInItsFolderInsteadOfFailing() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        XCTAssertEqual(try cli.run(["today"]).status, 0)
        let s = try startServe(cli)
        defer { s.process.terminate() }
        let before = try fetch(s.url)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [(s.site as NSString).deletingLastPathComponent, "sleep", "1.5"]
        try holder.run()
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(try cli.run(["applied", "-m", "Two tabs, one practice."]).status, 0)
        let changed = wait(8) { (try? fetch(s.url)).flatMap { stable($0.body) != stable(before.body) ? $0 : nil } }
        holder.waitUntilExit()
        XCTAssertNotNil(changed, "the dashboard did not follow `egofix applied` once the other build was done: \(s.out.text) \(s.err.text)")
        XCTAssertFalse(s.err.text.contains("failed"), s.err.text)
    }

    /// The last serve of a workspace to stop removes its copy of the site (private pages) and its
    /// manifest from the cache: they stayed there after the store itself was deleted. One of two
    /// serves stopping leaves the other's pages; a site removed while served is built again (its
    /// pages were 404 until an input changed).
    func test_serve_theLastToStopRemovesItsCopyOfTheSite() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"]).status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "Private words."]).status, 0)
        let a = try startServe(cli)
        defer { if a.process.isRunning { a.process.terminate() } }
        let b = try startServe(cli)
        defer { if b.process.isRunning { b.process.terminate() } }
        XCTAssertEqual(a.site, b.site)
        let cache = (a.site as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: a.site)
        XCTAssertNotNil(wait(8) { FileManager.default.fileExists(atPath: a.site + "/index.html") ? true : nil }, "not built again: \(a.err.text)")
        XCTAssertEqual(try fetch(a.url).status, 200)
        a.process.interrupt()
        a.process.waitUntilExit()
        XCTAssertTrue(a.out.text.hasSuffix("Stopped.\n"), a.out.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: b.site + "/index.html"), "the other serve's pages went")
        b.process.interrupt()
        b.process.waitUntilExit()
        XCTAssertTrue(b.out.text.hasSuffix("Stopped. Its copy of the site is removed from the cache.\n"), b.out.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache), cache)
        let manifests = (try? FileManager.default.contentsOfDirectory(atPath: cli.workdir + "/cache/egofix/sites")) ?? []
        XCTAssertEqual(manifests.filter { $0.hasSuffix(".manifest") }, [])
    }

    /// serve's copy of the private site is in folders only its user can enter, tightened when an
    /// earlier egofix made them under a loose umask (0777 let another account put a site of its
    /// own in the place of the served one); a copy left by a serve killed outright is removed by
    /// the next serve; and a closed terminal (SIGHUP) stops serve as Ctrl-C does, removing its copy.
    func test_serve_keepsItsCopyPrivateAndRemovesItOnHangUpAndWhenLeftBehind() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"]).status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "Private words."]).status, 0)
        let root = cli.workdir + "/cache/egofix", left = root + "/serve/00000000000000aa"
        try FileManager.default.createDirectory(atPath: left + "/site", withIntermediateDirectories: true)
        try "Private words.".write(toFile: left + "/site/index.html", atomically: true, encoding: .utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: left + "/.serving", contents: nil))
        var old = [timespec(tv_sec: time(nil) - 300, tv_nsec: 0), timespec(tv_sec: time(nil) - 300, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, left + "/.serving", &old, 0), 0)
        for folder in [root, root + "/serve"] { XCTAssertEqual(chmod(folder, 0o777), 0) }
        let served = try startServe(cli)
        defer { if served.process.isRunning { served.process.terminate() } }
        let cache = (served.site as NSString).deletingLastPathComponent
        for folder in [cache, root + "/serve", root] {
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int, 0o700, folder)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: left), "a copy no serve holds is left")
        XCTAssertEqual(kill(served.process.processIdentifier, SIGHUP), 0)
        served.process.waitUntilExit()
        XCTAssertEqual(served.process.terminationStatus, 0)
        XCTAssertTrue(served.out.text.hasSuffix("Stopped. Its copy of the site is removed from the cache.\n"), served.out.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache), cache)
    }

    /// Requests whose headers take minutes to parse, one per core, left no thread for the stop:
    /// Ctrl-C, SIGTERM and a closed terminal did nothing, and `kill -9` left the private copy of
    /// the site in the cache (helper 111). The stop is made on a thread of its own.
    func test_serve_stopsOnSIGTERMWhileHugeHeadersHoldEveryThread() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"]).status, 0)
        XCTAssertEqual(try cli.run(["applied", "-m", "Private words."]).status, 0)
        let served = try startServe(cli)
        defer { if served.process.isRunning { kill(served.process.processIdentifier, SIGKILL) } }
        let cache = (served.site as NSString).deletingLastPathComponent
        let port = try XCTUnwrap(served.url.split(separator: ":").last?.split(separator: "/").first.flatMap { UInt16($0) })
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        let cores = max(2, ProcessInfo.processInfo.activeProcessorCount)
        for _ in 0..<cores {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = port.bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            XCTAssertEqual(connected, 0)
            held.append(fd)
            let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 2_000_000) + Array("\r\n\r\n".utf8)
            var sent = 0
            while sent < request.count {
                let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { break }
                sent += n
            }
        }
        Thread.sleep(forTimeInterval: 2)
        XCTAssertTrue(served.process.isRunning)
        served.process.terminate()
        XCTAssertNotNil(wait(10) { served.process.isRunning ? nil : true }, "SIGTERM stops serve while every thread parses")
        XCTAssertEqual(served.process.terminationReason, .exit)
        XCTAssertTrue(served.out.text.hasSuffix("Stopped. Its copy of the site is removed from the cache.\n"), served.out.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache), cache)
    }

    /// A negative port is refused as out of range (it read as a missing value, "-1" taken for an option).
    func test_serve_aNegativePortIsOutOfRange() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"]).status, 0)
        let r = try cli.run(["serve", "--port", "-1"])
        XCTAssertEqual(r.status, 64, r.out)
        XCTAssertEqual(r.err, "egofix: --port must be between 0 and 65535.\n")
    }

    /// An address no interface of this machine has is said in words (it printed the socket
    /// library's value: failed(type: "Bind", errno: 99, ...)).
    func test_serve_anAddressNotOfThisMachineIsSaidInWords() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"]).status, 0)
        let r = try cli.run(["serve", "--host", "192.0.2.1", "--port", "0"])
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.hasSuffix("egofix: cannot listen on 192.0.2.1: no network interface of this machine has that address. Leave --host out for 127.0.0.1, or give an address of this machine.\n"), r.err)
        XCTAssertFalse(r.err.contains("errno"), r.err)
    }

    /// A store that is not there is refused at the start in one line (serve served 404s and waited).
    func test_serve_aStoreThatIsNotThereIsRefused() throws {
        let cli = try CLI()
        let r = try cli.run(["serve", "--store", cli.workdir + "/nothere.sqlite"])
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.err.hasPrefix("egofix: no store at "), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
    }

    /// Two serves in one folder with two stores build two sites: they shared one cache site, and
    /// each showed whichever store had rebuilt last (one practice's crash notes in the other's).
    func test_serve_twoStoresInOneFolderServeTheirOwnSites() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let other = cli.workdir + "/other.sqlite"
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress", "--store", other]).status, 0)
        let a = try startServe(cli)
        defer { a.process.terminate() }
        let b = try startServe(cli, extra: ["--store", other])
        defer { b.process.terminate() }
        XCTAssertNotEqual(a.site, b.site)
        XCTAssertNotEqual(stable(try fetch(a.url).body), stable(try fetch(b.url).body))
    }

    /// IPv6 loopback: `--host ::1` serves at http://[::1]:PORT/, with no warning (it is loopback).
    func test_serve_onIPv6Loopback() throws {
        let interfaces = (try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8)) ?? ""
        guard interfaces.contains("00000000000000000000000000000001") else { throw XCTSkip("this machine has no IPv6 loopback") }
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let s = try startServe(cli, extra: ["--host", "::1"])
        defer { s.process.terminate() }
        XCTAssertTrue(s.url.hasPrefix("http://[::1]:"), s.url)
        let page = try fetch(s.url, ["-g"])
        XCTAssertEqual(page.status, 200, page.headers)
        XCTAssertFalse(s.err.text.contains("warning"), s.err.text)
    }

    /// `egofix serve` hands over to `egofix-serve` beside it; an egofix installed without it says
    /// so in one line and exits 1, and every other command works as before.
    func test_serve_withoutTheServerProgramBesideItSaysSo() throws {
        let cli = try CLI()
        let lone = cli.workdir + "/bin"
        try FileManager.default.createDirectory(atPath: lone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.binary.path, toPath: lone + "/egofix")
        func run(_ args: [String]) throws -> (status: Int32, err: String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: lone + "/egofix")
            p.arguments = args + ["--store", cli.store]
            p.environment = ["TZ": cli.zone, "NO_COLOR": "1", "HOME": cli.workdir, "PATH": "/usr/bin:/bin", "LANG": "C",
                             "SWIFT_BACKTRACE": "enable=no"]
            p.currentDirectoryURL = URL(fileURLWithPath: cli.workdir)
            let e = Pipe()
            p.standardError = e
            p.standardOutput = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try p.run()
            let err = String(decoding: e.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, err)
        }
        XCTAssertEqual(try run(["demo"]).status, 0)
        let r = try run(["serve"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains(lone + "/egofix-serve") && r.err.contains("make install"), r.err)
        XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
    }

    func test_build_outputHasNoReloadScript() throws {
        let cli = try CLI()
        let out = cli.workdir + "/site"
        let r = try cli.run(["build", "--demo", "--out", out])
        XCTAssertEqual(r.status, 0, r.err)
        let files = FileManager.default.enumerator(atPath: out)?.allObjects.compactMap { $0 as? String } ?? []
        var pages = 0
        for f in files where f.hasSuffix(".html") {
            pages += 1
            let text = try String(contentsOfFile: out + "/" + f, encoding: .utf8)
            XCTAssertFalse(text.contains("__egofix") || text.contains("EventSource") || text.contains("<script"), f)
        }
        XCTAssertGreaterThan(pages, 20)
    }
}

extension ServeTests {
    /// Started with a broken template and no site built before: every page is serve's own, with
    /// the error and the reload script (it was a plain "Not on the site." that never reloaded),
    /// and the site once the template is mended.
    func test_serve_aFirstBuildThatFailsShowsWhyUntilItIsMended() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-impress"], at: "2026-03-02T08:00:00+01:00").status, 0)
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Templates", withIntermediateDirectories: true)
        try "{{#unclosed}}\n".write(toFile: cli.workdir + "/Templates/dashboard.mustache", atomically: true, encoding: .utf8)
        let s = try startServe(cli)
        defer { if s.process.isRunning { s.process.terminate() } }
        let page = try fetch(s.url)
        XCTAssertEqual(page.status, 404)
        XCTAssertTrue(page.headers.lowercased().contains("content-type: text/html"), page.headers)
        XCTAssertTrue(page.body.contains("There is no site yet. It builds when the error is fixed."), page.body)
        XCTAssertTrue(page.body.contains("dashboard.mustache"), page.body)
        XCTAssertTrue(page.body.contains("EventSource"), "no reload script")
        XCTAssertTrue(s.err.text.contains("There is no site yet; the pages say why until it is fixed."), s.err.text)
        try FileManager.default.removeItem(atPath: cli.workdir + "/Templates/dashboard.mustache")
        XCTAssertNotNil(wait(10) { (try? fetch(s.url))?.body.contains("Dashboard") == true ? true : nil })
    }

    func test_serve_badConfigKeepsTheLastGoodSiteAndSaysWhy() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let s = try startServe(cli)
        defer { if s.process.isRunning { s.process.terminate() } }
        try "title = \"unclosed\n".write(toFile: cli.workdir + "/egofix.toml", atomically: true, encoding: .utf8)
        XCTAssertNotNil(wait(5) { s.err.text.contains("rebuild failed") ? true : nil }, s.err.text)
        XCTAssertTrue(s.err.text.contains("egofix.toml"), s.err.text)
        let page = try fetch(s.url)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("the last rebuild failed"), page.body)
        XCTAssertTrue(page.body.contains("Dashboard"), "the last good dashboard")
        try FileManager.default.removeItem(atPath: cli.workdir + "/egofix.toml")
        XCTAssertNotNil(wait(5) { (try? fetch(s.url))?.body.contains("the last rebuild failed") == false ? true : nil })
    }
}

extension ServeTests {
    /// A template of one's own that writes the policy meta its own way (attributes in another
    /// order and case, single quotes, a script-src of 'none'): the page still reloads. serve
    /// looked for the built-in theme's exact spelling, so such a page kept its policy as it was,
    /// which blocked the reload script, and never reloaded.
    func test_serve_reloadsAPageWhosePolicyMetaIsWrittenAnotherWay() throws {
        let cli = try CLI()
        XCTAssertEqual(try cli.run(["demo"]).status, 0)
        let top = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Templates/partials/top.mustache").path, encoding: .utf8)
        let builtIn = try XCTUnwrap(top.split(separator: "\n").first { $0.contains("Content-Security-Policy") })
        let own = "<META content='default-src &#39;none&#39;; style-src &#39;self&#39;; script-src &#39;none&#39;' HTTP-EQUIV=content-security-policy>"
        try FileManager.default.createDirectory(atPath: cli.workdir + "/Templates/partials", withIntermediateDirectories: true)
        try top.replacingOccurrences(of: builtIn, with: own).write(toFile: cli.workdir + "/Templates/partials/top.mustache", atomically: true, encoding: .utf8)
        // The body's end tag in capitals: the script still goes inside the body, before it.
        let bottom = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Templates/partials/bottom.mustache").path, encoding: .utf8)
        try bottom.replacingOccurrences(of: "</body>", with: "</BODY>").write(toFile: cli.workdir + "/Templates/partials/bottom.mustache", atomically: true, encoding: .utf8)
        let s = try startServe(cli)
        defer { if s.process.isRunning { s.process.terminate() } }
        let page = try fetch(s.url)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("new EventSource("), page.body)
        XCTAssertTrue(page.body.contains("if(!document.hidden)open()})()</script>\n</BODY>"), page.body)
        let port = s.url.dropFirst("http://127.0.0.1:".count).dropLast()
        let nonce = try XCTUnwrap(page.body.range(of: "<script nonce=\"").map { page.body[$0.upperBound...].prefix { $0 != "\"" } })
        XCTAssertTrue(page.body.contains("<META content=\"default-src 'none'; style-src 'self'; script-src 'nonce-\(nonce)'; "
                                         + "connect-src http://127.0.0.1:\(port)/__egofix/events\" HTTP-EQUIV=content-security-policy>"), page.body)
        // The built-in spelling, amended as before.
        try FileManager.default.removeItem(atPath: cli.workdir + "/Templates")
        let back = wait(10) { (try? fetch(s.url)).flatMap { $0.body.contains("<META") ? nil : $0 } }
        XCTAssertTrue(back?.body.contains("form-action 'none'; script-src 'nonce-") == true, back?.body ?? s.err.text)
    }
}
