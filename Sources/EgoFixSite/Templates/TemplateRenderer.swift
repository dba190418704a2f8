import Foundation
import Synchronization

/// Renders compiled templates with `TemplateValue` contexts into UTF-8 bytes.
///
/// The walk borrows the page's values rather than copying them: the context stack holds pointers
/// to values inside the page's tree, each taken within the `withUnsafeBufferPointer` of the list
/// or object holding it and used only while that call is running (a section's body is rendered
/// inside it), and the tree is not changed while it renders.
struct TemplateRenderer: Sendable {
    /// The most a page may grow to: a template's own section nested in itself (90 `{{#days}}`
    /// deep) rendered for minutes into gigabytes. The largest page of a heavy user's 10-year
    /// site is about 6 MB.
    static let maxPageBytes = 64 << 20
    /// The most items a page's sections may go through, all lists together: ten `{{#days}}`
    /// nested in each other go through 7^10 and write a byte each, which no size limit stops in
    /// time. The busiest built-in page of a 100-year site goes through a few thousand.
    static let maxSectionPasses = 1_000_000

    private let programs: [TemplateProgram]
    private let place: [String: Int]
    /// Per operation of the `tracked` templates (each from its program's `reachBase`), whether a
    /// render has reached it: 1 once one has. Empty when nothing is tracked.
    private let reach: Reach

    final class Reach: Sendable {
        let count: Int
        let marks: Mutex<[UInt8]>
        init(count: Int) {
            self.count = count
            marks = Mutex([UInt8](repeating: 0, count: count))
        }
    }

    /// `tracked`: the templates whose reached operations are recorded (the workspace's own).
    init(templates: [String: CompiledTemplate], tracked: Set<String> = []) {
        let names = templates.keys.sorted()
        var place: [String: Int] = [:]
        for (i, name) in names.enumerated() { place[name] = i }
        self.place = place
        var base = 0
        programs = names.compactMap { name in
            templates[name].map { t in
                guard tracked.contains(name) else { return TemplateProgram(t, place: { place[$0] }) }
                let program = TemplateProgram(t, place: { place[$0] }, reachBase: base)
                base += program.ops.count
                return program
            }
        }
        reach = Reach(count: base)
    }

    func render(_ name: String, _ context: TemplateValue) throws -> Data {
        guard let i = place[name] else { throw TemplateError.missingTemplate(name: name) }
        var out = ByteText(capacity: 16 * 1024)
        var stack = ContextStack(reachable: reach.count)
        defer {
            if let reached = stack.reached {
                reach.marks.withLock { marks in
                    marks.withUnsafeMutableBufferPointer { m in
                        for k in 0..<m.count { m[k] |= reached[k] }
                    }
                }
            }
            stack.free()
        }
        try withUnsafePointer(to: context) { root in
            stack.push(root)
            try run(programs[i], 0, programs[i].ops.count, &stack, depth: 0, indentation: nil, into: &out)
        }
        return out.data()
    }

    /// The tags (variables, raw output, sections) of the tracked templates that no render so far
    /// has reached, by template origin, in order: their names were never looked up, so a typo in
    /// them has not been found yet.
    func unreached() -> [(origin: String, line: Int, name: String, raw: Bool)] {
        let marks = reach.marks.withLock { $0 }
        var out: [(String, Int, String, Bool)] = []
        for p in programs where p.reachBase >= 0 {
            for (k, op) in p.ops.enumerated() where marks[p.reachBase + k] == 0 {
                switch op.kind {
                case .variable, .section: out.append((p.origin, op.line, p.nameText[op.name], false))
                case .raw: out.append((p.origin, op.line, p.nameText[op.name], true))
                case .text, .partial: break
                }
            }
        }
        return out
    }

    /// The values sections have entered, innermost last (see `TemplateRenderer` for why the
    /// pointers stay valid).
    private struct ContextStack {
        private(set) var base: UnsafeMutablePointer<UnsafePointer<TemplateValue>>
        private(set) var count = 0
        private var capacity = 32
        /// The list items the page's sections have gone through so far.
        var passes = 0
        /// This render's record of the tracked operations it reached (nil when none are tracked).
        let reached: UnsafeMutablePointer<UInt8>?

        init(reachable: Int) {
            base = .allocate(capacity: capacity)
            if reachable > 0 {
                let r = UnsafeMutablePointer<UInt8>.allocate(capacity: reachable)
                r.initialize(repeating: 0, count: reachable)
                reached = r
            } else {
                reached = nil
            }
        }

        mutating func push(_ value: UnsafePointer<TemplateValue>) {
            if count == capacity {
                let larger = UnsafeMutablePointer<UnsafePointer<TemplateValue>>.allocate(capacity: capacity * 2)
                larger.initialize(from: base, count: count)
                base.deallocate()
                base = larger
                capacity *= 2
            }
            (base + count).initialize(to: value)
            count += 1
        }

        mutating func pop() { count -= 1 }

        func free() {
            base.deallocate()
            reached?.deallocate()
        }
    }

    /// Operations `start..<end` of a program.
    private func run(_ p: TemplateProgram, _ start: Int, _ end: Int, _ stack: inout ContextStack, depth: Int,
                     indentation: [UInt8]?, into out: inout ByteText) throws {
        guard let indentation, !indentation.isEmpty else {
            var i = start
            while i < end { i = try step(p, i, &stack, depth: depth, indentation: nil, into: &out) }
            return
        }
        // Inside an indented standalone partial: every operation's output that starts a line is indented.
        let begin = out.length
        var i = start
        while i < end {
            let before = out.length
            let n = before - begin
            let atLineStart = n > 0 && out[before - 1] == 0x0a && !(n > 1 && out[before - 2] == 0x0d)
            i = try step(p, i, &stack, depth: depth, indentation: indentation, into: &out)
            if atLineStart && out.length > before { out.insert(indentation, at: before) }
        }
    }

    /// Renders operation `i` (a section with its body) and returns the operation after it.
    private func step(_ p: TemplateProgram, _ i: Int, _ stack: inout ContextStack, depth: Int, indentation: [UInt8]?,
                      into out: inout ByteText) throws -> Int {
        let op = p.ops[i]
        if p.reachBase >= 0, let reached = stack.reached { reached[p.reachBase + i] = 1 }
        switch op.kind {
        case .text:
            out.append(UnsafeBufferPointer(rebasing: p.bytes[op.a..<op.a + op.b]))
            return i + 1
        case .variable:
            try withValue(p, op, stack.base, stack.count) { value in
                switch value.pointee {
                case .text(let s): out.appendHTMLEscaped(s)
                case .null: break
                case .html: throw wrongKind(p, op, value) { "print it raw with {{{\($0)}}}." }
                default: throw wrongKind(p, op, value) { "only text can be printed; use a section {{#\($0)}}...{{/\($0)}}." }
                }
            }
            return i + 1
        case .raw:
            try withValue(p, op, stack.base, stack.count) { value in
                switch value.pointee {
                case .html(let h): out.append(string: h.html)
                case .null: break
                case .text: throw wrongKind(p, op, value) { "raw output is only for rendered Markdown and SVG; use {{\($0)}}." }
                default: throw wrongKind(p, op, value) { _ in "only Markdown or SVG can be printed raw." }
                }
            }
            return i + 1
        case .section:
            let (bodyStart, bodyEnd) = (i + 1, op.b)
            try withValue(p, op, stack.base, stack.count) { value in
                func body(pushing pushed: UnsafePointer<TemplateValue>?) throws {
                    if let pushed { stack.push(pushed) }
                    defer { if pushed != nil { stack.pop() } }
                    try run(p, bodyStart, bodyEnd, &stack, depth: depth, indentation: indentation, into: &out)
                }
                if op.inverted {
                    switch value.pointee {
                    case .list(let items) where items.isEmpty: try body(pushing: value)
                    case .bool(false), .null: try body(pushing: nil)
                    case .text(let s) where s.isEmpty: try body(pushing: nil)
                    case .html(let h) where h.html.isEmpty: try body(pushing: nil)
                    default: break
                    }
                } else {
                    switch value.pointee {
                    case .list(let items):
                        try items.withUnsafeBufferPointer { buf in
                            guard let first = buf.baseAddress else { return }
                            for k in 0..<buf.count {
                                try body(pushing: first + k)
                                stack.passes += 1
                                if out.length > TemplateRenderer.maxPageBytes || stack.passes > TemplateRenderer.maxSectionPasses {
                                    throw TemplateError.pageTooLarge(template: p.origin, line: op.line, section: p.nameText[op.name])
                                }
                            }
                        }
                    case .bool(let b):
                        if b { try body(pushing: nil) }
                    case .null:
                        break
                    case .text(let s):
                        if !s.isEmpty { try body(pushing: value) }
                    case .html(let h):
                        if !h.html.isEmpty { try body(pushing: value) }
                    case .object:
                        try body(pushing: value)
                    }
                }
            }
            return bodyEnd
        case .partial:
            guard op.a >= 0 else {
                throw TemplateError.missingPartial(template: p.origin, line: op.line, partial: p.nameText[op.name])
            }
            let partial = programs[op.a]
            guard depth < TemplateSet.maxPartialDepth else {
                throw TemplateError.partialTooDeep(template: p.origin, line: op.line, partial: p.nameText[op.name])
            }
            let inner = op.b < 0 ? indentation : (indentation ?? []) + Array(p.bytes[op.b..<op.b + op.c])
            try run(partial, 0, partial.ops.count, &stack, depth: depth + 1, indentation: inner, into: &out)
            return i + 1
        }
    }

    /// Mustache name resolution, handing `body` the value found: "." is the current item; the
    /// first segment is looked up from the innermost context outwards, later segments only in the
    /// value found.
    private func withValue(_ p: TemplateProgram, _ op: TemplateProgram.Op, _ stack: UnsafeMutablePointer<UnsafePointer<TemplateValue>>,
                           _ count: Int, _ body: (UnsafePointer<TemplateValue>) throws -> Void) throws {
        let name = p.names[op.name]
        guard name.count > 0 else {
            guard count > 0 else { throw missingKey(p, op) }
            return try body(stack[count - 1])
        }
        let first = name.first
        var i = count - 1
        while i >= 0 {
            if try field(p.segments[first], of: stack[i], p, { try rest($0, p, op, first + 1, first + name.count, body) }) { return }
            i -= 1
        }
        throw missingKey(p, op)
    }

    /// Segments `k..<end` of a name, read in `value`.
    private func rest(_ value: UnsafePointer<TemplateValue>, _ p: TemplateProgram, _ op: TemplateProgram.Op, _ k: Int, _ end: Int,
                      _ body: (UnsafePointer<TemplateValue>) throws -> Void) throws {
        guard k < end else { return try body(value) }
        guard try field(p.segments[k], of: value, p, { try rest($0, p, op, k + 1, end, body) }) else { throw missingKey(p, op) }
    }

    /// Hands `body` the first field of the object `value` points to named `segment`; false when
    /// it is not an object or has no such field.
    @inline(__always)
    private func field(_ segment: TemplateProgram.Segment, of value: UnsafePointer<TemplateValue>, _ p: TemplateProgram,
                       _ body: (UnsafePointer<TemplateValue>) throws -> Void) throws -> Bool {
        guard case .object(let o) = value.pointee else { return false }
        return try o.fields.withUnsafeBufferPointer { buf -> Bool in
            guard let base = buf.baseAddress else { return false }
            let raw = UnsafeRawPointer(base)
            for k in 0..<buf.count {
                let e = raw + k * TemplateRenderer.fieldStride
                let words = (e.load(as: UInt64.self), e.load(fromByteOffset: 8, as: UInt64.self))
                if FieldName.same(words, segment.words) ?? (e.assumingMemoryBound(to: String.self).pointee == p.segmentText[segment.key]) {
                    try body((e + TemplateRenderer.valueOffset).assumingMemoryBound(to: TemplateValue.self))
                    return true
                }
            }
            return false
        }
    }

    /// The distance between fields, and where a field's value is in it: a pair is laid out as a
    /// struct is, the value after the name at the value's alignment (a test holds this to
    /// `MemoryLayout.offset(of:)`, which is not a constant the compiler can fold).
    @inline(__always) static var fieldStride: Int { MemoryLayout<TemplateObject.Field>.stride }
    @inline(__always) static var valueOffset: Int {
        let align = MemoryLayout<TemplateValue>.alignment
        return (MemoryLayout<String>.size + align - 1) / align * align
    }

    private func missingKey(_ p: TemplateProgram, _ op: TemplateProgram.Op) -> TemplateError {
        .missingKey(template: p.origin, line: op.line, key: p.nameText[op.name])
    }

    /// A value of the wrong kind for its tag; `hint` is given the tag's name.
    private func wrongKind(_ p: TemplateProgram, _ op: TemplateProgram.Op, _ value: UnsafePointer<TemplateValue>,
                           hint: (String) -> String) -> TemplateError {
        let name = p.nameText[op.name]
        return .wrongKind(template: p.origin, line: op.line, key: name, found: value.pointee.kindDescription, hint: hint(name))
    }
}
