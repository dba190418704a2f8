import Foundation
import XCTest

/// The copy audit's second round: what the commands print, as a user reads it.
final class CopyAuditTests: XCTestCase {
    /// `calibrate` wrote "5 %" in its help and "5%" in its output; the tool writes "5%".
    func test_calibrate_helpAndOutputWriteTheTargetAlike() throws {
        let cli = try CLI()
        let help = try cli.run(["help", "calibrate"])
        XCTAssertEqual(help.status, 0, help.err)
        let flat = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(flat.contains("an alert rate of at most 5%."), help.out)
        XCTAssertFalse(flat.contains("5 %"), help.out)
        let run = try cli.run(["calibrate", "--runs", "3"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("the 5% target."), run.out)
    }
}
