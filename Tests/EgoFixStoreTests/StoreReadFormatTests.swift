import XCTest
import EgoFixCore
@testable import EgoFixStore

/// The store reads its own formats without the general parsers; these check the short cuts give
/// the general parsers' answers, and step aside for anything else.
final class StoreReadFormatTests: XCTestCase {
    func test_uuidText_readsAsFoundationReadsIt() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<2000 {
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in 0..<16 { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
            let u = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            XCTAssertEqual(UUIDText.parse(u.uuidString), u)
            XCTAssertEqual(UUIDText.parse(u.uuidString.lowercased()), u)
        }
        for odd in ["", "not a uuid", "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
                    "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "E621E1F8_C36C-495A-93FC-0C247A3E6E5F", " E621E1F8-C36C-495A-93FC-0C247A3E6E5"] {
            XCTAssertNil(UUIDText.parse(odd), odd)
        }
    }

    func test_diagnosticResponses_readAsJSONDecoderReadsThem() throws {
        let a = try XCTUnwrap(UUID(uuidString: "F8396251-96A6-59D6-AAD8-740C3B361828"))
        let b = try XCTUnwrap(UUID(uuidString: "0C6E2B62-F937-5AAE-A0E2-0F19C172BA87"))
        let written: [[BugDiagnosticResponse]] = [
            [], [BugDiagnosticResponse(bugId: a, intensity: .quiet)],
            [BugDiagnosticResponse(bugId: a, intensity: .loud, primaryContext: .work), BugDiagnosticResponse(bugId: b, intensity: .present)],
            [BugDiagnosticResponse(bugId: b, intensity: .present, primaryContext: .online)],
        ]
        for responses in written {
            // What the store writes for the column.
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let text = String(decoding: try e.encode(responses), as: UTF8.self)
            XCTAssertEqual(WeeklyDiagnostic.responses(text), responses, text)
            XCTAssertEqual(WeeklyDiagnostic.responses(text), try JSONDecoder().decode([BugDiagnosticResponse].self, from: Data(text.utf8)))
        }
        // Anything else is left to JSONDecoder: spaces, escapes, nulls, unknown keys, and a quiet
        // rating that carries a context (the model's initializer would drop it; the decoder keeps it).
        for other in ["[ ]", #"[{"bugId":"F8396251-96A6-59D6-AAD8-740C3B361828","intensity":"qu\u0069et"}]"#,
                      #"[{"bugId":"F8396251-96A6-59D6-AAD8-740C3B361828","intensity":"loud","primaryContext":null}]"#,
                      #"[{"bugId":"F8396251-96A6-59D6-AAD8-740C3B361828","intensity":"loud","extra":1}]"#,
                      #"[{"bugId":"F8396251-96A6-59D6-AAD8-740C3B361828","intensity":"quiet","primaryContext":"work"}]"#,
                      #"[{"bugId":"F8396251-96A6-59D6-AAD8-740C3B361828","intensity":"quiet"}] "#] {
            XCTAssertNil(WeeklyDiagnostic.responses(other), other)
        }
    }
}
