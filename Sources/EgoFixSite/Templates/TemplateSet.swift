import EgoFixResources
import Foundation
import Mustache

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
/// Each template is read at load time by a small strict reader (`TemplateSyntax`, for the errors
/// that name a file and line), by swift-mustache (whose grammar the templates are written in), and
/// compiled once into `CompiledTemplate`, which renders with swift-mustache's layout rules straight
/// into bytes and checks the context in the same walk.
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
    /// Whether week pages, and month, quarter and year pages, are written by `PageWriter`: true
    /// when the "week" (or "period") template and the partials it reads are the ones it was
    /// written from (whether built in or copied into a workspace unchanged). Tests turn them off
    /// to compare the two.
    var writesWeeks: Bool
    var writesPeriods: Bool

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
        let files = try Overlay.merge(builtIn: builtIn, builtInFolder: "Templates", folder: folder)
        var sources: [(name: String, origin: String, text: String, builtIn: Bool)] = []
        for file in files where file.path.hasSuffix(".mustache") {
            guard var text = String(data: file.data, encoding: .utf8) else {
                throw TemplateError.unreadable(path: file.origin, reason: "it is not UTF-8 text")
            }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            sources.append((String(file.path.dropLast(".mustache".count)), file.origin, text, file.isBuiltIn))
        }
        try self.init(sources: sources)
    }

    /// Templates given directly as text (for tests and tools): name → Mustache source.
    public init(templates: [String: String]) throws {
        try self.init(sources: templates.keys.sorted().compactMap { name in
            templates[name].map { (name, "Templates/\(name).mustache", $0, false) }
        })
    }

    /// Built-in templates are not given to swift-mustache or to `TemplateSyntax` again at every
    /// load: a test holds them to both (`checkGrammar`, `TemplateSyntax.parse`), and they cannot
    /// change after the build. Overrides go through both, for their errors.
    private init(sources: [(name: String, origin: String, text: String, builtIn: Bool)]) throws {
        var entries: [String: Entry] = [:]
        var compiled: [String: CompiledTemplate] = [:]
        var texts: [String: String] = [:]
        // With an override, how deep a render can nest through chains of partials is checked;
        // the built-in theme alone nests a few levels (a test holds it to the limit).
        let overridden = sources.contains { !$0.builtIn }
        var shapes: [String: TemplateSyntax.Shape] = [:]
        var origins: [String: String] = [:]
        for source in sources {
            texts[source.name] = source.text
            var partials: [(name: String, line: Int)]?
            if overridden {
                let nodes = try TemplateSyntax.parse(source.text, label: source.origin)
                shapes[source.name] = TemplateSyntax.shape(of: nodes)
                origins[source.name] = source.origin
                if !source.builtIn { partials = TemplateSyntax.partials(in: nodes) }
            }
            if !source.builtIn {
                try TemplateSet.checkGrammar(source.text, origin: source.origin)
            }
            let template = try CompiledTemplate(name: source.name, origin: source.origin, text: source.text)
            compiled[source.name] = template
            entries[source.name] = Entry(name: source.name, origin: source.origin, partials: partials ?? template.partials)
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
        writesWeeks = PageWriter.Kind.week.digest { texts[$0] } == PageWriter.Kind.week.templateDigest
        writesPeriods = PageWriter.Kind.period.digest { texts[$0] } == PageWriter.Kind.period.templateDigest
    }

    /// swift-mustache must accept a template too: the templates are written in its grammar.
    static func checkGrammar(_ text: String, origin: String) throws {
        let pragma = "{{% CONTENT_TYPE: \(PreEscapedContentType.registeredName)}}\n"
        do {
            _ = try MustacheTemplate(string: pragma + text)
        } catch let error as MustacheTemplate.ParserError {
            throw TemplateError.syntax(template: origin, line: max(1, error.context.lineNumber - 1),
                                       message: "swift-mustache cannot parse it (\(error.error))")
        } catch {
            throw TemplateError.syntax(template: origin, line: 1, message: "swift-mustache cannot parse it (\(error))")
        }
    }

    /// Where a template came from ("Templates/week.mustache (built-in)" or a file path).
    public func origin(of name: String) -> String? { entries[name]?.origin }

    /// Renders a template with a dictionary context (see `TemplateValue(any:)` for what it may hold).
    public func render(_ name: String, _ context: [String: Any]) throws -> String {
        try render(name, TemplateValue(any: context))
    }

    /// Renders a template. The context is normally an `.object`.
    public func render(_ name: String, _ context: TemplateValue) throws -> String {
        String(decoding: try renderer.render(name, PageValue(context)), as: UTF8.self)
    }

    /// Renders a template for a page model, as UTF-8 bytes.
    func renderBytes(_ name: String, _ context: PageObject) throws -> Data {
        try renderer.render(name, .object(context))
    }
}

// MARK: - What swift-mustache sees

/// The library's view of a `TemplateValue`: text already escaped, HTML as is, and leaves that
/// have no children (so name lookups pass over them exactly as `TemplateSet.lookup` does).
enum LibraryValue {
    static func make(_ value: TemplateValue) -> Any {
        switch value {
        case .text(let s): return Leaf(text: HTMLEscape.escape(s), isEmpty: s.isEmpty)
        case .html(let h): return Leaf(text: h.html, isEmpty: h.html.isEmpty)
        case .bool(let b): return b
        case .null: return Leaf(text: "", isEmpty: true)
        case .list(let items): return items.map(make)
        case .object(let dict):
            var out: [String: Any] = [:]
            out.reserveCapacity(dict.count)
            for (key, child) in dict { out[key] = make(child) }
            return out
        }
    }

    /// A printable leaf. `isNull` makes empty values false in sections.
    struct Leaf: MustacheCustomRenderable, MustacheParent {
        let text: String
        let isEmpty: Bool
        var renderText: String { text }
        var isNull: Bool { isEmpty }
        func child(named: String) -> Any? { nil }
    }
}

/// A content type that prints values unchanged: `LibraryValue` escapes text before the library
/// sees it (per Unicode scalar), and `RawHTML` must not be escaped.
struct PreEscapedContentType: MustacheContentType {
    func escapeText(_ text: String) -> String { text }

    static let registeredName: String = {
        let name = "EGOFIX_PRE_ESCAPED"
        MustacheContentTypes.register(PreEscapedContentType(), named: name)
        return name
    }()
}
