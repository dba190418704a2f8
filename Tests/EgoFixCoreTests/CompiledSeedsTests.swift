import XCTest
@testable import EgoFixCore
import EgoFixResources

/// The shipped catalogue compiled into the binary must be the catalogue its JSON decodes to, the
/// checked-in file must be what the generator makes of the seeds now, and seeds that differ in
/// a single byte must be read from their JSON.
final class CompiledSeedsTests: XCTestCase {
    func seeds() throws -> (bugs: Data, fixes: Data, education: Data) {
        (try XCTUnwrap(BuiltIn.file("Seeds/" + SeedCatalogue.bugsFile)), try XCTUnwrap(BuiltIn.file("Seeds/" + SeedCatalogue.fixesFile)),
         try XCTUnwrap(BuiltIn.file("Seeds/" + SeedCatalogue.educationFile)))
    }

    func test_compiledSeeds_areTheCatalogueTheJSONDecodesTo() throws {
        let s = try seeds()
        let loadedAt = Date(timeIntervalSince1970: 1_790_000_000)
        XCTAssertEqual(SeedCatalogue.digest(bugs: s.bugs, fixes: s.fixes, education: s.education), CompiledSeeds.digest,
                       "Seeds/ changed since CompiledSeeds.swift was generated: run `make seeds`")
        let decoded = try SeedCatalogue.decode(bugs: s.bugs, fixes: s.fixes, education: s.education, loadedAt: loadedAt, compiled: false)
        let compiled = try SeedCatalogue.decode(bugs: s.bugs, fixes: s.fixes, education: s.education, loadedAt: loadedAt)
        XCTAssertEqual(compiled, CompiledSeeds.catalogue(loadedAt: loadedAt))
        XCTAssertEqual(compiled.fixes.count, decoded.fixes.count)
        XCTAssertTrue(compiled.fixes.contains { $0.retiredAt == loadedAt }, "retired fixes are compiled as retired")
        XCTAssertEqual(compiled.bugs, decoded.bugs)
        XCTAssertEqual(compiled.education, decoded.education)
        for (c, d) in zip(compiled.fixes, decoded.fixes) { XCTAssertEqual(c, d, "fix \(d.number)") }
        XCTAssertEqual(compiled, decoded)
    }

    func test_compiledSeeds_fileIsWhatTheGeneratorMakesOfTheSeeds() throws {
        let s = try seeds()
        let decoded = try SeedCatalogue.decode(bugs: s.bugs, fixes: s.fixes, education: s.education, compiled: false)
        let expected = decoded.swiftSource(digest: SeedCatalogue.digest(bugs: s.bugs, fixes: s.fixes, education: s.education))
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/EgoFixCore/Catalogue/CompiledSeeds.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text == expected, "Sources/EgoFixCore/Catalogue/CompiledSeeds.swift is out of date: run `make seeds`")
    }

    func test_compiledSeeds_editedSeedsAreReadFromTheirJSON() throws {
        let s = try seeds()
        let text = String(decoding: s.fixes, as: UTF8.self)
        let edited = Data(text.replacingOccurrences(of: "Tally every sentence you start with", with: "Tally every sentence you begin with").utf8)
        XCTAssertNotEqual(edited, s.fixes)
        XCTAssertNotEqual(SeedCatalogue.digest(bugs: s.bugs, fixes: edited, education: s.education), CompiledSeeds.digest)
        let catalogue = try SeedCatalogue.decode(bugs: s.bugs, fixes: edited, education: s.education)
        XCTAssertEqual(catalogue.fixes.first { $0.number == 1 }?.prompt, "Tally every sentence you begin with \"actually\" today.")
        // One byte changed, in the middle of a file: a different digest.
        var flipped = s.education
        flipped[flipped.count / 2] ^= 0x01
        XCTAssertNotEqual(SeedCatalogue.digest(bugs: s.bugs, fixes: s.fixes, education: flipped), CompiledSeeds.digest)
        // The same bytes split differently between the files: a different digest.
        XCTAssertNotEqual(SeedCatalogue.digest(bugs: s.bugs + s.fixes.prefix(1), fixes: s.fixes.dropFirst(), education: s.education),
                          CompiledSeeds.digest)
    }

    /// `"retired": true` gives a fix a retiredAt (the catalogue's own timestamp): it still loads, for
    /// old records, and is never offered. Both readers and the generated Swift agree.
    func test_seeds_retiredFixLoadsButIsNeverOffered() throws {
        let bug = "F8396251-96A6-59D6-AAD8-740C3B361828"
        let bugs = Data(##"[{"id": "\##(bug)", "slug": "need-to-be-right", "title": "Need to be right", "description": "D.", "color": "#d19a66"}]"##.utf8)
        func fix(_ n: Int, _ extra: String) -> String {
            #"{"id": "00000000-0000-5000-8000-00000000000\#(n)", "number": \#(n), "bugId": "\#(bug)", "type": "daily", "severity": "low", "#
                + #""interactionType": "standard", "prompt": "Fix \#(n).", "inlineComment": null, "validation": null, "configuration": null\#(extra)}"#
        }
        let fixes = Data(("[" + [fix(1, ""), fix(2, #", "retired": true"#), fix(3, #", "retired": false"#)].joined(separator: ",") + "]").utf8)
        let loadedAt = Date(timeIntervalSince1970: 1_790_000_000)
        let c = try SeedCatalogue.decode(bugs: bugs, fixes: fixes, education: Data("[]".utf8), loadedAt: loadedAt, compiled: false)
        XCTAssertEqual(c.fixes.map(\.retiredAt), [nil, loadedAt, nil])
        XCTAssertEqual(c.fixes.map(\.isOffered), [true, false, true])
        let fast = try XCTUnwrap(SeedCatalogue.Fast.seeds(bugs: bugs, fixes: fixes, education: Data("[]".utf8)))
        XCTAssertEqual(fast.1, try JSONDecoder().decode([SeedCatalogue.FixSeed].self, from: fixes))
        XCTAssertEqual(fast.1.map(\.retired), [nil, true, false])
        let swift = c.swiftSource(digest: 1)
        XCTAssertEqual(swift.components(separatedBy: "retiredAt: t").count - 1, 1, swift)
        // A "retired" that is not a boolean is not read by the fast reader (JSONDecoder then names the problem).
        let bad = Data(("[" + fix(4, #", "retired": "yes""#) + "]").utf8)
        XCTAssertNil(SeedCatalogue.Fast.seeds(bugs: bugs, fixes: bad, education: Data("[]".utf8)))
        XCTAssertThrowsError(try SeedCatalogue.decode(bugs: bugs, fixes: bad, education: Data("[]".utf8)))
    }

    func test_compiledSeeds_literalsKeepAwkwardText() {
        XCTAssertEqual(SeedCatalogue.literal("a \"b\" \\ c\nd\te\r\u{1}\u{2028}é✓"), #""a \"b\" \\ c\nd\te\r\u{1}\u{2028}é✓""#)
    }
}
