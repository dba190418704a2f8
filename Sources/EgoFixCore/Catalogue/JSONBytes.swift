import Foundation

/// JSON read straight from UTF-8 bytes into `JSONValue`, and `JSONValue` written back canonically.
///
/// Why not only JSONDecoder: `JSONValue` is untyped, and through Codable each value is found by
/// trying the kinds in turn, one thrown error per wrong guess. For the shipped catalogue that was
/// about 2,400 errors and three quarters of the time `egofix build --demo` spent reading its seeds.
/// This reader walks the bytes once. It returns nil for anything it does not accept (invalid JSON,
/// nesting deeper than 256, a number Double cannot hold); callers then fall back to JSONDecoder,
/// so what is accepted and every error message stay JSONDecoder's.
public enum JSONBytes {
    public static let maxDepth = 256

    /// The value in `data` (UTF-8, optional byte-order mark), or nil when it is not valid JSON.
    public static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { raw -> JSONValue? in
            var r = Reader(bytes: raw.bindMemory(to: UInt8.self))
            if r.bytes.count >= 3, r.bytes[0] == 0xEF, r.bytes[1] == 0xBB, r.bytes[2] == 0xBF { r.i = 3 }
            guard let v = r.value(depth: 0) else { return nil }
            r.skipSpace()
            return r.i == r.bytes.count ? v : nil
        }
    }

    /// The value as JSONEncoder writes it with `.sortedKeys` and `.withoutEscapingSlashes`: no
    /// spaces, object keys in order, whole numbers as integers, non-ASCII text as UTF-8.
    public static func canonical(_ value: JSONValue) -> Data {
        var out: [UInt8] = []
        write(value, into: &out)
        return Data(out)
    }

    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { out.append(contentsOf: String(Int64(n)).utf8) } else { out.append(contentsOf: "\(n)".utf8) }
        case .string(let s): writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (k, v) in a.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                write(v, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (k, key) in o.keys.sorted().enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if let v = o[key] { write(v, into: &out) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A string in quotes: runs of plain bytes are copied whole; quote, backslash and control
    /// characters are escaped as JSONEncoder escapes them.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var plain = 0
            for i in bytes.indices {
                let b = bytes[i]
                guard b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain..<i]))
                plain = i + 1
                out.append(UInt8(ascii: "\\"))
                switch b {
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0..<0x20:
                    let hex: StaticString = "0123456789abcdef"
                    out.append(contentsOf: "u00".utf8)
                    out.append(hex.utf8Start[Int(b >> 4)])
                    out.append(hex.utf8Start[Int(b & 0xf)])
                default: out.append(b)  // quote or backslash
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plain...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count {
                let b = bytes[i]
                guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
                i += 1
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            let w = word.utf8Start
            for k in 0..<n where bytes[i + k] != w[k] { return false }
            i += n
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            skipSpace()
            guard i < bytes.count, depth < JSONBytes.maxDepth else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "{"):
                i += 1
                var o = [String: JSONValue](minimumCapacity: 12)
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(o) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let key = string() else { return nil }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                    i += 1
                    guard let v = value(depth: depth + 1) else { return nil }
                    if o[key] == nil { o[key] = v }  // the first of a repeated key, as JSONDecoder reads it
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(o) }
                    return nil
                }
            case UInt8(ascii: "["):
                i += 1
                var a: [JSONValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(a) }
                while true {
                    guard let v = value(depth: depth + 1) else { return nil }
                    a.append(v)
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(a) }
                    return nil
                }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map { .number($0) }
            }
        }

        /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, as Double; nil when out of range.
        mutating func number() -> Double? {
            let start = i
            func digits() -> Int {
                let s = i
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                return i - s
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { return nil }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return nil }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { return nil }
            return d
        }

        /// A string starting at the opening quote; escapes decoded, surrogate pairs joined.
        mutating func string() -> String? {
            i += 1
            let start = i
            // The common case: no escapes, so the bytes are the string (ASCII needs no validating).
            var ascii = true
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    let s = UnsafeBufferPointer(rebasing: bytes[start..<i])
                    i += 1
                    return ascii ? String(decoding: s, as: UTF8.self) : String(validating: s, as: UTF8.self)
                }
                if b == UInt8(ascii: "\\") { break }
                if b < 0x20 { return nil }
                if b >= 0x80 { ascii = false }
                i += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<i]))
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""): return String(validating: out, as: UTF8.self)
                case 0..<0x20: return nil
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var unit = hex4() else { return nil }
                        var scalar: Unicode.Scalar?
                        if (0xD800..<0xDC00).contains(unit) {
                            guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            scalar = Unicode.Scalar(unit)
                        } else {
                            scalar = Unicode.Scalar(unit)  // nil for a lone low surrogate
                        }
                        guard let scalar else { return nil }
                        out += Array(String(Character(scalar)).utf8)
                    default: return nil
                    }
                default: out.append(b)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard i + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt8
                switch b {
                case 0x30...0x39: d = b - 0x30
                case 0x41...0x46: d = b - 0x37
                case 0x61...0x66: d = b - 0x57
                default: return nil
                }
                v = v << 4 | UInt32(d)
                i += 1
            }
            return v
        }
    }
}
