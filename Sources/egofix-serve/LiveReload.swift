import EgoFixSite
import Foundation

/// The served pages' view of the builds: a generation that goes up with every rebuild, the last
/// rebuild's error (while it lasts), and the pages open in a browser, waiting for a "reload" event.
final class LiveReload: @unchecked Sendable {
    static let eventsPath = "/__egofix/events"

    private let lock = NSLock()
    private var generation = 0
    private var error: String?
    private var listeners: [Int: AsyncStream<Data>.Continuation] = [:]
    private var nextID = 0

    var state: (generation: Int, error: String?) {
        lock.withLock { (generation, error) }
    }

    /// After a rebuild (`error` nil) or a failed one: every open page reloads.
    func built(error: String?) {
        let (waiting, now): ([AsyncStream<Data>.Continuation], Int) = lock.withLock {
            generation += 1
            self.error = error
            return (Array(listeners.values), generation)
        }
        let event = LiveReload.reloadEvent(now)
        for c in waiting { c.yield(event) }
    }

    /// An event stream for a page served at generation `since`: a page older than the last build
    /// is told to reload at once.
    func subscribe(since: Int?) -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let (id, current): (Int, Int) = lock.withLock {
            nextID += 1
            listeners[nextID] = continuation
            return (nextID, generation)
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.listeners.removeValue(forKey: id) }
        }
        continuation.yield(Data("retry: 1000\n\n".utf8))
        if let since, since != current { continuation.yield(LiveReload.reloadEvent(current)) }
        return stream
    }

    static func reloadEvent(_ generation: Int) -> Data {
        Data("event: reload\ndata: \(generation)\n\n".utf8)
    }

    /// An HTML page as serve sends it: its Content-Security-Policy amended to allow exactly the
    /// reload script (by `nonce`) and the events endpoint (`eventsURL`), the script before
    /// `</body>`, and the last rebuild's error as a banner at the top of the body.
    /// `hasSite`: false when no build has succeeded yet (the page is serve's own stand-in).
    static func inject(html: String, nonce: String, eventsURL: String, generation: Int, error: String?, hasSite: Bool = true) -> String {
        var page = html
        // Every policy the page declares (a browser holds a page to all of them), found as the
        // build's check finds it: a template of one's own may write the meta its own way.
        let policies = MetaTag.all(in: html).filter(\.isContentSecurityPolicy).compactMap { tag in
            tag.attributes.first { $0.name == "content" }
        }
        for content in policies.reversed() {
            let amended = allowing(["script-src": "'nonce-\(nonce)'", "connect-src": eventsURL], in: content.text)
            // In double quotes, with what would end or misread them written as references.
            let quoted = amended.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            page.replaceSubrange(content.written, with: "\"" + quoted + "\"")
        }
        if let error, let body = ASCIISearch.range(of: "<body", in: page), let close = page[body.upperBound...].firstIndex(of: ">") {
            let banner = "\n<aside class=\"serve-error\" role=\"alert\"><p><strong>egofix serve: the last rebuild failed.</strong> "
                + (hasSite ? "This is the last good site. It rebuilds when the error is fixed."
                           : "There is no site yet. It builds when the error is fixed.")
                + "</p><pre>\(HTMLEscape.escape(error))</pre></aside>\n"
            page.insert(contentsOf: banner, at: page.index(after: close))
        }
        // The stream is open only while the tab is shown: a browser keeps six connections to a
        // host, and six open tabs held them all (a seventh never loaded). Shown again, the tab
        // asks from its own generation, so a build made meanwhile reloads it at once.
        let script = "<script nonce=\"\(nonce)\">(function(){var s=null;function open(){if(!s){s=new EventSource(\"\(eventsPath)?since=\(generation)\");"
            + "s.addEventListener(\"reload\",function(){location.reload()})}}"
            + "function shut(){if(s){s.close();s=null}}"
            + "document.addEventListener(\"visibilitychange\",function(){document.hidden?shut():open()});"
            + "addEventListener(\"pagehide\",shut);addEventListener(\"pageshow\",function(){if(!document.hidden)open()});"
            + "if(!document.hidden)open()})()</script>\n"
        if let end = ASCIISearch.range(of: "</body>", in: page, last: true) {
            page.insert(contentsOf: script, at: end.lowerBound)
        } else {
            page += script
        }
        return page
    }

    /// `policy` with each source of `sources` (directive → source) allowed: added to its
    /// directive where the policy has one (in place of 'none'), else as a directive of its own.
    static func allowing(_ sources: KeyValuePairs<String, String>, in policy: String) -> String {
        var directives = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for (directive, source) in sources {
            if let i = directives.firstIndex(where: { $0.split(separator: " ").first?.lowercased() == directive }) {
                let words = directives[i].split(separator: " ").filter { $0.lowercased() != "'none'" }
                directives[i] = (words + [Substring(source)]).joined(separator: " ")
            } else {
                directives.append(directive + " " + source)
            }
        }
        return directives.joined(separator: "; ")
    }

    static func nonce() -> String {
        var g = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
        return Data(bytes).base64EncodedString()
    }
}
