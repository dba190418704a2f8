import Foundation
import PackagePlugin

/// Embeds Seeds/, Templates/ and Assets/ into the EgoFixResources target at build time.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let dirs = ["Seeds", "Templates", "Assets"]
        var inputs: [URL] = []
        let fm = FileManager.default
        for d in dirs {
            let base = root.appendingPathComponent(d)
            inputs.append(base)
            if let e = fm.enumerator(at: base, includingPropertiesForKeys: nil) {
                for case let u as URL in e { inputs.append(u) }
            }
        }
        let out = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles.swift")
        return [.buildCommand(displayName: "Embedding seeds, templates and assets",
                              executable: try context.tool(named: "EmbedTool").url,
                              arguments: [out.path, root.path] + dirs,
                              inputFiles: inputs.sorted { $0.path < $1.path },
                              outputFiles: [out])]
    }
}
