import EgoFixCore
import Foundation
import XCTest

/// A person's weeks with the command line, the site rebuilt into one folder at moments through
/// each day (the change check, kept files and kept cards at work), against a fresh build of the
/// same store at the same clock into a new folder with no manifest. The demo builds once; people
/// build every day, at any hour, across a change of clocks, after editing egofix.toml and content.
final class RebuildLifetimeTests: XCTestCase {
    /// Every file of the folder, by relative path.
    func tree(_ root: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let fm = FileManager.default
        guard let walk = fm.enumerator(atPath: root) else { return out }
        while let rel = walk.nextObject() as? String {
            var isFolder: ObjCBool = false
            if fm.fileExists(atPath: root + "/" + rel, isDirectory: &isFolder), !isFolder.boolValue {
                out[rel] = fm.contents(atPath: root + "/" + rel)
            }
        }
        return out
    }

    /// Six weeks from Monday 2026-03-16 in Berlin (the clocks go forward on 2026-03-29): each day
    /// some of today, an outcome (now and then amended), a crash, a reboot, Sunday's diagnostic, an edit of egofix.toml
    /// or content/, and up to three builds at random moments (one just after midnight or just
    /// before it now and then). After every build the site must be byte for byte the fresh one.
    func test_build_aSiteRebuiltThroughSixWeeksIsAlwaysTheFreshBuild() throws {
        let cli = try CLI(zone: "Europe/Berlin")
        var rng = SplitMix64(seed: 45)
        func chance(_ p: Double) -> Bool { Double(rng.next() % 10_000) / 10_000 < p }
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        (berlin.firstWeekday, berlin.minimumDaysInFirstWeek) = (2, 4)  // ISO weeks, as content/weeks/ names them
        let formatter = ISO8601DateFormatter()
        let start = try XCTUnwrap(berlin.date(from: DateComponents(year: 2026, month: 3, day: 16, hour: 9)))
        XCTAssertEqual(try cli.run(["init", "--bug", "need-to-be-right"], at: formatter.string(from: start)).status, 0)
        let (site, fresh) = (cli.workdir + "/site", cli.workdir + "/fresh")
        let bugs = ["need-to-be-right", "need-to-be-liked", "need-to-impress", "need-to-be-busy", "fear-of-ordinary"]
        var builds = 0, written = 0, amended = 0
        for day in 0..<42 {
            let date = try XCTUnwrap(berlin.date(byAdding: .day, value: day, to: start))
            func at(_ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
                var c = berlin.dateComponents([.year, .month, .day], from: date)
                (c.hour, c.minute, c.second) = (hour, minute, second)
                return berlin.date(from: c) ?? date
            }
            var moments: [(Date, String)] = []
            if chance(0.85) { moments.append((at(6 + Int(rng.next() % 5), Int(rng.next() % 60)), "today")) }
            if chance(0.7) { moments.append((at(11 + Int(rng.next() % 12), Int(rng.next() % 60)), "outcome")) }
            if chance(0.15) { moments.append((at(7 + Int(rng.next() % 16), Int(rng.next() % 60)), "crash")) }
            if chance(0.05) { moments.append((at(7 + Int(rng.next() % 16), Int(rng.next() % 60)), "reboot")) }
            if berlin.component(.weekday, from: date) == 1, chance(0.7) { moments.append((at(19, Int(rng.next() % 60)), "diagnostic")) }
            if chance(0.08) { moments.append((at(8 + Int(rng.next() % 14), Int(rng.next() % 60)), "config")) }
            if chance(0.08) { moments.append((at(8 + Int(rng.next() % 14), Int(rng.next() % 60)), "content")) }
            for _ in 0..<pick([0, 1, 1, 2, 3]) { moments.append((at(Int(rng.next() % 24), Int(rng.next() % 60), Int(rng.next() % 60)), "build")) }
            if chance(0.1) { moments.append((at(23, 59, 59), "build")) }
            if chance(0.1) { moments.append((at(0, 0, 1), "build")) }
            if chance(0.15) { moments.append((at(12 + Int(rng.next() % 12), Int(rng.next() % 60)), "amend")) }
            for (moment, what) in moments.sorted(by: { $0.0 < $1.0 }) {
                let now = formatter.string(from: moment)
                switch what {
                case "today": try cli.run(["today"], at: now)
                case "outcome":
                    let outcome = pick(["applied", "applied", "applied", "skipped", "failed"])
                    var r = try cli.run([outcome] + (chance(0.5) ? ["-m", "Let it go. *Mostly.*"] : []), at: now)
                    if r.status != 0, r.err.contains("--count") { r = try cli.run([outcome, "--count", "3"], at: now) }
                    if r.status != 0, r.err.contains("--option") { try cli.run(["skipped"], at: now) }
                case "crash": try cli.run(["crash", pick(bugs), "-m", pick(["Argued.", "Corrected someone."])], at: now)
                case "reboot": try cli.run(["reboot"], at: now)
                case "amend":
                    // Today's mark put right, when there is one (refused otherwise, changing nothing).
                    let r = try cli.run(["amend", pick(["applied", "skipped", "failed"])] + (chance(0.5) ? ["-m", "Amended: *not* that."] : []), at: now)
                    if r.status == 0 { amended += 1 }
                case "diagnostic": try cli.run(["diagnostic", "--rate", "need-to-be-right=" + pick(["quiet", "present", "loud@work"])], at: now)
                case "config":
                    var lines = ["title = \"" + pick(["Mine", "Notes: a year"]) + "\""]
                    if chance(0.4) { lines.append("time_zone = \"" + pick(["Europe/Berlin", "America/New_York", "Asia/Tokyo"]) + "\"") }
                    if chance(0.3) { lines.append("base_url = \"https://example.org/me/\"") }
                    if chance(0.3) { lines.append("remind_at = \"07:30\"") }
                    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: cli.workdir + "/egofix.toml"))
                case "content":
                    let folder = cli.workdir + "/content/" + (chance(0.6) ? "weeks" : "pages")
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    let (year, week) = (berlin.component(.yearForWeekOfYear, from: moment), berlin.component(.weekOfYear, from: moment))
                    let name = folder.hasSuffix("weeks") ? String(format: "%04d-W%02d.md", year, week) : "about.md"
                    try Data(pick(["A *week*.\n", "# About\n\nStill me.\n"]).utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
                default:
                    let rebuilt = try cli.run(["build", "--out", site], at: now)
                    XCTAssertEqual(rebuilt.status, 0, "\(now): \(rebuilt.err)")
                    try? FileManager.default.removeItem(atPath: fresh)
                    let made = try cli.run(["build", "--out", fresh], at: now, env: ["XDG_CACHE_HOME": cli.workdir + "/cache-\(builds)"])
                    XCTAssertEqual(made.status, 0, "\(now): \(made.err)")
                    let (a, b) = (tree(site), tree(fresh))
                    XCTAssertGreaterThan(a.count, 20, now)
                    XCTAssertEqual(a.keys.sorted(), b.keys.sorted(), "\(now): the rebuilt site has other files than a fresh build")
                    for path in a.keys.sorted() where a[path] != b[path] { XCTFail("\(now): \(path) differs from a fresh build") }
                    builds += 1
                    if !rebuilt.out.contains(": 0 written") { written += 1 }
                }
            }
        }
        // The life walked both kinds of rebuild: with nothing to write and with pages to write.
        XCTAssertGreaterThan(builds, 40)
        XCTAssertGreaterThan(written, 10)
        XCTAssertLessThan(written, builds)
        XCTAssertGreaterThan(amended, 0, "the life amended a mark")
    }
}
