import Foundation

/// A folder of the workspace whose name is one a build reads but for its case or a missing "s"
/// (`templates/`, `Asset/`): on a file system that tells cases apart it is not read, and its
/// files changed nothing without a word.
public enum MisnamedFolder {
    static let read = InputFolders.overrides

    /// For each such folder in `workspace`: its name, and the name it would need. Sorted.
    public static func find(in workspace: String) -> [(found: String, meant: String)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: workspace) else { return [] }
        var out: [(found: String, meant: String)] = []
        for name in names.sorted() where !read.contains(name) {
            let lower = name.lowercased()
            guard let meant = read.first(where: { $0.lowercased() == lower || $0.lowercased() == lower + "s" }) else { continue }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: workspace + "/" + name, isDirectory: &isDir), isDir.boolValue {
                out.append((name, meant))
            }
        }
        return out
    }

    /// The build's warning for each.
    public static func warnings(in workspace: String) -> [String] {
        find(in: workspace).map { "\($0.found)/ is not read: the folder a build reads is \($0.meant)/, spelled so. Rename it to use its files." }
    }
}
