import XCTest
@testable import EgoFixConfig

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
            do { return try WorkspaceConfig.parse(text).siteProblems.first.map { "\($0)" } ?? "" } catch { return "\(error)" }
        }
        XCTAssertEqual(message("title = \"x\"\ncolour = \"red\""), "egofix.toml:2: unknown key 'colour'; known keys: title, base_url, time_zone, week_start, output, content, store, remind_at.")
        XCTAssertEqual(message("time_zone = \"Mars/Olympus\""), "egofix.toml:1: unknown time zone 'Mars/Olympus'; use an IANA name such as Europe/Berlin.")
        XCTAssertTrue(message("title = unquoted").hasPrefix("egofix.toml:1: 'title' must be a quoted string"), message("title = unquoted"))
        XCTAssertEqual(message("title = 3"), "egofix.toml:1: 'title' must be a quoted string.")
        // Not closed: said so (it passed on the TOML reader's words about control characters).
        XCTAssertEqual(message("title = \"x\nstore = \"a.sqlite\""), "egofix.toml:1: 'title' is a string that is not closed: add the closing \" at the end of the line.")
        XCTAssertEqual(message("[site]"), "egofix.toml:1: tables are not used in egofix.toml; put every key at the top level.")
        XCTAssertEqual(message("base_url = \"example.org\""), "egofix.toml:1: base_url must start with https:// or http://.")
        // A path that a browser reads as another host: the 404 page's links, made from it, left the site.
        for url in ["https://example.org//evil.example/", "https://example.org/\\\\evil.example/", "https://example.org/me//x/"] {
            XCTAssertEqual(message("base_url = \"\(url.replacingOccurrences(of: "\\", with: "\\\\"))\""),
                           "egofix.toml:1: base_url has an empty path segment (//) or a backslash, which a browser reads as another host; write it as https://example.org/egofix/.", url)
        }
        XCTAssertEqual(message("title = \"x\"\nbase_url = \"https://example.org/me/\""), "")
        // A NUL given as an escape ended the value there without a word ("Ab\u0000x" was "Ab").
        XCTAssertEqual(message("title = \"Ab\\u0000<script>\""), "egofix.toml:1: 'title' holds \\u0000, a NUL, which would end it there; remove it.")
        XCTAssertEqual(message("# x\nstore = \"a\\U00000000b.sqlite\""), "egofix.toml:2: 'store' holds \\u0000, a NUL, which would end it there; remove it.")
        // Spelled out where TOML reads it as text, it is text: a comment, a literal string, an
        // escaped backslash (they were refused, "a value holds \u0000").
        XCTAssertEqual(message("# titles never hold \\u0000\ntitle = 'C:\\u0000'\nstore = \"a\\\\u0000.sqlite\""), "")
        XCTAssertEqual(try WorkspaceConfig.parse("# titles never hold \\u0000\ntitle = 'C:\\u0000'").title, "C:\\u0000")
        XCTAssertEqual(try WorkspaceConfig.parse("store = \"a\\\\u0000.sqlite\"").store, "a\\u0000.sqlite")
        XCTAssertEqual(message("title = \"Ab\"\u{0}\nstore = \"mine.sqlite\""), "egofix.toml:1: a NUL byte, which would end the file there; remove it.")
        XCTAssertEqual(message("title = \"a\"\ntitle = \"b\""), "egofix.toml:2: 'title' is set twice.")
        // A setting the site would read and ignore is refused instead.
        XCTAssertEqual(message("week_start = \"Sunday\""), "egofix.toml:1: week_start = \"sunday\" is not supported: report weeks are ISO weeks, Monday to Sunday, as the diagnostic's are (only the streak freeze's week starts on Sunday). Leave week_start out or set it to \"monday\".")
        XCTAssertEqual(message("week_start = \"tuesday\""), "egofix.toml:1: week_start must be \"monday\".")
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

    /// Issue 30, case 10: valid TOML is read as TOML reads it (a real parser, TOMLKit).
    func test_Hardening_configReadsEveryTOMLString() throws {
        XCTAssertEqual(try WorkspaceConfig.parse(#"title = "a \u0301 b""#).title, "a \u{301} b")
        XCTAssertEqual(try WorkspaceConfig.parse("title = \"say \\\"\u{301}hi\\\"\"").title, "say \"\u{301}hi\"")
        // A multi-line string whose line ending is escaped is one line of text.
        XCTAssertEqual(try WorkspaceConfig.parse("title = \"\"\"\nTwo \\\n    lines\"\"\"").title, "Two lines")
        XCTAssertEqual(try WorkspaceConfig.parse(#"title = '''C:\path'''"#).title, #"C:\path"#)
        XCTAssertEqual(try WorkspaceConfig.parse(#"title = "\U0001F41B bug""#).title, "\u{1F41B} bug")
    }

    /// Issue 30, cases 5 and 13: a configured text holds no control character and has a length cap.
    func test_Hardening_configRefusesControlCharactersAndHugeText() {
        func message(_ text: String) -> String {
            do { return try WorkspaceConfig.parse(text).siteProblems.first.map { "\($0)" } ?? "" } catch { return "\(error)" }
        }
        XCTAssertEqual(message(#"title = "a\u001b]0;x\u0007""#), "egofix.toml:1: 'title' holds the control character U+1B; remove it.")
        XCTAssertEqual(message("title = \"" + String(repeating: "x", count: 201) + "\""),
                       "egofix.toml:1: 'title' is 201 characters long, over the limit of 200; shorten it.")
        XCTAssertTrue(message("title = \"" + String(repeating: "x", count: 10_000_000) + "\"").contains("over the limit of 65536"))
        XCTAssertEqual(message("\n\n[site]\ntitle = \"x\""), "egofix.toml:3: tables are not used in egofix.toml; put every key at the top level.")
        XCTAssertEqual(message("site.title = \"x\""), "egofix.toml:1: tables are not used in egofix.toml; put every key at the top level.")
        // One letter and 30,000 combining marks: one character, 60 KB; the cap counts code points.
        XCTAssertTrue(message("title = \"e" + String(repeating: "\u{301}", count: 30_000) + "\"").contains("30001 characters long, over the limit of 200"))
    }

    /// Issue 31 (workspace): a title with nothing to show and a base URL with no host are refused.
    func test_config_refusesAnEmptyTitleAndABaseURLWithoutAHost() {
        func message(_ text: String) -> String {
            do { return try WorkspaceConfig.parse(text).siteProblems.first.map { "\($0)" } ?? "" } catch { return "\(error)" }
        }
        for title in ["", "   ", "\u{202E}", "\u{200B}"] {
            XCTAssertTrue(message("title = \"\(title)\"").contains("'title' has nothing to show"), title.unicodeScalars.map(\.value).description)
        }
        XCTAssertEqual(message("title = \"Mine\""), "")
        for url in ["https://", "http:///x", "https://a b/"] {
            XCTAssertTrue(message("base_url = \"\(url)\"").contains("base_url needs a host"), url)
        }
        XCTAssertEqual(try? WorkspaceConfig.parse("base_url = \"https://example.org\"").baseURL, "https://example.org/")
    }
}
