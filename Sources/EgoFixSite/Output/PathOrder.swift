import EgoFixCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Site paths in `String` order, sorted faster: when every path is ASCII (as every path egofix
/// makes is), String's `<` orders them as their bytes, so they are compared with `memcmp`
/// instead of String comparison, which cost a sort of a site's 800 paths 2 M instructions.
enum PathOrder {
    static func sorted<S: Sequence>(_ paths: S) -> [String] where S.Element == String {
        var list = Array(paths)
        guard list.allSatisfy(isASCII) else { return list.sorted() }
        list.sort(by: asciiLess)
        return list
    }

    /// Whether each path comes after the one before it in `String` order.
    static func isSortedAndUnique(_ paths: [String]) -> Bool {
        paths.indices.dropFirst().allSatisfy { paths[$0 - 1] < paths[$0] }
    }

    private static func isASCII(_ p: String) -> Bool {
        p.utf8.withContiguousStorageIfAvailable { b in !b.contains { $0 >= 0x80 } } ?? false
    }

    /// `a < b` for ASCII strings, by their bytes.
    private static func asciiLess(_ a: String, _ b: String) -> Bool {
        a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                let n = min(x.count, y.count)
                guard n > 0, let p = x.baseAddress, let q = y.baseAddress else { return x.count < y.count }
                let c = memcmp(p, q, n)
                return c != 0 ? c < 0 : x.count < y.count
            } ?? (a < b)
        } ?? (a < b)
    }
}
