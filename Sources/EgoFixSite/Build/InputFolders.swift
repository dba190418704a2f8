/// The folders of the workspace a build reads by name, beside the content folder (which
/// egofix.toml may move): the overrides of the built-in theme and catalogue. The build's change
/// check, its output-folder checks, serve's watch and the misnamed-folder warning all list them
/// from here.
public enum InputFolders {
    public static let overrides = ["Templates", "Assets", "Seeds"]

    /// Every folder a build reads: `content` (as configured), then the overrides.
    public static func all(content: String) -> [String] { [content] + overrides }
}
