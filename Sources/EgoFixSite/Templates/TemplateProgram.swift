import Foundation

/// A compiled template flattened for the walk that renders it: its operations, the bytes of its
/// text and the names it reads, in buffers of plain values. Nothing in them is reference counted,
/// so the walk retains nothing of the template.
final class TemplateProgram: @unchecked Sendable {
    enum Kind: UInt8 { case text, variable, raw, section, partial }

    struct Op {
        let kind: Kind
        let inverted: Bool
        /// Variable, raw, section, partial: its name in `names` and `nameText`.
        let name: Int
        /// Text: where its bytes start in `bytes`. Partial: the template's place in the renderer's
        /// programs, -1 when there is none.
        let a: Int
        /// Text: its byte count. Section: the operation after its body. Partial: where its
        /// indentation starts in `bytes`, -1 when it does not stand alone on its line.
        let b: Int
        /// Partial: the indentation's byte count.
        let c: Int
        let line: Int
    }

    /// One segment of a name, compared with field names as `FieldName` compares them.
    struct Segment {
        let words: (UInt64, UInt64)
        /// The segment as a String, in `segmentText`.
        let key: Int
    }

    /// A name: `count` segments from `first` (none for ".").
    struct Name {
        let first: Int
        let count: Int
    }

    let origin: String
    /// For a template of the workspace's own: where its operations start in a render's record of
    /// the operations it reached (see `TemplateRenderer.reached`); -1 for a built-in one.
    let reachBase: Int
    let ops: UnsafeMutableBufferPointer<Op>
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let segments: UnsafeMutableBufferPointer<Segment>
    let names: UnsafeMutableBufferPointer<Name>
    /// Each name as written (for errors), and each segment as a String (which also keeps alive
    /// the storage a long segment's words point to).
    let nameText: [String]
    let segmentText: [String]

    /// `place` gives a partial's place among the renderer's programs.
    init(_ template: CompiledTemplate, place: (String) -> Int?, reachBase: Int = -1) {
        var ops: [Op] = [], bytes: [UInt8] = [], segments: [Segment] = [], names: [Name] = []
        var nameText: [String] = [], segmentText: [String] = []
        func name(_ tag: CompiledTemplate.Tag) -> Int {
            names.append(Name(first: segments.count, count: tag.path.count))
            for segment in tag.path {
                segments.append(Segment(words: FieldName.words(segment), key: segmentText.count))
                segmentText.append(segment)
            }
            nameText.append(tag.name)
            return names.count - 1
        }
        func flatten(_ tokens: [CompiledTemplate.Token]) {
            for token in tokens {
                switch token {
                case .text(let text):
                    ops.append(Op(kind: .text, inverted: false, name: -1, a: bytes.count, b: text.count, c: 0, line: 0))
                    bytes += text
                case .variable(let tag):
                    ops.append(Op(kind: .variable, inverted: false, name: name(tag), a: 0, b: 0, c: 0, line: tag.line))
                case .raw(let tag):
                    ops.append(Op(kind: .raw, inverted: false, name: name(tag), a: 0, b: 0, c: 0, line: tag.line))
                case .section(let tag):
                    let at = ops.count, n = name(tag)
                    ops.append(Op(kind: .section, inverted: tag.inverted, name: n, a: 0, b: 0, c: 0, line: tag.line))
                    flatten(tag.body)
                    ops[at] = Op(kind: .section, inverted: tag.inverted, name: n, a: 0, b: ops.count, c: 0, line: tag.line)
                case .partial(let tag):
                    var (start, count) = (-1, 0)
                    if let indentation = tag.indentation {
                        (start, count) = (bytes.count, indentation.count)
                        bytes += indentation
                    }
                    // A partial's name is only read by its errors: it has no segments.
                    names.append(Name(first: 0, count: 0))
                    nameText.append(tag.name)
                    ops.append(Op(kind: .partial, inverted: false, name: names.count - 1, a: place(tag.name) ?? -1,
                                  b: start, c: count, line: tag.line))
                }
            }
        }
        flatten(template.tokens)
        func buffer<T>(_ items: [T]) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, items.count))
            _ = b.initialize(from: items)
            return UnsafeMutableBufferPointer(rebasing: b[..<items.count])
        }
        origin = template.origin
        self.reachBase = reachBase
        self.ops = buffer(ops)
        self.bytes = buffer(bytes)
        self.segments = buffer(segments)
        self.names = buffer(names)
        self.nameText = nameText
        self.segmentText = segmentText
    }

    deinit {
        // Plain values: nothing to deinitialize.
        ops.baseAddress?.deallocate()
        bytes.baseAddress?.deallocate()
        segments.baseAddress?.deallocate()
        names.baseAddress?.deallocate()
    }
}
