import EgoFixCore
import Foundation

public enum SiteBuildError: Error, CustomStringConvertible {
    case page(path: String, underlying: String)
    public var description: String {
        switch self {
        case .page(let path, let why): return "building \(path): \(why)"
        }
    }
}
