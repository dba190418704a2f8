import Foundation
import XCTest
@testable import EgoFixCore

final class ParallelTests: XCTestCase {
    /// Results come back in input order, whichever thread made them.
    func test_map_keepsInputOrder() {
        let items = Array(0..<1000)
        XCTAssertEqual(Parallel.map(items) { $0 * 3 }, items.map { $0 * 3 })
    }

    /// A background value is computed exactly once, by the queue or by the thread that waits for
    /// it when no queue thread has begun it yet; waiting again gives the same value.
    func test_background_computesOnceWhoeverRunsIt() {
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var runs: [Int] = []
            func add(_ i: Int) { lock.lock(); runs.append(i); lock.unlock() }
        }
        let count = Count()
        // Many at once, so some are still queued when they are waited for.
        let jobs = (0..<300).map { i in
            Parallel.Background { () -> Int in
                count.add(i)
                return i * i
            }
        }
        for (i, job) in jobs.enumerated() {
            XCTAssertEqual(job.wait(), i * i)
            XCTAssertEqual(job.wait(), i * i)
        }
        // The queue may still be handing out blocks for jobs already done; give it a moment.
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(count.runs.sorted(), Array(0..<300))
    }
}
