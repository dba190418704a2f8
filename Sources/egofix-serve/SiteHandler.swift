import FlyingFox
import FlyingSocks
import Foundation

/// `egofix serve`'s answer to a request: GET and HEAD only, files from inside the site folder
/// (the site's 404 page for what is missing), HTML with the reload script and the error banner,
/// and the reload events.
struct SiteHandler: HTTPHandler {
    let root: String
    let live: LiveReload
    /// host:port as printed on start, for a request without a usable Host header.
    let defaultHost: String
    /// Listening on loopback: only requests that name a loopback host are answered, so a web page
    /// whose own name was pointed at 127.0.0.1 (DNS rebinding) cannot read the private site.
    var loopbackOnly = true
    /// The key the printed address carries (`?key=`). Loopback is open to every account of the
    /// machine: without a key, another user's `curl http://127.0.0.1:PORT/` read every reflection
    /// the owner's files keep from them. A request with the key gets a cookie that carries it on.
    let key: ServeKey

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        if loopbackOnly, let h = request.headers[.host], !SiteHandler.namesLoopback(h) {
            return HTTPResponse(statusCode: HTTPStatusCode(421, phrase: "Misdirected Request"), headers: [.contentType: "text/plain; charset=utf-8"],
                                body: Data("This server answers to localhost only.\n".utf8))
        }
        let keyed = key.matches(request.query.first(where: { $0.name == ServeKey.parameter })?.value)
        guard keyed || key.matches(cookie: request.headers[HTTPHeader("Cookie")]) else {
            return HTTPResponse(statusCode: .forbidden, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                                body: Data("This server shows the private site to whoever has its key: open the address `egofix serve` printed, key included.\n".utf8))
        }
        var response = try await answer(request)
        if keyed { response.headers[HTTPHeader("Set-Cookie")] = key.setCookie }
        return response
    }

    private func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return HTTPResponse(statusCode: .methodNotAllowed, headers: [HTTPHeader("Allow"): "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                                body: Data("GET and HEAD only.\n".utf8))
        }
        let rawPath = request.target.path(percentEncoded: true)
        if rawPath == LiveReload.eventsPath { return events(request) }
        switch ServedFiles.resolve(rawPath: rawPath, root: root) {
        case .file(let path):
            return try send(path, status: .ok, request: request)
        case .addSlash:
            return HTTPResponse(statusCode: .movedPermanently, headers: HTTPHeaders([.location: SiteHandler.slashAdded(rawPath)]))
        case .refused:
            return HTTPResponse(statusCode: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: Data("Outside the site.\n".utf8))
        case .notFound:
            if case .file(let page) = ServedFiles.resolve(rawPath: "/404.html", root: root) {
                return try send(page, status: .notFound, request: request)
            }
            // No site at all (the first build failed): a page of serve's own with the error and
            // the reload script, which reloads once a build succeeds (a plain "Not on the site."
            // said nothing and stayed).
            let (generation, error) = live.state
            if let error {
                let html = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\"><title>egofix serve</title></head><body>\n</body></html>\n"
                let page = LiveReload.inject(html: html, nonce: LiveReload.nonce(), eventsURL: "http://\(host(request))\(LiveReload.eventsPath)",
                                             generation: generation, error: error, hasSite: false)
                return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache, no-store"],
                                    body: Data(page.utf8))
            }
            return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: Data("Not on the site.\n".utf8))
        }
    }

    private func send(_ path: String, status: HTTPStatusCode, request: HTTPRequest) throws -> HTTPResponse {
        let type = ServedFiles.contentType(path)
        let isHTML = type.hasPrefix("text/html")
        let (generation, error) = live.state
        var tag = ServedFiles.stamp(path) ?? "0"
        if isHTML {
            var h = Hasher()
            h.combine(error)
            tag += "-g\(generation)-e\(error == nil ? 0 : UInt(bitPattern: h.finalize()))-\(host(request))"
        }
        let etag = "\"\(tag)\""
        var headers: HTTPHeaders = [
            .contentType: type,
            HTTPHeader("ETag"): etag,
            // Revalidated each time, and not kept in the browser's disk cache (private pages).
            .cacheControl: "no-cache, no-store",
            HTTPHeader("X-Content-Type-Options"): "nosniff",
            HTTPHeader("Referrer-Policy"): "no-referrer",
        ]
        if status == .ok, let match = request.headers[HTTPHeader("If-None-Match")],
           match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "W/" + etag }) {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        var body = try Data(contentsOf: URL(fileURLWithPath: path))
        if isHTML {
            let page = LiveReload.inject(html: String(decoding: body, as: UTF8.self), nonce: LiveReload.nonce(),
                                         eventsURL: "http://\(host(request))\(LiveReload.eventsPath)", generation: generation, error: error)
            body = Data(page.utf8)
        }
        if request.method == .HEAD {
            headers[.contentLength] = String(body.count)
            return HTTPResponse(statusCode: status, headers: headers)
        }
        return HTTPResponse(statusCode: status, headers: headers, body: body)
    }

    /// The folder's address with its "/": on this server, whatever the request began with. A
    /// path that began "//" (or "/\\", which browsers read alike) was sent back as it came, and a
    /// browser reads "//share/" as another host, share.
    static func slashAdded(_ rawPath: String) -> String {
        "/" + rawPath.drop { $0 == "/" || $0 == "\\" } + "/"
    }

    /// Whether a Host header names this machine's loopback: localhost, 127.x.x.x or [::1], with or
    /// without a port.
    static func namesLoopback(_ header: String) -> Bool {
        var name = header.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = String(name[name.index(after: name.startIndex)..<close])
            return name == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        if name == "localhost" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    private func host(_ request: HTTPRequest) -> String {
        guard let h = request.headers[.host], !h.isEmpty, h.count <= 255,
              h.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || ".:-[]".unicodeScalars.contains($0) })
        else { return defaultHost }
        return h
    }

    private func events(_ request: HTTPRequest) -> HTTPResponse {
        let since = request.query.first(where: { $0.name == "since" }).flatMap { Int($0.value) }
        let stream = live.subscribe(since: since)
        return HTTPResponse(statusCode: .ok,
                            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache",
                                      HTTPHeader("X-Content-Type-Options"): "nosniff"],
                            body: HTTPBodySequence(from: EventBytes(stream: stream)))
    }
}

/// The reload events as bytes for FlyingFox's chunked body: each event is sent as it comes.
struct EventBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let stream: AsyncStream<Data>

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var base: AsyncStream<Data>.Iterator
        var pending: [UInt8] = []

        mutating func next() async throws -> UInt8? {
            guard let chunk = try await nextBuffer(suggested: 1) else { return nil }
            return chunk.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            if pending.isEmpty {
                guard let data = await base.next() else { return nil }
                pending = Array(data)
            }
            let n = Swift.min(Swift.max(count, 1), pending.count)
            let out = Array(pending.prefix(n))
            pending.removeFirst(n)
            return out
        }
    }
}

/// A serve's key: 128 random bits as hex, made at the start, printed in the address; the cookie
/// that carries it is named after its first characters, so two serves on one machine (a cookie is
/// the host's, whatever the port) do not take each other's place.
struct ServeKey: Sendable {
    static let parameter = "key"
    let value: String

    init() {
        var g = SystemRandomNumberGenerator()
        value = (0..<2).map { _ in String(format: "%016llx", g.next() as UInt64) }.joined()
    }

    init(value: String) { self.value = value }

    var cookieName: String { "egofix-serve-" + value.prefix(8) }

    /// Session-long, sent back on this site's own requests only, out of the pages' scripts' reach.
    var setCookie: String { "\(cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict" }

    /// Whether `given` is the key, compared in time that does not depend on where they differ.
    func matches(_ given: String?) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(value.utf8)
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }

    /// Whether a Cookie header carries this key under its name.
    func matches(cookie header: String?) -> Bool {
        guard let header else { return false }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == cookieName, matches(parts[1]) { return true }
        }
        return false
    }
}
