import EgoFixCore
import Foundation

/// Canonical JSON for --json output: sorted keys, ISO 8601 instants.
enum JSONOut {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom { date, enc in
            var c = enc.singleValueContainer()
            try c.encode(ISO8601.format(date))
        }
        e.dataEncodingStrategy = .custom { data, enc in
            var c = enc.singleValueContainer()
            if let v = try? JSONDecoder().decode(JSONValue.self, from: data) { try c.encode(v) } else { try c.encode(data.base64EncodedString()) }
        }
        return String(decoding: try e.encode(value), as: UTF8.self)
    }
}
