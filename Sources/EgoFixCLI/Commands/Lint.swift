import ArgumentParser
import EgoFixCore
import EgoFixResources
import Foundation

/// The three seed files from a folder, file by file over the built-in ones (an override may hold
/// one file), or the built-in ones: what a build reads, and what `lint` checks.
struct SeedFiles {
    let source: String
    let bugs: Data?
    let fixes: Data?
    let education: Data?

    static func load(folder: String?) -> SeedFiles {
        guard let folder else {
            return SeedFiles(source: "built-in Seeds", bugs: BuiltIn.file("Seeds/" + SeedCatalogue.bugsFile),
                             fixes: BuiltIn.file("Seeds/" + SeedCatalogue.fixesFile),
                             education: BuiltIn.file("Seeds/" + SeedCatalogue.educationFile))
        }
        let names = [SeedCatalogue.bugsFile, SeedCatalogue.fixesFile, SeedCatalogue.educationFile]
        let own = names.map { FileManager.default.contents(atPath: folder + "/" + $0) }
        let builtIn = names.enumerated().filter { own[$0.offset] == nil }.map(\.element)
        func pick(_ i: Int) -> Data? { own[i] ?? BuiltIn.file("Seeds/" + names[i]) }
        return SeedFiles(source: builtIn.isEmpty ? folder : folder + " (with the built-in " + builtIn.joined(separator: ", ") + ")",
                         bugs: pick(0), fixes: pick(1), education: pick(2))
    }

    func lint() -> [SeedLint.Issue] { SeedLint.lint(bugs: bugs, fixes: fixes, education: education) }

    /// The catalogue, after a lint that found nothing.
    func catalogue() throws -> SeedCatalogue {
        let issues = lint()
        guard issues.isEmpty else { throw SeedLint.Failure(issues: issues) }
        return try SeedCatalogue.decode(bugs: bugs ?? Data(), fixes: fixes ?? Data(), education: education ?? Data())
    }
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a seeds folder: schema, references, ids, configurations, copy rules, house style.",
        discussion: "With no folder, checks the workspace's Seeds when there is one (what a build here reads), else the built-in seeds. "
            + "A file the folder lacks is the built-in one, as in a build. Each problem is one line: file: entry: field: what is wrong.")

    @Argument(help: "A folder with bugs.json, fixes.json and micro_education.json.")
    var dir: String?

    @Flag(help: "Print counts: active and retired fixes, daily eligible, by type, severity (daily), interaction type, and tidbits by trigger, overall and per bug.")
    var stats = false

    func run() throws {
        var dir = self.dir
        var isFolder: ObjCBool = false
        let here = try Session.workingFolder(), workspace = Session.workspace(from: here)
        let seeds = workspace == here ? "Seeds" : workspace + "/Seeds"
        if dir == nil, FileManager.default.fileExists(atPath: seeds, isDirectory: &isFolder), isFolder.boolValue { dir = seeds }
        if let dir {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                throw CLIError("\(dir) is not a folder. Give a folder holding bugs.json, fixes.json and micro_education.json.")
            }
        }
        let files = SeedFiles.load(folder: dir)
        let issues = files.lint()
        for i in issues { print(i.description) }
        guard issues.isEmpty else {
            throw CLIError("\(issues.count) problem\(issues.count == 1 ? "" : "s") in \(files.source). Fix them and run `egofix lint` again.")
        }
        let c = try files.catalogue()
        print("\(files.source): ok. \(c.bugs.count) bugs, \(c.fixes.count) fixes, \(c.education.count) tidbits.")
        if stats {
            for section in SeedLint.stats(c) {
                print("")
                print(section.section)
                let width = section.rows.map(\.0.count).max() ?? 0
                for (k, v) in section.rows {
                    print("  " + k + String(repeating: " ", count: width - k.count) + "  " + String(v))
                }
            }
        }
    }
}
