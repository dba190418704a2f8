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
