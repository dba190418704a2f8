/// Everything that can go wrong loading or rendering templates. Each description is one line
/// saying what, where (template file and line) and what to do.
public enum TemplateError: Error, Equatable, CustomStringConvertible {
    /// `render` was asked for a template that does not exist.
    case missingTemplate(name: String)
    /// A `{{> partial}}` names a template that does not exist.
    case missingPartial(template: String, line: Int, partial: String)
    /// A tag reads a key the context does not have.
    case missingKey(template: String, line: Int, key: String)
    /// A tag reads a key whose value has the wrong kind for the tag.
    case wrongKind(template: String, line: Int, key: String, found: String, hint: String)
    /// The template text is not valid (or uses a Mustache feature EgoFix does not allow).
    case syntax(template: String, line: Int, message: String)
    /// Partials include each other deeper than `TemplateSet.maxPartialDepth`.
    case partialTooDeep(template: String, line: Int, partial: String)
    /// A context value of a type templates cannot print.
    case unsupportedValue(path: String, type: String)
    /// A template or asset file could not be read.
    case unreadable(path: String, reason: String)
    /// A template or asset override that may not be published: a link out of the workspace, or
    /// not a regular file.
    case refused(path: String, reason: String)
    /// A page grew past `TemplateRenderer.maxPageBytes`, or its sections went through more than
    /// `maxSectionPasses` list items, inside the section on `line`.
    case pageTooLarge(template: String, line: Int, section: String)

    /// One line, whatever a template held: control characters (a line break inside a quoted tag)
    /// are shown as `\u{..}`.
    public var description: String {
        let text = message
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            if c.value < 0x20 || (0x7F...0x9F).contains(c.value) { out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(c) }
        }
        return out
    }

    private var message: String {
        switch self {
        case .missingTemplate(let name):
            return "template '\(name)' does not exist. Add Templates/\(name).mustache or fix the name."
        case .missingPartial(let template, let line, let partial):
            return "\(template):\(line): partial '\(partial)' does not exist. "
                + "Add Templates/\(partial).mustache or fix the name."
        case .missingKey(let template, let line, let key):
            return "\(template):\(line): missing key '\(key)'. "
                + "The page does not provide it; fix the name in the template or remove the tag."
        case .wrongKind(let template, let line, let key, let found, let hint):
            return "\(template):\(line): key '\(key)' is \(found); \(hint)"
        case .syntax(let template, let line, let message):
            return "\(template):\(line): \(message)"
        case .partialTooDeep(let template, let line, let partial):
            return "\(template):\(line): partial '\(partial)' nests deeper than \(TemplateSet.maxPartialDepth) levels. "
                + "Check for a partial that includes itself."
        case .unsupportedValue(let path, let type):
            return "template context value '\(path)' has type \(type), which a template cannot print. "
                + "Convert it to text first."
        case .unreadable(let path, let reason):
            return "\(path): cannot read: \(reason)"
        case .refused(let path, let reason):
            return "\(path): \(reason)" + (reason.hasSuffix(".") ? "" : ".")
        case .pageTooLarge(let template, let line, let section):
            return "\(template):\(line): the page passed \(TemplateRenderer.maxPageBytes >> 20) MB or a million list items inside {{#\(section)}}. "
                + "Check for a section inside itself (a list within the same list); the largest built-in page is a few MB."
        }
    }
}
