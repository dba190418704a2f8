import Foundation

/// One entry of an Atom feed (a version in the changelog).
public struct AtomEntry: Sendable, Equatable {
    /// Stable identity; the entry's Atom id is `urn:uuid:<id>`, so it survives a change of base URL.
    public var id: UUID
    public var title: String
    /// The entry's page, relative to the site root ("changelog/v1.3.html"), optionally with a
    /// fragment after the first "#" ("changelog/index.html#v-1-3"); the fragment stays a fragment.
    public var path: String
    public var updated: Date
    public var published: Date?
    /// Plain-text summary.
    public var summary: String?
    /// Rendered Markdown (release notes), embedded escaped as `type="html"` content.
    public var content: RawHTML?

    public init(id: UUID, title: String, path: String, updated: Date, published: Date? = nil,
                summary: String? = nil, content: RawHTML? = nil) {
        self.id = id
        self.title = title
        self.path = path
        self.updated = updated
        self.published = published
        self.summary = summary
        self.content = content
    }
}

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
        let c = civil(days)
        guard (0...9999).contains(c.y) else {
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.y, c.m, c.d, rest / 3600, rest / 60 % 60, rest % 60)
        }
        func two(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
        let year = String(c.y)
        return String(repeating: "0", count: 4 - year.count) + year + "-" + two(c.m) + "-" + two(c.d) + "T" + two(rest / 3600) + ":"
            + two(rest / 60 % 60) + ":" + two(rest % 60) + "Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func civil(_ z0: Int) -> (y: Int, m: Int, d: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
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

/// Name-based UUIDs (RFC 4122 version 5, SHA-1, URL namespace), for ids that must be stable
/// without storing anything.
enum NameUUID {
    static let urlNamespace: [UInt8] = [0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1,
                                        0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]

    static func v5(name: String, namespace: [UInt8] = urlNamespace) -> UUID {
        var hash = SHA1.digest(namespace + Array(name.utf8))
        hash[6] = (hash[6] & 0x0f) | 0x50
        hash[8] = (hash[8] & 0x3f) | 0x80
        return UUID(uuid: (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7],
                           hash[8], hash[9], hash[10], hash[11], hash[12], hash[13], hash[14], hash[15]))
    }
}

/// SHA-1 (FIPS 180-4). Only for name-based UUIDs, never for security.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var m = message
        let bitLength = UInt64(message.count) &* 8
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        for i in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            for t in 0..<16 {
                let j = chunk + t * 4
                w[t] = UInt32(m[j]) << 24 | UInt32(m[j + 1]) << 16 | UInt32(m[j + 2]) << 8 | UInt32(m[j + 3])
            }
            for t in 16..<80 {
                let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                w[t] = x << 1 | x >> 31
            }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4]
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[t]
                e = d
                d = c
                c = b << 30 | b >> 2
                b = a
                a = temp
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - UInt32($0) * 8)) } }
    }
}
