import Foundation

/// One problem in an import file: table, record index (or nil for the file itself), field and message.
public struct ImportIssue: Equatable, Sendable, CustomStringConvertible {
    public let table: String
    public let index: Int?
    public let field: String
    public let message: String

    public init(table: String, index: Int?, field: String, message: String) {
        self.table = table
        self.index = index
        self.field = field
        self.message = message
    }

    /// "completions[3].fixId: refers to fix …, which is not in the file"
    public var description: String {
        var where_ = table
        if let index { where_ += "[\(index)]" }
        if !field.isEmpty { where_ += where_.isEmpty ? field : "." + field }
        let text = where_.isEmpty ? message : "\(where_): \(message)"
        // A value quoted from the file may hold a line break or worse: the message stays one line.
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return text }
        var out = ""
        for c in text.unicodeScalars {
            if c.value < 0x20 || (0x7F...0x9F).contains(c.value) { out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(c) }
        }
        return out
    }
}
