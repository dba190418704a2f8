import EgoFixConfig
import EgoFixCore
import XCTest

/// `remind_at` in egofix.toml (issue 32).
final class RemindAtConfigTests: XCTestCase {
    func test_config_readsRemindAt() throws {
        XCTAssertEqual(try WorkspaceConfig.parse("remind_at = \"07:30\"").remindAt, ReminderTime("07:30"))
        XCTAssertNil(try WorkspaceConfig.parse("title = \"x\"").remindAt)
        XCTAssertThrowsError(try WorkspaceConfig.parse("title = \"x\"\nremind_at = \"7pm\"", file: "egofix.toml")) { e in
            XCTAssertEqual("\(e)", "egofix.toml:2: remind_at must be a time of day as HH:MM, such as \"09:00\".")
        }
    }
}
