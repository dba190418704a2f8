import XCTest
@testable import EgoFixStore

final class StoreLocationTests: XCTestCase {
    func test_storeLocation_flagBeatsEnvironmentBeatsXDG() {
        XCTAssertEqual(StoreLocation.resolve(flag: "/a.sqlite", environment: ["EGOFIX_STORE": "/b.sqlite"]), "/a.sqlite")
        XCTAssertEqual(StoreLocation.resolve(flag: nil, environment: ["EGOFIX_STORE": "/b.sqlite", "XDG_DATA_HOME": "/x"]), "/b.sqlite")
        XCTAssertEqual(StoreLocation.resolve(flag: nil, environment: ["XDG_DATA_HOME": "/x"]), "/x/egofix/egofix.sqlite")
        // A relative XDG_DATA_HOME is ignored, as the XDG spec says (the store would follow the folder a command runs in).
        XCTAssertEqual(StoreLocation.resolve(flag: nil, environment: ["XDG_DATA_HOME": "data", "HOME": "/h"]), "/h/.local/share/egofix/egofix.sqlite")
        XCTAssertEqual(StoreLocation.resolve(flag: nil, environment: ["HOME": "/home/u"]), "/home/u/.local/share/egofix/egofix.sqlite")
    }
}
