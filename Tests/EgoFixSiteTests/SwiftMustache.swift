import Mustache

/// swift-mustache, whose grammar the templates are written in: the tests hold templates to its
/// parser (egofix renders with its own, `CompiledTemplate`).
enum SwiftMustache {
    static func check(_ text: String, origin: String) throws {
        _ = try MustacheTemplate(string: text)
    }
}
