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
    public let pagesWithoutCSP: [String]
    /// Files in the workspace's `Templates/` that no page uses: not the name of a built-in
    /// template, and included by none (a misspelt `weeks.mustache` changed nothing, silently).
    public let unusedOverrides: [String]

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
        var sources: [(name: String, origin: String, text: String, builtIn: Bool)] = []
        for file in files where file.path.hasSuffix(".mustache") {
            guard var text = String(data: file.data, encoding: .utf8) else {
                throw TemplateError.unreadable(path: file.origin, reason: "it is not UTF-8 text")
            }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            sources.append((String(file.path.dropLast(".mustache".count)), file.origin, text, file.isBuiltIn))
        }
        try self.init(sources: sources, builtInNames: Set(builtIn.map { String($0.path.dropLast(".mustache".count)) }))
    }

    /// Templates given directly as text (for tests and tools): name → Mustache source.
    public init(templates: [String: String]) throws {
        try self.init(sources: templates.keys.sorted().compactMap { name in
            templates[name].map { (name, "Templates/\(name).mustache", $0, false) }
        }, builtInNames: nil)
    }

    /// `builtInNames`: the built-in theme's template names, which the pages render (nil: every
    /// template given is one).
    private init(sources: [(name: String, origin: String, text: String, builtIn: Bool)], builtInNames: Set<String>?) throws {
        var entries: [String: Entry] = [:]
        var compiled: [String: CompiledTemplate] = [:]
        // With an override, how deep a render can nest through chains of partials is checked;
        // the built-in theme alone nests a few levels (a test holds it to the limit).
        let overridden = sources.contains { !$0.builtIn }
        var shapes: [String: TemplateSyntax.Shape] = [:]
        var origins: [String: String] = [:]
        for source in sources {
            let template = try CompiledTemplate(name: source.name, origin: source.origin, text: source.text)
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
        self.entries = entries
        self.renderer = TemplateRenderer(templates: compiled)
        self.names = entries.keys.sorted()
        // Checks of the overrides: what each page reaches (itself and the partials it includes,
        // transitively) holds the CSP meta; every file of one's own is reached by some page.
        var withoutCSP: [String] = [], unused: [String] = []
        if overridden {
            func reached(from roots: [String]) -> Set<String> {
                var seen = Set<String>(), stack = roots
                while let name = stack.popLast() {
                    guard seen.insert(name).inserted else { continue }
                    stack += entries[name]?.partials.map(\.name) ?? []
                }
                return seen
            }
            let texts = Dictionary(sources.map { ($0.name, $0.text) }, uniquingKeysWith: { _, last in last })
            // The templates pages are made from: the built-in theme's, not its partials (a
            // template of one's own outside partials/ is a partial too).
            let pages = (builtInNames ?? Set(names)).filter { !$0.hasPrefix("partials/") }.sorted()
            withoutCSP = pages.filter { page in !reached(from: [page]).contains { texts[$0]?.contains("Content-Security-Policy") ?? false } }
            if let builtInNames {
                let used = reached(from: builtInNames.sorted())
                unused = sources.filter { !$0.builtIn && !used.contains($0.name) }.map(\.origin).sorted()
            }
        }
        pagesWithoutCSP = withoutCSP
        unusedOverrides = unused
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
