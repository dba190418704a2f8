import Foundation

/// A catalogue for tests and calibration when the shipped seeds are not at hand: five bugs with
/// the shipped slugs and titles, 46 daily, 4 weekly and 4 quick fixes each.
public enum DemoCatalogue {
    public static let bugSeeds: [(slug: String, title: String, color: String)] = [
        ("need-to-be-right", "Need to be right", "#d19a66"),
        ("need-to-be-liked", "Need to be liked", "#c678dd"),
        ("need-to-impress", "Need to impress", "#61afef"),
        ("need-to-be-busy", "Need to be busy", "#56b6c2"),
        ("fear-of-ordinary", "Fear of being ordinary", "#e5a5c5"),
    ]

    public static func synthetic(bugCount: Int = 5) -> SeedCatalogue {
        let epoch = Date(timeIntervalSince1970: 0)
        var bugs: [Bug] = []
        var fixes: [Fix] = []
        var number = 1
        for i in 0..<max(1, min(bugCount, 20)) {
            let seedBug = bugSeeds[i % bugSeeds.count]
            let suffix = i < bugSeeds.count ? "" : "-\(i / bugSeeds.count + 1)"
            let bug = Bug(id: StableUUID.make(["catalogue", "bug", seedBug.slug + suffix]), slug: seedBug.slug + suffix,
                          title: seedBug.title + (suffix.isEmpty ? "" : " \(i / bugSeeds.count + 1)"),
                          description: "A bug.", color: seedBug.color, createdAt: epoch)
            bugs.append(bug)
            let kinds: [(FixType, FixSeverity, Int)] = [(.daily, .low, 16), (.daily, .medium, 15), (.daily, .high, 15),
                                                        (.weekly, .medium, 2), (.weekly, .high, 2),
                                                        (.quickFix, .low, 2), (.quickFix, .medium, 2)]
            for (type, sev, count) in kinds {
                for k in 0..<count {
                    fixes.append(Fix(id: StableUUID.make(["catalogue", "fix", bug.slug, type.rawValue, sev.rawValue, String(k)]),
                                     number: number, bugId: bug.id, type: type, severity: sev,
                                     prompt: "Fix \(number) about \(bug.title.lowercased()).", createdAt: epoch))
                    number += 1
                }
            }
        }
        return SeedCatalogue(bugs: bugs, fixes: fixes, education: [])
    }
}
