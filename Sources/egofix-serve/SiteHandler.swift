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

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        if loopbackOnly, let h = request.headers[.host], !SiteHandler.namesLoopback(h) {
            return HTTPResponse(statusCode: HTTPStatusCode(421, phrase: "Misdirected Request"), headers: [.contentType: "text/plain; charset=utf-8"],
                                body: Data("This server answers to localhost only.\n".utf8))
        }
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
            return HTTPResponse(statusCode: .movedPermanently, headers: HTTPHeaders([.location: rawPath + "/"]))
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
                return HTTPResponse(statusCode: .notFound, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
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
            .cacheControl: "no-cache",
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

    /// The Host header when it is a plain host[:port], else the address serve printed.
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
