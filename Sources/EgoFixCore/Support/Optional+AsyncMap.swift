import Foundation

extension Optional {
    func asyncMap<T>(_ f: (Wrapped) async throws -> T) async rethrows -> T? {
        switch self {
        case .none: return nil
        case .some(let w): return try await f(w)
        }
    }
}
