import EgoFixResources
import Foundation

/// The site's Mustache templates and partials: the built-in theme overridden file by file by the
/// workspace's `Templates/` folder. A template's name is its path without ".mustache"
/// ("week", "partials/header"); partials are included by that name (`{{> partials/header}}`).
///
/// Rendering is strict, unlike Mustache's default: a missing template, partial or key is an error
/// naming the template file, the line and the key. Text is escaped per Unicode scalar
/// (`HTMLEscape`), not by the library, which escapes per `Character` and so lets `"` or `<` followed
/// by a combining mark through. Raw output (`{{{name}}}` or `{{& name}}`) is only accepted for
/// `RawHTML` values: rendered Markdown and generated SVG.
///
/// Each template is read once at load by `TemplateParser` (strict, its errors naming a file and a
/// line) into a `CompiledTemplate`, which renders with swift-mustache's layout rules straight into
/// bytes and checks the context in the same walk. The templates are written in swift-mustache's
/// grammar (`TemplateSyntax` says which part of it); the tests hold the built-in theme and the
/// renderer to swift-mustache.
public struct TemplateSet: Sendable {
    /// Deepest chain of partials including partials.
    public static let maxPartialDepth = 32

    struct Entry: Sendable {
        let name: String
        let origin: String
        /// The partials it names, with the line of each use, in order.
        let partials: [(name: String, line: Int)]
    }

    private let entries: [String: Entry]
    private let renderer: TemplateRenderer
    /// Template names, sorted.
    public let names: [String]
    /// With overrides, the names of the page templates (not partials) whose text and partials hold no
    /// Content-Security-Policy meta: pages made from them let a browser load from other hosts.
    /// Empty for the built-in theme, which has it on every page.
    public var pagesWithoutCSP: [String] { pagesWithout[.contentSecurityPolicy] ?? [] }
    /// The same for each meta the built-in pages carry (`PageMeta`): the page templates whose text
    /// and partials leave it out. Comments do not count; a private page needs all three, a page
    /// under share/ all but noindex.
    public let pagesWithout: [PageMeta: [String]]
    /// With overrides, the private page templates that leave out the help block: no
    /// `{{#crisis}}{{> partials/help}}{{/crisis}}` (or text of its own in a `crisis` section) in
    /// their text or partials, or a help partial with no text. The block is what a page shows
    /// first when something written on it reads like a crisis.
    public let pagesWithoutHelp: [String]
    /// Files in the workspace's `Templates/` that no page uses: not the name of a built-in
    /// template, and included by none (a misspelt `weeks.mustache` changed nothing, silently),
    /// or not a template at all (`week.html`, an editor's `week.mustache~`).
    public private(set) var unusedOverrides: [String]
    /// With overrides: every name the built-in templates read (each segment of a dotted name on
    /// its own), and the names they print raw. What a tag no page has reached yet is held to.
    private let builtInVocabulary: Vocabulary

    /// Loads the built-in templates and the workspace's `Templates/` folder (when present).
    public static func load(workspace: URL?) throws -> TemplateSet {
        try TemplateSet(builtIn: BuiltIn.files(under: "Templates"),
                        overrides: workspace?.appendingPathComponent("Templates", isDirectory: true))
    }

    /// - Parameters:
    ///   - builtIn: the embedded defaults, paths relative to `Templates/`.
    ///   - folder: the user's templates folder; ignored when it does not exist.
    /// Files not ending in ".mustache" are ignored.
    public init(builtIn: [(path: String, data: Data)], overrides folder: URL?) throws {
        let files = try Overlay.merge(builtIn: builtIn, builtInFolder: "Templates", folder: folder, workspace: folder?.deletingLastPathComponent())
        // The built-in templates, each compiled once: for the pages, and with overrides for the
        // names they read.
        var builtInTemplates: [String: CompiledTemplate] = [:]
        for file in builtIn where file.path.hasSuffix(".mustache") {
            let name = String(file.path.dropLast(".mustache".count))
            builtInTemplates[name] = try CompiledTemplate(name: name, origin: "Templates/\(file.path) (built-in)",
                                                          text: String(decoding: file.data, as: UTF8.self))
        }
        var sources: [Source] = []
        let notTemplates = files.filter { !$0.isBuiltIn && !$0.path.hasSuffix(".mustache") }.map(\.origin)
        for file in files where file.path.hasSuffix(".mustache") {
            let name = String(file.path.dropLast(".mustache".count))
            if file.isBuiltIn, let template = builtInTemplates[name] {
                sources.append(Source(template: template, builtIn: true))
                continue
            }
            guard var text = String(data: file.data, encoding: .utf8) else {
                throw TemplateError.unreadable(path: file.origin, reason: "it is not UTF-8 text")
            }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            // A NUL or an escape would go into every page as it is (user text refuses them).
            if !file.isBuiltIn {
                var line = 1
                for c in text.unicodeScalars {
                    if c == "\n" { line += 1 }
                    if (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || c.value == 0x7F {
                        throw TemplateError.syntax(template: file.origin, line: line,
                                                   message: "the control character U+\(String(format: "%04X", c.value)) is not text a page can hold. Remove it.")
                    }
                }
            }
            sources.append(Source(template: try CompiledTemplate(name: name, origin: file.origin, text: text), builtIn: file.isBuiltIn))
        }
        var vocabulary = Vocabulary()
        if sources.contains(where: { !$0.builtIn }) {
            // Each built-in template's names, and the partials it includes.
            var own: [String: Vocabulary] = [:], includes: [String: [String]] = [:]
            for (name, template) in builtInTemplates {
                var v = Vocabulary()
                TemplateSet.names(in: template.tokens, into: &v)
                own[name] = v
                includes[name] = template.partials.map(\.name)
            }
            // What a template may read: the names of every page it is part of, with all that
            // page's partials (a partial sees the page's context).
            func below(_ name: String) -> Set<String> {
                var seen = Set<String>(), stack = [name]
                while let n = stack.popLast() {
                    if seen.insert(n).inserted { stack += includes[n] ?? [] }
                }
                return seen
            }
            let belowByName = Dictionary(uniqueKeysWithValues: own.keys.map { ($0, below($0)) })
            for name in own.keys {
                var v = Vocabulary()
                for root in belowByName.keys where belowByName[root]?.contains(name) == true {
                    for n in belowByName[root] ?? [] { v.formUnion(own[n] ?? Vocabulary()) }
                }
                vocabulary.byTemplate[name] = v
                vocabulary.formUnion(own[name] ?? Vocabulary())
            }
        }
        try self.init(sources: sources, builtInNames: Set(builtIn.map { String($0.path.dropLast(".mustache".count)) }), vocabulary: vocabulary)
        unusedOverrides = (unusedOverrides + notTemplates).sorted()
    }

    /// Whether `tokens` hold text that is not only white space (sections' bodies included).
    static func hasText(_ tokens: [CompiledTemplate.Token]) -> Bool {
        CompiledTemplate.contains(tokens) { token in
            guard case .text(let bytes) = token else { return false }
            return bytes.contains { ![0x20, 0x0a, 0x0d, 0x09].contains($0) }
        }
    }

    /// Whether `tokens` hold a `crisis` section that shows something: the help partial (when it
    /// has text) or text of its own.
    static func crisisSectionShowsHelp(_ tokens: [CompiledTemplate.Token], helpHasText: Bool) -> Bool {
        CompiledTemplate.contains(tokens) { token in
            guard case .section(let crisis) = token, crisis.name == "crisis", !crisis.inverted else { return false }
            return hasText(crisis.body) || (helpHasText && CompiledTemplate.contains(crisis.body) { token in
                if case .partial(let tag) = token { return tag.name == "partials/help" }
                return false
            })
        }
    }

    /// Names the built-in templates read: each segment of a dotted name on its own, and the names
    /// printed raw; all of them, and for each template those of the pages it is part of.
    struct Vocabulary {
        var segments = Set<String>(), raw = Set<String>()
        var byTemplate: [String: Vocabulary] = [:]

        mutating func formUnion(_ other: Vocabulary) {
            segments.formUnion(other.segments)
            raw.formUnion(other.raw)
        }
    }

    /// The names `tokens` read, each segment on its own, and the names printed raw.
    private static func names(in tokens: [CompiledTemplate.Token], into v: inout Vocabulary) {
        CompiledTemplate.visit(tokens) { token in
            switch token {
            case .variable(let tag), .section(let tag): v.segments.formUnion(tag.path)
            case .raw(let tag):
                v.segments.formUnion(tag.path)
                v.raw.insert(tag.name)
            case .text, .partial: break
            }
        }
    }

    /// Templates given directly as text (for tests and tools): name → Mustache source.
    public init(templates: [String: String]) throws {
        try self.init(sources: templates.keys.sorted().map { name in
            Source(template: try CompiledTemplate(name: name, origin: "Templates/\(name).mustache", text: templates[name] ?? ""), builtIn: false)
        }, builtInNames: nil)
    }

    /// A template of the set, compiled, and whether it is the built-in theme's.
    private struct Source {
        let template: CompiledTemplate
        let builtIn: Bool
        var name: String { template.name }
        var origin: String { template.origin }
    }

    /// `builtInNames`: the built-in theme's template names, which the pages render (nil: every
    /// template given is one).
    private init(sources: [Source], builtInNames: Set<String>?, vocabulary: Vocabulary = Vocabulary()) throws {
        var entries: [String: Entry] = [:]
        var compiled: [String: CompiledTemplate] = [:]
        // With an override, how deep a render can nest through chains of partials is checked;
        // the built-in theme alone nests a few levels (a test holds it to the limit).
        let overridden = sources.contains { !$0.builtIn }
        var shapes: [String: TemplateSyntax.Shape] = [:]
        var origins: [String: String] = [:]
        for source in sources {
            let template = source.template
            if overridden {
                shapes[source.name] = TemplateSyntax.shape(of: template.tokens)
                origins[source.name] = source.origin
            }
            compiled[source.name] = template
            entries[source.name] = Entry(name: source.name, origin: source.origin, partials: template.partials)
        }
        if overridden { try TemplateSyntax.checkRenderDepth(shapes, origins: origins, maxPartialDepth: TemplateSet.maxPartialDepth) }
        // Every partial must exist, whether or not a render reaches it.
        for name in entries.keys.sorted() {
            guard let entry = entries[name] else { continue }
            for partial in entry.partials where entries[partial.name] == nil {
                throw TemplateError.missingPartial(template: entry.origin, line: partial.line, partial: partial.name)
            }
        }
        // A partial that includes itself (directly or through others) fails every page that
        // reaches it, even inside a section no page shows yet: said now, with the chain.
        if overridden {
            var state: [String: Int] = [:]  // 1: on the current path, 2: done
            func visit(_ name: String, _ path: [(name: String, line: Int)]) throws {
                state[name] = 1
                for partial in entries[name]?.partials ?? [] {
                    if state[partial.name] == 1 {
                        let chain = (path.map(\.name) + [name, partial.name]).drop { $0 != partial.name }
                        throw TemplateError.syntax(template: entries[name]?.origin ?? name, line: partial.line,
                                                   message: "'{{> \(partial.name)}}' includes itself (\(chain.joined(separator: " > "))), "
                                                    + "so any page that reaches it fails. Remove one of the inclusions.")
                    }
                    if state[partial.name] == nil { try visit(partial.name, path + [(name, partial.line)]) }
                }
                state[name] = 2
            }
            for name in entries.keys.sorted() where state[name] == nil { try visit(name, []) }
        }
        self.entries = entries
        // The workspace's own templates are watched for the tags no render reaches (see `unreachedNames`).
        self.renderer = TemplateRenderer(templates: compiled, tracked: builtInNames == nil ? [] : Set(sources.filter { !$0.builtIn }.map(\.name)))
        self.builtInVocabulary = vocabulary
        self.names = entries.keys.sorted()
        // Checks of the overrides: what each page reaches (itself and the partials it includes,
        // transitively) holds the CSP meta; every file of one's own is reached by some page.
        var without: [PageMeta: [String]] = [:], unused: [String] = [], withoutHelp: [String] = []
        if overridden {
            func reached(from roots: [String]) -> Set<String> {
                var seen = Set<String>(), stack = roots
                while let name = stack.popLast() {
                    guard seen.insert(name).inserted else { continue }
                    stack += entries[name]?.partials.map(\.name) ?? []
                }
                return seen
            }
            let metas = compiled.mapValues { PageMeta.found(in: $0.tokens) }
            // The templates pages are made from: the built-in theme's, not its partials (a
            // template of one's own outside partials/ is a partial too).
            let pages = (builtInNames ?? Set(names)).filter { !$0.hasPrefix("partials/") }.sorted()
            for page in pages {
                let held = reached(from: [page]).reduce(into: Set<PageMeta>()) { $0.formUnion(metas[$1] ?? []) }
                for meta in PageMeta.allCases where !held.contains(meta) && (meta != .noindex || !page.hasPrefix("share/")) {
                    without[meta, default: []].append(page)
                }
            }
            let helpHasText = compiled["partials/help"].map { TemplateSet.hasText($0.tokens) } ?? false
            // The 404 page never has a crisis to show.
            for page in pages where !page.hasPrefix("share/") && page != "notfound" {
                let shown = reached(from: [page]).contains { name in
                    compiled[name].map { TemplateSet.crisisSectionShowsHelp($0.tokens, helpHasText: helpHasText) } ?? false
                }
                if !shown { withoutHelp.append(page) }
            }
            if let builtInNames {
                let used = reached(from: builtInNames.sorted())
                unused = sources.filter { !$0.builtIn && !used.contains($0.name) }.map(\.origin).sorted()
            }
        }
        pagesWithout = without
        pagesWithoutHelp = withoutHelp
        unusedOverrides = unused
    }

    /// For the workspace's own templates, one line for each tag that no page rendered so far has
    /// reached (it sits in a section nothing filled) and that no built-in template would answer:
    /// a name none of them reads, or raw output of a name none prints raw. Such a typo passes
    /// every build until the first page that shows that part, which then fails; said now, it is
    /// found while the template is being written.
    public func unreachedNames() -> [String] {
        var seen = Set<String>(), lines: [String] = []
        let nameByOrigin = Dictionary(entries.values.map { ($0.origin, $0.name) }, uniquingKeysWith: { a, _ in a })
        for tag in renderer.unreached() where tag.name != "." {
            // Held to the names of the pages the template is part of when it overrides a built-in
            // one (`{{bugSlug}}` is read on bug pages, not in a week's note); else to all.
            let known = nameByOrigin[tag.origin].flatMap { builtInVocabulary.byTemplate[$0] } ?? builtInVocabulary
            let unknown = tag.name.split(separator: ".").first { !known.segments.contains(String($0)) }
            let line: String
            if let unknown {
                line = "\(tag.origin):\(tag.line): {{\(tag.raw ? "{" : "")\(tag.name)\(tag.raw ? "}" : "")}} is in a part no page shows yet, "
                    + "and no built-in template reads '\(unknown)' there. If it is a typo, builds fail from the first page that shows it."
            } else if tag.raw && !known.raw.contains(tag.name) {
                line = "\(tag.origin):\(tag.line): {{{\(tag.name)}}} is in a part no page shows yet, and no built-in template prints "
                    + "'\(tag.name)' raw there (raw output is for rendered Markdown and SVG only). If it holds text, builds fail from the first page that shows it."
            } else {
                continue
            }
            if seen.insert(tag.origin + "\u{0}" + tag.name).inserted { lines.append(line) }
        }
        return lines
    }

    /// Where a template came from ("Templates/week.mustache (built-in)" or a file path).
    public func origin(of name: String) -> String? { entries[name]?.origin }

    /// Renders a template with a dictionary context (see `TemplateValue(any:)` for what it may hold).
    public func render(_ name: String, _ context: [String: Any]) throws -> String {
        try render(name, TemplateValue(any: context))
    }

    /// Renders a template. The context is normally an `.object`.
    public func render(_ name: String, _ context: TemplateValue) throws -> String {
        String(decoding: try renderer.render(name, context), as: UTF8.self)
    }

    /// Renders a template for a page model, as UTF-8 bytes.
    func renderBytes(_ name: String, _ context: TemplateObject) throws -> Data {
        try renderer.render(name, .object(context))
    }
}

/// The meta elements every built-in page carries for privacy, as a template with overrides is
/// checked for them: in its text (not its comments) or a partial's it includes.
public enum PageMeta: String, CaseIterable, Sendable, Comparable {
    /// `<meta http-equiv="Content-Security-Policy" ...>`: nothing loaded from other hosts.
    case contentSecurityPolicy
    /// `<meta name="referrer" content="no-referrer">`: a link followed tells the other site nothing.
    case noReferrer
    /// `<meta name="robots" content="noindex...">`: private pages, if published, stay out of search engines.
    case noindex

    public static func < (a: PageMeta, b: PageMeta) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }

    /// What the pages without it are open to, for the build's warning.
    public var consequence: String {
        switch self {
        case .contentSecurityPolicy: return "carry no Content-Security-Policy meta: a browser may load from other hosts on them"
        case .noReferrer: return "carry no referrer meta of no-referrer: a link followed from them tells the other site the page's address"
        case .noindex: return "carry no robots meta of noindex: published, they may be indexed by search engines"
        }
    }

    /// The metas in the text of `tokens` outside sections (a tag or a section standing for a
    /// space), read as `MetaTag` reads them: names and values in any case, an HTML comment not
    /// counting (nor a Mustache one, which is no text). A meta inside a section is on a page only
    /// when its value is there: `{{#crisis}}` around the policy left it off nearly every page,
    /// and the build said nothing.
    static func found(in tokens: [CompiledTemplate.Token]) -> Set<PageMeta> {
        var found = Set<PageMeta>()
        var text = ""
        for token in tokens {
            if case .text(let bytes) = token { text += String(decoding: bytes, as: UTF8.self) } else { text += " " }
        }
        for tag in MetaTag.all(in: text) {
            let name = tag.exactValue("name")?.lowercased(), content = tag.value("content")?.lowercased() ?? ""
            if tag.isContentSecurityPolicy, !content.isEmpty { found.insert(.contentSecurityPolicy) }
            if name == "referrer", content == "no-referrer" { found.insert(.noReferrer) }
            if name == "robots", content.split(whereSeparator: { $0 == "," || $0 == " " }).contains("noindex") {
                found.insert(.noindex)
            }
        }
        return found
    }
}
