import CCmark
import EgoFixCore
import Foundation

/// Rendering of the user's Markdown (reflections, week notes, release notes, free pages).
///
/// libcmark runs with its safe default (`CMARK_OPT_DEFAULT`, never `CMARK_OPT_UNSAFE`): raw HTML
/// is shown as the text it is (escaped), and `javascript:`, `vbscript:`, `file:` and non-image `data:`
/// URLs become empty. On top of that every link and image destination is checked against an allow
/// list of schemes (`http`, `https`, `mailto` for links; relative URLs for both): a link to anything
/// else is rendered as its text, and an image from anywhere but the site as its alt text.
public enum Markdown {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The document is over `Thresholds.maxMarkdownBytes`.
        case tooLarge(name: String, bytes: Int, limit: Int)
        /// libcmark could not allocate or render the document.
        case renderFailed(name: String)

        public var description: String {
            switch self {
            case .tooLarge(let name, let bytes, let limit):
                return "\(name): Markdown is \(bytes) bytes (\(Markdown.kib(bytes))); the limit is \(limit) bytes "
                    + "(\(Markdown.kib(limit))). Split it into smaller documents or shorten it."
            case .renderFailed(let name):
                return "\(name): libcmark could not render this Markdown. Check the file is plain UTF-8 text."
            }
        }
    }

    /// The cap on one document, in UTF-8 bytes. Debian's libcmark 0.30.2 has super-linear inputs;
    /// the cap keeps most of them cheap.
    public static var maxBytes: Int { Thresholds.maxMarkdownBytes }

    /// More "[" than this in one document, and every "[" is read as the character it is, with no
    /// link or image made. libcmark's bracket matching is quadratic in them: 64 KiB of
    /// `![[]()![` took half a second, paid again at every build, whatever the cap (helper 112).
    /// 2,000 brackets take about 10 ms; no reflection has that many links.
    static let maxBrackets = 2_000

    /// `text` with each "[" escaped when it holds more than `maxBrackets`.
    static func bracketsDefused(_ text: String) -> String {
        var count = 0
        for b in text.utf8 where b == UInt8(ascii: "[") {
            count += 1
            if count > maxBrackets { return text.replacingOccurrences(of: "[", with: "\\[") }
        }
        return text
    }

    /// Renders CommonMark to an HTML fragment.
    /// - Parameters:
    ///   - source: the Markdown text.
    ///   - name: where it came from ("content/weeks/2026-W47.md"), used in errors.
    public static func render(_ source: String, name: String) throws -> String {
        try html(source, name: name).html
    }

    /// The same, wrapped for raw output in a template (`{{{body}}}`).
    ///
    /// An image from another site is replaced by its alt text: no request leaves the site (a page's
    /// CSP would block it and show a broken image; a feed reader applies no CSP, so the feed would
    /// make the reader fetch it and tell that site who reads the feed).
    ///
    /// - Parameter headingsFrom: the level a "#" heading becomes (each deeper one follows, h6 at
    ///   most): 3 for text set inside a page that has its own h1 and h2 sections, 1 for a page of
    ///   its own.
    public static func html(_ source: String, name: String, headingsFrom: Int32 = 3) throws -> RawHTML {
        try document(source, name: name, headingsFrom: headingsFrom).html
    }

    /// A page of its own (headings from h1), and its title: the plain text of its first level-1
    /// heading as CommonMark reads it (`# Title`, `Title` over `===`, indented, with closing `#`s,
    /// any line ending), nil when it has none.
    public static func page(_ source: String, name: String) throws -> (html: RawHTML, title: String?) {
        try document(source, name: name, headingsFrom: 1)
    }

    private static func document(_ source: String, name: String, headingsFrom: Int32) throws -> (html: RawHTML, title: String?) {
        let bytes = source.utf8.count
        guard bytes <= maxBytes else {
            throw Error.tooLarge(name: name, bytes: bytes, limit: maxBytes)
        }
        let options = CMARK_OPT_DEFAULT  // safe: dangerous URLs dropped (raw HTML is made text in `rewrite`)
        var text = bracketsDefused(removingControlCharacters(source))
        let maybeDocument: OpaquePointer? = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, options) }
        }
        guard let document = maybeDocument else { throw Error.renderFailed(name: name) }
        defer { cmark_node_free(document) }

        let title = try rewrite(document, headingShift: max(0, headingsFrom - 1), name: name)

        guard let html = cmark_render_html(document, options) else { throw Error.renderFailed(name: name) }
        defer { freeCmarkString(html) }
        // A numeric character reference (`&#27;`) is a control character again once cmark has
        // read it: an escape sequence in the page, run by a terminal that shows the file.
        let out = UnsafeRawBufferPointer(start: html, count: strlen(html))
        let rendered = String(decoding: out, as: UTF8.self)
        // The title too: the first heading's text, read back from cmark's nodes, goes into <title>.
        return (RawHTML(trusted: hasControlBytes(out) ? removingControlCharacters(rendered) : rendered), title.map(removingControlCharacters))
    }

    // MARK: - URL allow list

    /// Schemes a link may use. Relative URLs (no scheme) are always allowed.
    static let linkSchemes: Set<String> = ["http", "https", "mailto"]
    /// Schemes an image may use.
    static let imageSchemes: Set<String> = ["http", "https"]

    /// One walk over the document, then the changes it found:
    /// - a link whose destination is not allowed becomes its text (an empty `href` would reload
    ///   the page when clicked);
    /// - an image whose destination is not allowed, or names a scheme or a host (not a path in the
    ///   site), becomes its alt text: no request leaves the site;
    /// - every heading moves `shift` levels deeper, h6 at most.
    /// Returns the plain text of the first level-1 heading (before the shift), if any.
    private static func rewrite(_ document: OpaquePointer, headingShift shift: Int32, name: String) throws -> String? {
        guard let iterator = cmark_iter_new(document) else { throw Error.renderFailed(name: name) }
        var links: [OpaquePointer] = [], images: [OpaquePointer] = [], html: [OpaquePointer] = []
        var failed = false
        var title: String?
        // An image replaced by its alt text takes what is inside it along (its plain text is the
        // replacement): nothing inside is gathered. A nested image or link gathered too was freed
        // with the outer image's subtree and then replaced in turn, a use after free that crashed
        // the build (`![![alt](http://e.com/0)](http://e.com/1)`, helper 112).
        var inside: OpaquePointer?
        while !failed {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if let outer = inside {
                if event == CMARK_EVENT_EXIT, cmark_iter_get_node(iterator) == outer { inside = nil }
                continue
            }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_HEADING {
                if title == nil, cmark_node_get_heading_level(node) == 1 { title = plainText(node) }
                if shift > 0 { failed = cmark_node_set_heading_level(node, min(6, cmark_node_get_heading_level(node) + shift)) != 1 }
            } else if type == CMARK_NODE_LINK {
                if let raw = cmark_node_get_url(node), !isAllowed(url: String(cString: raw), schemes: linkSchemes) { links.append(node) }
            } else if type == CMARK_NODE_IMAGE {
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                let remote = url.trimmingCharacters(in: .whitespaces).hasPrefix("//") || url.contains(":")
                if remote || !isAllowed(url: url, schemes: imageSchemes) {
                    images.append(node)
                    inside = node
                }
            } else if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE {
                html.append(node)
            }
        }
        cmark_iter_free(iterator)
        if failed { throw Error.renderFailed(name: name) }
        // Changed only after the walk: the iterator must not see the tree change under it.
        for image in images {
            guard let text = cmark_node_new(CMARK_NODE_TEXT) else { throw Error.renderFailed(name: name) }
            _ = cmark_node_set_literal(text, plainText(image))
            guard cmark_node_replace(image, text) == 1 else {
                cmark_node_free(text)
                throw Error.renderFailed(name: name)
            }
            cmark_node_free(image)
        }
        // Raw HTML is shown as the text it is: left out, a paragraph that began with a tag
        // (`<p>`, `<div>`) took the words after it on its lines along (helper 112).
        for node in html {
            let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            let block = cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK
            guard let text = cmark_node_new(CMARK_NODE_TEXT) else { throw Error.renderFailed(name: name) }
            _ = cmark_node_set_literal(text, block ? String(literal.reversed().drop { $0 == "\n" }.reversed()) : literal)
            var replacement = text
            if block {
                guard let paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH) else {
                    cmark_node_free(text)
                    throw Error.renderFailed(name: name)
                }
                _ = cmark_node_append_child(paragraph, text)
                replacement = paragraph
            }
            guard cmark_node_replace(node, replacement) == 1 else {
                cmark_node_free(replacement)
                throw Error.renderFailed(name: name)
            }
            cmark_node_free(node)
        }
        for link in links {
            while let child = cmark_node_first_child(link) {
                guard cmark_node_insert_before(link, child) == 1 else { throw Error.renderFailed(name: name) }
            }
            cmark_node_unlink(link)
            cmark_node_free(link)
        }
        return title
    }

    /// The plain text inside a node (an image's alt text, a heading's words).
    private static func plainText(_ node: OpaquePointer) -> String {
        var out = ""
        var child = cmark_node_first_child(node)
        while let c = child {
            if let literal = cmark_node_get_literal(c) { out += String(cString: literal) } else { out += plainText(c) }
            child = cmark_node_next(c)
        }
        return out
    }

    /// Whether a destination is relative or uses one of the schemes. Browsers ignore ASCII tab and
    /// newline anywhere in a URL and strip leading C0 controls and spaces, so those are removed
    /// before the scheme is read.
    static func isAllowed(url: String, schemes: Set<String>) -> Bool {
        var cleaned = String.UnicodeScalarView()
        var leading = true
        for u in url.unicodeScalars {
            if u == "\t" || u == "\n" || u == "\r" { continue }
            if leading && u.value <= 0x20 { continue }
            leading = false
            cleaned.append(u)
        }
        let s = String(cleaned)
        // The scheme is whatever comes before the first ":" that precedes any "/", "?" or "#".
        var scheme = ""
        for u in s.unicodeScalars {
            if u == ":" {
                return schemes.contains(scheme.lowercased())
            }
            if u == "/" || u == "?" || u == "#" { return true }
            scheme.unicodeScalars.append(u)
        }
        return true  // no colon: relative
    }

    /// C0 controls other than tab, newline and carriage return, and DEL, have no place in a page.
    static func removingControlCharacters(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: ControlText.isRefused) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars where !ControlText.isRefused(u) { out.append(u) }
        return String(out)
    }

    /// Whether UTF-8 `bytes` hold a control character `removingControlCharacters` removes (C1
    /// controls are two bytes, C2 80 to C2 9F), looked for without decoding the text.
    static func hasControlBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var previous: UInt8 = 0
        for b in bytes {
            if (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) || b == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(b)) { return true }
            previous = b
        }
        return false
    }

    private static func freeCmarkString(_ pointer: UnsafeMutablePointer<CChar>) {
        if let allocator = cmark_get_default_mem_allocator() {
            allocator.pointee.free(pointer)
        } else {
            free(pointer)
        }
    }

    static func kib(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 512) / 1024
        return "\(tenths / 10).\(tenths % 10) KiB"
    }
}
