import XCTest
@testable import EgoFixCore
import EgoFixResources

/// The byte-level JSON reader must agree with JSONDecoder wherever it answers, and the shipped
/// seeds must come out exactly as they did through Codable (ids, text, configuration bytes).
final class JSONBytesTests: XCTestCase {
    let files = [SeedCatalogue.bugsFile, SeedCatalogue.fixesFile, SeedCatalogue.educationFile]

    func builtIn(_ name: String) throws -> Data { try XCTUnwrap(BuiltIn.file("Seeds/" + name)) }

    func test_jsonBytes_shippedSeedsReadAsJSONDecoderReadsThem() throws {
        for name in files {
            let data = try builtIn(name)
            let fast = try XCTUnwrap(JSONBytes.parse(data), name)
            XCTAssertEqual(fast, try JSONDecoder().decode(JSONValue.self, from: data), name)
        }
    }

    func test_jsonBytes_canonicalBytesMatchJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard case .array(let fixes)? = JSONBytes.parse(try builtIn(SeedCatalogue.fixesFile)) else { return XCTFail("fixes.json") }
        var configurations = 0
        for case .object(let fix) in fixes {
            guard let c = fix["configuration"], c != .null else { continue }
            configurations += 1
            XCTAssertEqual(String(decoding: JSONBytes.canonical(c), as: UTF8.self), String(decoding: try encoder.encode(c), as: UTF8.self))
        }
        XCTAssertGreaterThan(configurations, 100)
        let awkward: JSONValue = .object(["b": .array([.number(1), .number(0.25), .number(-3), .bool(true), .null]),
                                          "a": .string("tab\there \"quoted\" back\\slash /slash \u{1} line\nnaïve ✓"),
                                          "aa": .object([:]), "B": .array([]), "c": .string("\r\u{8}\u{c}\u{1f}\u{7f}\""),
                                          "k\"\\": .string(""), "d": .string("\\")])
        XCTAssertEqual(String(decoding: JSONBytes.canonical(awkward), as: UTF8.self),
                       String(decoding: try encoder.encode(awkward), as: UTF8.self))
    }

    func test_jsonBytes_catalogueDecodesAsThroughCodable() throws {
        let b = try builtIn(SeedCatalogue.bugsFile), f = try builtIn(SeedCatalogue.fixesFile), e = try builtIn(SeedCatalogue.educationFile)
        let fast = try XCTUnwrap(SeedCatalogue.Fast.seeds(bugs: b, fixes: f, education: e))
        let d = JSONDecoder()
        XCTAssertEqual(fast.0, try d.decode([SeedCatalogue.BugSeed].self, from: b))
        XCTAssertEqual(fast.1, try d.decode([SeedCatalogue.FixSeed].self, from: f))
        XCTAssertEqual(fast.2, try d.decode([SeedCatalogue.EducationSeed].self, from: e))
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: f) as? [[String: Any]])
        XCTAssertEqual(fast.1.count, entries.count)
        // "retired": true comes through both readers.
        XCTAssertEqual(fast.1.filter { $0.retired == true }.count, entries.filter { $0["retired"] as? Bool == true }.count)
        XCTAssertTrue(fast.1.contains { $0.retired == true })
    }

    func test_jsonBytes_escapesAndNumbers() throws {
        let text = #"{"s": "a\"b\\c\/d\u00e9\ud83d\ude00\n", "n": [0, -1.5, 2e3, 1E-2], "t": true, "f": false, "z": null}"#
        let v = try XCTUnwrap(JSONBytes.parse(Data(text.utf8)))
        XCTAssertEqual(v, try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
        XCTAssertEqual(v, .object(["s": .string("a\"b\\c/dé😀\n"), "n": .array([.number(0), .number(-1.5), .number(2000), .number(0.01)]),
                                   "t": .bool(true), "f": .bool(false), "z": .null]))
    }

    /// A key given twice: the first one counts, as JSONDecoder reads it.
    func test_jsonBytes_repeatedKeyReadsAsJSONDecoderReadsIt() throws {
        let data = Data(#"{"a": 1, "b": {"c": "x", "c": "y"}, "a": 2}"#.utf8)
        let fast = try XCTUnwrap(JSONBytes.parse(data))
        XCTAssertEqual(fast, try JSONDecoder().decode(JSONValue.self, from: data))
        XCTAssertEqual(fast, .object(["a": .number(1), "b": .object(["c": .string("x")])]))
    }

    func test_jsonBytes_rejectsWhatIsNotJSON() {
        let bad = ["", "[", "[1,]", "{\"a\":1,}", "{a:1}", "01", "1.", ".5", "-", "1e", "\"tab\there\"", "\"\\x\"",
                   "\"\\ud83d\"", "\"\\ude00\"", "[1] [2]", "tru", "nul", "{\"a\" 1}", "'a'", "NaN", "1e999",
                   String(repeating: "[", count: 300) + String(repeating: "]", count: 300)]
        for text in bad {
            XCTAssertNil(JSONBytes.parse(Data(text.utf8)), text)
        }
        XCTAssertNil(JSONBytes.parse(Data([0x22, 0xFF, 0x22])), "invalid UTF-8")
        XCTAssertEqual(JSONBytes.parse(Data(" \n[ ]\t".utf8)), .array([]))
    }

    func test_jsonBytes_malformedSeedsStillGetJSONDecodersMessage() {
        let fixes = Data(#"[{"id": "not-a-uuid", "number": 1}]"#.utf8)
        XCTAssertNil(SeedCatalogue.Fast.seeds(bugs: Data("[]".utf8), fixes: fixes, education: Data("[]".utf8)))
        XCTAssertThrowsError(try SeedCatalogue.decode(bugs: Data("[]".utf8), fixes: fixes, education: Data("[]".utf8))) { error in
            XCTAssertTrue("\(error)".contains(SeedCatalogue.fixesFile), "\(error)")
        }
    }
}
