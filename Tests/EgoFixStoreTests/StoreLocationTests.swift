import XCTest
@testable import EgoFixStore

final class StoreLocationTests: XCTestCase {
    func test_storeLocation_flagBeatsEnvironmentBeatsXDG() {
        XCTAssertEqual(StoreLocation.resolve(flag: "/a.sqlite", environment: ["EGOFIX_STORE": "/b.sqlite"]), "/a.sqlite")
        XCTAssertEqual(StoreLocation.resolve(flag: nil, environment: ["EGOFIX_STORE": "/b.sqlite", "XDG_DATA_HOME": "/x"]), "/b.sqlite")
        XCTAssertEqual(StoreLocation.resolve(flag: nil, environment: ["XDG_DATA_HOME": "/x"]), "/x/egofix/egofix.sqlite")
        XCTAssertEqual(StoreLocation.resolve(flag: nil, environment: ["HOME": "/home/u"]), "/home/u/.local/share/egofix/egofix.sqlite")
    }
}
