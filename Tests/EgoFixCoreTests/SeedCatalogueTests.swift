import XCTest
@testable import EgoFixCore
import EgoFixResources

/// The seeds are read one way, with JSONDecoder: every shipped entry comes through, a retired fix
/// loads but is never offered, configurations are kept in one canonical form, and a file that does
/// not decode gives one line naming the file, the entry and the field.
final class SeedCatalogueTests: XCTestCase {
    let bug = "F8396251-96A6-59D6-AAD8-740C3B361828"
    var bugs: Data {
        Data(##"[{"id": "\##(bug)", "slug": "need-to-be-right", "title": "Need to be right", "description": "D.", "color": "#d19a66"}]"##.utf8)
    }

    func fix(_ n: Int, _ extra: String = "", configuration: String = "null", interaction: String = "standard") -> String {
        #"{"id": "00000000-0000-5000-8000-00000000000\#(n)", "number": \#(n), "bugId": "\#(bug)", "type": "daily", "severity": "low", "#
            + #""interactionType": "\#(interaction)", "prompt": "Fix \#(n).", "inlineComment": null, "validation": null, "configuration": \#(configuration)\#(extra)}"#
    }

    func fixes(_ entries: String...) -> Data { Data(("[" + entries.joined(separator: ",") + "]").utf8) }

    func test_seeds_shippedCatalogueDecodesEveryEntry() throws {
        let b = try XCTUnwrap(BuiltIn.file("Seeds/" + SeedCatalogue.bugsFile))
        let f = try XCTUnwrap(BuiltIn.file("Seeds/" + SeedCatalogue.fixesFile))
        let e = try XCTUnwrap(BuiltIn.file("Seeds/" + SeedCatalogue.educationFile))
        let c = try SeedCatalogue.decode(bugs: b, fixes: f, education: e)
        func count(_ d: Data) throws -> Int { try XCTUnwrap(JSONSerialization.jsonObject(with: d) as? [Any]).count }
        XCTAssertEqual(c.bugs.count, try count(b))
        XCTAssertEqual(c.fixes.count, try count(f))
        XCTAssertEqual(c.education.count, try count(e))
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: f) as? [[String: Any]])
        XCTAssertEqual(c.fixes.filter { $0.retiredAt != nil }.count, entries.filter { $0["retired"] as? Bool == true }.count)
        XCTAssertEqual(c.fixes.filter { $0.configurationData != nil }.count, entries.filter { $0["configuration"] is [String: Any] }.count)
    }

    /// `"retired": true` gives a fix a retiredAt (the catalogue's own timestamp): it still loads, for
    /// old records, and is never offered.
    func test_seeds_retiredFixLoadsButIsNeverOffered() throws {
        let loadedAt = Date(timeIntervalSince1970: 1_790_000_000)
        let c = try SeedCatalogue.decode(bugs: bugs, fixes: fixes(fix(1), fix(2, #", "retired": true"#), fix(3, #", "retired": false"#)),
                                         education: Data("[]".utf8), loadedAt: loadedAt)
        XCTAssertEqual(c.fixes.map(\.retiredAt), [nil, loadedAt, nil])
        XCTAssertEqual(c.fixes.map(\.isOffered), [true, false, true])
        XCTAssertThrowsError(try SeedCatalogue.decode(bugs: bugs, fixes: fixes(fix(4, #", "retired": "yes""#)), education: Data("[]".utf8))) {
            XCTAssertEqual("\($0)".components(separatedBy: ": ").prefix(3), ["fixes.json", "entry 1", "retired"], "\($0)")
        }
    }

    /// However a configuration is written in the seeds, it is stored as JSONEncoder writes it with
    /// sorted keys and unescaped slashes, so reformatting a seed file changes nothing in the store.
    func test_seeds_configurationIsStoredCanonically() throws {
        let written = #"{ "unit" : "times",  "targetDescription": "a/b \"naïve\" ✓\u0001", "n": [1, 0.25, -3, 2e3, true, null] }"#
        let c = try SeedCatalogue.decode(bugs: bugs, fixes: fixes(fix(1, configuration: written, interaction: "counter")),
                                         education: Data("[]".utf8))
        let stored = try XCTUnwrap(c.fixes.first?.configurationData)
        XCTAssertEqual(String(decoding: stored, as: UTF8.self),
                       #"{"n":[1,0.25,-3,2000,true,null],"targetDescription":"a/b \"naïve\" ✓\u0001","unit":"times"}"#)
    }

    /// A file that does not decode: one line, file: entry: field: what is wrong.
    func test_seeds_malformedFileNamesFileEntryAndField() {
        func message(_ bugs: Data, _ fixes: Data) -> String {
            do {
                _ = try SeedCatalogue.decode(bugs: bugs, fixes: fixes, education: Data("[]".utf8))
                return "decoded"
            } catch { return "\(error)" }
        }
        let badId = fix(2).replacingOccurrences(of: "00000000-0000-5000-8000-000000000002", with: "not-a-uuid")
        let bad = message(bugs, fixes(fix(1), badId))
        XCTAssertTrue(bad.hasPrefix("fixes.json: entry 2: id: "), bad)
        let noPrompt = fix(1).replacingOccurrences(of: #""prompt": "Fix 1.", "#, with: "")
        XCTAssertEqual(message(bugs, fixes(noPrompt)), "fixes.json: entry 1: prompt: is missing")
        let badType = fix(1).replacingOccurrences(of: #""type": "daily""#, with: #""type": "monthly""#)
        XCTAssertTrue(message(bugs, fixes(badType)).hasPrefix("fixes.json: entry 1: type: "), message(bugs, fixes(badType)))
        XCTAssertEqual(message(Data("[{".utf8), fixes(fix(1))), "bugs.json: not valid JSON")
        for m in [bad, message(Data("[{".utf8), Data())] { XCTAssertFalse(m.contains("\n"), m) }
    }
}
