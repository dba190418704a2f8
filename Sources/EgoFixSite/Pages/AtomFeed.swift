import EgoFixCore
import Foundation

/// Atom 1.0 (RFC 4287). Links are absolute when a base URL is set and relative to the feed
/// otherwise; entry ids are `urn:uuid:` and never depend on the URL. Entries are written in the
/// order given. Same input, same bytes.
public enum AtomFeed {
    /// - Parameters:
    ///   - baseURL: "https://example.org/egofix/" (http or https). Anything else is ignored and
    ///     links stay relative.
    ///   - updated: the feed's last change (normally the newest entry's).
    ///   - feedPath / pagePath: where the feed and its HTML page live, relative to the site root.
    ///   - id: the feed's id; by default the feed's absolute URL when there is a base URL, else a
    ///     name-based `urn:uuid:` derived from the feed path and title.
    ///   - author: the feed-level author Atom requires.
    public static func render(entries: [AtomEntry], title: String, baseURL: String?, updated: Date,
                              feedPath: String = "changelog.xml", pagePath: String = "changelog.html",
                              id: UUID? = nil, author: String = "egofix") -> String {
        let base = validBase(baseURL)
        // Without a base URL, links are relative to the feed's own folder.
        let up = String(repeating: "../", count: max(0, relativeReference(feedPath).split(separator: "/").count - 1))
        func link(_ path: String) -> String {
            let reference = reference(path)
            guard let base else { return up + reference }
            return base + reference
        }
        let feedID: String
        if let id {
            feedID = "urn:uuid:" + id.uuidString.lowercased()
        } else if base != nil {
            feedID = link(feedPath)
        } else {
            feedID = "urn:uuid:" + NameUUID.v5(name: "egofix:feed:\(feedPath):\(title)").uuidString.lowercased()
        }

        var x = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        x += "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
        x += "  <id>\(XMLEscape.escape(feedID))</id>\n"
        x += "  <title type=\"text\">\(XMLEscape.escape(title))</title>\n"
        x += "  <updated>\(timestamp(updated))</updated>\n"
        x += "  <author><name>\(XMLEscape.escape(author))</name></author>\n"
        x += "  <generator>egofix</generator>\n"
        x += "  <link rel=\"alternate\" type=\"text/html\" href=\"\(XMLEscape.escape(link(pagePath)))\"/>\n"
        if base != nil {
            x += "  <link rel=\"self\" type=\"application/atom+xml\" href=\"\(XMLEscape.escape(link(feedPath)))\"/>\n"
        }
        for entry in entries {
            x += "  <entry>\n"
            x += "    <id>urn:uuid:\(entry.id.uuidString.lowercased())</id>\n"
            x += "    <title type=\"text\">\(XMLEscape.escape(entry.title))</title>\n"
            x += "    <updated>\(timestamp(entry.updated))</updated>\n"
            if let published = entry.published {
                x += "    <published>\(timestamp(published))</published>\n"
            }
            x += "    <link rel=\"alternate\" type=\"text/html\" href=\"\(XMLEscape.escape(link(entry.path)))\"/>\n"
            if let summary = entry.summary {
                x += "    <summary type=\"text\">\(XMLEscape.escape(summary))</summary>\n"
            }
            if let content = entry.content {
                x += "    <content type=\"html\">\(XMLEscape.escape(content.html))</content>\n"
            }
            x += "  </entry>\n"
        }
        x += "</feed>\n"
        return x
    }

    /// RFC 3339 in UTC, whole seconds: "2026-11-22T18:00:00Z".
    static func timestamp(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let rest = Int(seconds - Int64(days) * 86_400)
        let c = LocalDay.civilFromDays(days)
        guard (0...9999).contains(c.year) else {
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year, c.month, c.day, rest / 3600, rest / 60 % 60, rest % 60)
        }
        func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
        let year = String(c.year)
        return String(repeating: "0", count: 4 - year.count) + year + "-" + two(c.month) + "-" + two(c.day) + "T" + two(rest / 3600) + ":"
            + two(rest / 60 % 60) + ":" + two(rest % 60) + "Z"
    }

    /// An http(s) base URL ending in "/", or nil.
    static func validBase(_ baseURL: String?) -> String? {
        guard let raw = baseURL?.trimmingWhitespace(), !raw.isEmpty,
              let url = URL(string: raw), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil,
              !raw.unicodeScalars.contains(where: { $0.value <= 0x20 || $0 == "\"" || $0 == "<" || $0 == ">" })
        else { return nil }
        return raw.hasSuffix("/") ? raw : raw + "/"
    }

    /// A site path with an optional "#fragment" as a relative URL reference: the path as
    /// `relativeReference` makes it, then "#" and the fragment with only what a fragment may not
    /// hold percent-encoded ("changelog/index.html#v-1-0" stays as it is).
    static func reference(_ path: String) -> String {
        guard let hash = path.firstIndex(of: "#") else { return relativeReference(path) }
        var allowed = CharacterSet.urlFragmentAllowed
        allowed.remove(charactersIn: "#")
        let fragment = String(path[path.index(after: hash)...])
        return relativeReference(String(path[..<hash])) + "#" + (fragment.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    /// A site path as a relative URL reference: no leading "/", each segment percent-encoded.
    static func relativeReference(_ path: String) -> String {
        // A path of letters, digits and "-._~" between single slashes (as egofix makes them) is
        // its own reference.
        var p = path
        let plain = p.withUTF8 { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last, first != 0x2f, last != 0x2f else { return false }
            var previous: UInt8 = 0
            for b in bytes {
                let ok = (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39)
                    || b == 0x2d || b == 0x2e || b == 0x5f || b == 0x7e || (b == 0x2f && previous != 0x2f)
                guard ok else { return false }
                previous = b
            }
            return true
        }
        return plain ? path : encodedReference(path)
    }

    /// `relativeReference` for any path: empty segments dropped, each segment percent-encoded.
    static func encodedReference(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;:?#[]@")
        return path.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            String(segment).addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        }.joined(separator: "/")
    }
}
