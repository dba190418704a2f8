import EgoFixCore
import EgoFixResources
import Foundation

extension Session {
    static func seedFilesBuiltIn() -> SeedFiles { SeedFiles.load(folder: nil) }
}

extension SeedFiles {
    /// The catalogue, without linting the built-in seeds again on every run (the test suite and
    /// `egofix lint` check them; they cannot change after the build). A ./Seeds override is linted.
    func builtInCatalogue() throws -> SeedCatalogue {
        guard bugs == BuiltIn.file("Seeds/" + SeedCatalogue.bugsFile), fixes == BuiltIn.file("Seeds/" + SeedCatalogue.fixesFile),
              education == BuiltIn.file("Seeds/" + SeedCatalogue.educationFile) else { return try catalogue() }
        return try SeedCatalogue.decode(bugs: bugs ?? Data(), fixes: fixes ?? Data(), education: education ?? Data())
    }
}
