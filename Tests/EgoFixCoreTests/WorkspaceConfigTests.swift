import XCTest
@testable import EgoFixCore

final class WorkspaceConfigTests: XCTestCase {
    func test_config_readsEveryKey() throws {
        let c = try WorkspaceConfig.parse("""
        # my site
        title = "Release notes for a person"   # inline comment
        base_url = "https://example.org/ego"
        time_zone = "Pacific/Apia"
        week_start = "Monday"
        output = 'public'
        content = "notes"
        store = "~/egofix.sqlite"
        """)
        XCTAssertEqual(c, WorkspaceConfig(title: "Release notes for a person", baseURL: "https://example.org/ego/", timeZone: "Pacific/Apia",
                                          weekStart: "monday", output: "public", content: "notes", store: "~/egofix.sqlite"))
    }

    func test_config_errorsNameFileAndLine() {
        func message(_ text: String) -> String {
            do { _ = try WorkspaceConfig.parse(text); return "" } catch { return "\(error)" }
        }
        XCTAssertEqual(message("title = \"x\"\ncolour = \"red\""), "egofix.toml:2: unknown key 'colour'; known keys: title, base_url, time_zone, week_start, output, content, store")
        XCTAssertEqual(message("time_zone = \"Mars/Olympus\""), "egofix.toml:1: unknown time zone 'Mars/Olympus'; use an IANA name such as Europe/Berlin")
        XCTAssertEqual(message("title = unquoted"), "egofix.toml:1: 'title' must be a quoted string")
        XCTAssertEqual(message("[site]"), "egofix.toml:1: tables are not used in egofix.toml; put every key at the top level")
        XCTAssertEqual(message("base_url = \"example.org\""), "egofix.toml:1: base_url must start with https:// or http://")
        XCTAssertEqual(message("title = \"a\"\ntitle = \"b\""), "egofix.toml:2: 'title' is set twice")
        // A setting the site would read and ignore is refused instead.
        XCTAssertEqual(message("week_start = \"Sunday\""), "egofix.toml:1: week_start = \"sunday\" is not supported: weeks are ISO weeks, Monday to Sunday, in every report, streak freeze and diagnostic. Leave week_start out or set it to \"monday\"")
        XCTAssertEqual(message("week_start = \"tuesday\""), "egofix.toml:1: week_start must be \"monday\"")
    }

    /// A caller that knows the text passed before (a rebuild with the same egofix.toml) can read it
    /// without asking ICU about the time zone; everything else is still checked.
    func test_config_timeZoneCheckCanBeLeftForLater() throws {
        XCTAssertEqual(try WorkspaceConfig.parse("time_zone = \"Mars/Olympus\"", checkingTimeZone: false).timeZone, "Mars/Olympus")
        XCTAssertThrowsError(try WorkspaceConfig.parse("time_zone = \"Mars/Olympus\""))
        XCTAssertThrowsError(try WorkspaceConfig.parse("colour = \"red\"", checkingTimeZone: false))
    }

    func test_config_readsCRLFLinesAndTabs() throws {
        let c = try WorkspaceConfig.parse("title = \"Notes\"\r\n\toutput\t=\t\"public\" \t\r\n\r\n")
        XCTAssertEqual(c, WorkspaceConfig(title: "Notes", output: "public"))
        XCTAssertEqual(try WorkspaceConfig.parse("title = \"  spaced  \"").title, "  spaced  ")
    }

    func test_config_hashInsideStringIsNotAComment() throws {
        XCTAssertEqual(try WorkspaceConfig.parse("title = \"Bug #1 # of many\"").title, "Bug #1 # of many")
    }
}
