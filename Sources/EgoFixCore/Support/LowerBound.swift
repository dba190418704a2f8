extension RandomAccessCollection where Index == Int {
    /// In a collection sorted by `keyOf`, the index of the first element whose key is `key` or
    /// greater (`endIndex` when there is none): a binary search.
    @inlinable
    public func lowerBound<Key: Comparable>(of key: Key, by keyOf: (Element) -> Key) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if keyOf(self[mid]) < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// In a collection sorted by `keyOf`, the index of the first element whose key is greater
    /// than `key` (`endIndex` when there is none): a binary search.
    @inlinable
    public func upperBound<Key: Comparable>(of key: Key, by keyOf: (Element) -> Key) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if keyOf(self[mid]) <= key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
