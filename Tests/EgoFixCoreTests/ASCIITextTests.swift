import Foundation
import XCTest
@testable import EgoFixCore

/// The labels, keys and dates made without interpolation read exactly as the formatted ones did,
/// and order records exactly as sorting the records did.
final class ASCIITextTests: XCTestCase {
    func test_numbers_readAsPrintfWritesThem() {
        var values = [Int.min, Int.min + 1, Int.max, -10_000, -9_999, -1_000, -100, -10, -9, -1, 0, 1, 9, 10, 99, 100, 999, 1_000,
                      9_999, 10_000, 123_456_789]
        values += (0..<200).map { $0 * 37 - 3_000 }
        for n in values {
            for width in [0, 1, 2, 3, 4, 5, 8] {
                var t = ASCIIText()
                t.append(n, width: width)
                XCTAssertEqual(t.string, String(format: "%0*ld", width, n), "\(n) width \(width)")
            }
        }
    }

    func test_longText_keepsEveryPart() {
        var t = ASCIIText()
        var expected = ""
        for i in 0..<40 {
            t.append("part ")
            t.append(i * 1_000_003, width: 3)
            t.append(byte: 0x2c)
            t.append(";")  // a one-character literal (a StaticString held as a scalar, not bytes)
            t.append(text: String(repeating: "x", count: i % 7))
            expected += "part " + String(format: "%03d", i * 1_000_003) + ",;" + String(repeating: "x", count: i % 7)
            XCTAssertEqual(t.string, expected)
        }
        var n = ASCIIText()
        n.append(Int.min)
        n.append(" applied, ")
        n.append(Int.max)
        n.append(" skipped, ")
        n.append(Int.min)
        n.append(" failed")
        XCTAssertEqual(n.string, "\(Int.min) applied, \(Int.max) skipped, \(Int.min) failed")
    }

    func test_shortText_isTheSameStringAsOneDecoded() {
        var seen = Set<String>()
        for text in ["", "a", "2026-W47", "2026-11-22", "FIX #007", "123456789012345", "1234567890123456", "no", "ünï"] {
            var t = ASCIIText()
            t.append(text: text)
            let made = t.string
            let decoded = String(decoding: Array(text.utf8), as: UTF8.self)
            XCTAssertEqual(made, decoded)
            XCTAssertEqual(made.hashValue, decoded.hashValue, text)
            XCTAssertEqual(made.utf8.count, text.utf8.count)
            XCTAssertEqual(made + "!", text + "!")
            seen.insert(made)
            seen.insert(decoded)
        }
        XCTAssertEqual(seen.count, 9)
        XCTAssertTrue(String.smallASCIIWorks, "this standard library holds short ASCII strings in the form expected")
    }

    func test_dayText_readsAsTheFormattedDate() {
        for ordinal in stride(from: -800_000, through: 3_000_000, by: 997) + [0, -1, 11_323, 20_779] {
            let d = LocalDay(ordinal: ordinal)
            let c = d.components
            XCTAssertEqual(d.description, String(format: "%04d-%02d-%02d", c.year, c.month, c.day), "\(ordinal)")
            let w = d.isoWeek
            XCTAssertEqual(d.isoWeekLabel, "\(w.year)-W" + (w.week < 10 ? "0\(w.week)" : "\(w.week)"))
        }
    }

    func test_recordOrder_sortsAsTheRecordsWereSorted() {
        struct R { let at: Date, id: UUID, keep: Bool, n: Int }
        struct Seeded: RandomNumberGenerator {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            mutating func next() -> UInt64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state ^ (state >> 29)
            }
        }
        var rng = Seeded()
        let ids = (0..<6).map { i in UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", 5 - i, i * 7)) ?? UUID() }
        for round in 0..<50 {
            let count = round % 9 == 0 ? 0 : Int.random(in: 1...60, using: &rng)
            var records = (0..<count).map { i in
                R(at: Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...8, using: &rng))),
                  id: ids[Int.random(in: 0..<ids.count, using: &rng)], keep: round % 2 == 0 || i % 5 != 0, n: i)
            }
            if round % 3 == 0 {
                // Already in order, with nothing to drop: handed back as it is.
                records = records.filter(\.keep).sorted { $0.at != $1.at ? $0.at < $1.at : $0.id.sortsBefore($1.id) }
            }
            let expected = records.filter(\.keep).sorted { $0.at != $1.at ? $0.at < $1.at : $0.id.sortsBefore($1.id) }
            let got = RecordOrder.sorted(records, keep: { $0.keep }, at: { $0.at }, id: { $0.id })
            XCTAssertEqual(got.map(\.n), expected.map(\.n), "round \(round)")
        }
    }
}
