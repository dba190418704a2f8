import Foundation

/// The small amount of statistics the detectors need, written out so every number on the
/// "how the numbers work" page can be traced to a function here. All of it is deterministic:
/// permutation tests draw from a seeded `SplitMix64`, never from the system generator.
public enum PatternStatistics {
    /// Severity from a p-value that is already corrected for the number of comparisons made.
    /// alert: p ≤ 0.01, insight: p ≤ 0.05, observation: anything weaker.
    public static let alertPValue = 0.01
    public static let insightPValue = 0.05

    public static func severity(forCorrectedP p: Double) -> PatternSeverity {
        if p <= alertPValue { return .alert }
        if p <= insightPValue { return .insight }
        return .observation
    }

    /// Plain words for how far a p-value is from chance, used in `DetectedPattern.basis`.
    public static func chanceWords(_ severity: PatternSeverity) -> String {
        switch severity {
        case .alert: return "very unlikely to be chance"
        case .insight: return "probably not chance"
        case .observation: return "could be chance"
        }
    }

    /// Bonferroni correction: the raw p-value times the number of comparisons, capped at 1.
    public static func bonferroni(_ p: Double, comparisons: Int) -> Double {
        min(1, p * Double(max(1, comparisons)))
    }

    // MARK: Binomial

    /// P(X ≥ k) for X ~ Binomial(n, p), exact (summed in log space, so large n is fine).
    public static func binomialUpperTail(k: Int, n: Int, p: Double) -> Double {
        guard n > 0 else { return 1 }
        if k <= 0 { return 1 }
        if k > n { return 0 }
        if p <= 0 { return 0 }
        if p >= 1 { return 1 }
        let lp = log(p), lq = log1p(-p)
        // log C(n, k), then C(n, i + 1) = C(n, i) · (n − i) / (i + 1).
        var lc = 0.0
        for j in 0..<k { lc += log(Double(n - j)) - log(Double(j + 1)) }
        var terms: [Double] = []
        terms.reserveCapacity(n - k + 1)
        for i in k...n {
            terms.append(lc + Double(i) * lp + Double(n - i) * lq)
            if i < n { lc += log(Double(n - i)) - log(Double(i + 1)) }
        }
        guard let m = terms.max() else { return 0 }
        let s = terms.reduce(0.0) { $0 + exp($1 - m) }
        return min(1, max(0, exp(m) * s))
    }

    /// log C(n, k), exact summation (n is small wherever this is used).
    static func logChoose(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return -.infinity }
        let k = min(k, n - k)
        var s = 0.0
        for j in 0..<k { s += log(Double(n - j)) - log(Double(j + 1)) }
        return s
    }

    /// Fisher's exact test, one-sided: P(X ≥ k) for X ~ Hypergeometric(population, successes, draws).
    /// "Of the `draws` loud weeks, at least `k` were at work, when `successes` of all `population`
    /// weeks were at work" — valid whatever the user's usual mix of contexts is.
    public static func hypergeometricUpperTail(k: Int, population: Int, successes: Int, draws: Int) -> Double {
        let n = population, s = successes, d = draws
        guard n > 0, d >= 0, d <= n, s >= 0, s <= n else { return 1 }
        let minX = max(0, d - (n - s)), maxX = min(d, s)
        if k <= minX { return 1 }
        if k > maxX { return 0 }
        let total = logChoose(n, d)
        var sum = 0.0
        for i in k...maxX { sum += exp(logChoose(s, i) + logChoose(n - s, d - i) - total) }
        return min(1, max(0, sum))
    }

    // MARK: Correlation and trend

    /// Pearson's r, or nil when either series is constant or they differ in length or are shorter than 2.
    public static func pearson(_ x: [Double], _ y: [Double]) -> Double? {
        guard x.count == y.count, x.count >= 2 else { return nil }
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for i in 0..<x.count {
            let dx = x[i] - mx, dy = y[i] - my
            sxy += dx * dy
            sxx += dx * dx
            syy += dy * dy
        }
        guard sxx > 1e-12, syy > 1e-12 else { return nil }
        return sxy / (sxx * syy).squareRoot()
    }

    /// Residuals of a least-squares line through (i, y[i]): the series with its linear trend removed.
    public static func detrended(_ y: [Double]) -> [Double] {
        let n = y.count
        guard n >= 3 else { return y }
        let xs = (0..<n).map(Double.init)
        let mx = xs.reduce(0, +) / Double(n), my = y.reduce(0, +) / Double(n)
        var sxy = 0.0, sxx = 0.0
        for i in 0..<n {
            sxy += (xs[i] - mx) * (y[i] - my)
            sxx += (xs[i] - mx) * (xs[i] - mx)
        }
        let slope = sxx > 0 ? sxy / sxx : 0
        return (0..<n).map { y[$0] - (my + slope * (xs[$0] - mx)) }
    }

    /// Mann–Kendall S: the sum of sign(y[j] − y[i]) over all i < j. Negative for a downward trend.
    public static func kendallS(_ y: [Double]) -> Int {
        var s = 0
        for i in 0..<y.count {
            for j in (i + 1)..<y.count {
                if y[j] > y[i] { s += 1 } else if y[j] < y[i] { s -= 1 }
            }
        }
        return s
    }

    /// Number of random permutations drawn when exact enumeration would be too large.
    public static let permutationDraws = 9_999
    /// Series up to this length are permuted exhaustively (8! = 40 320 orderings).
    public static let exactPermutationLimit = 8

    /// One-sided permutation p-value: the share of orderings of `y` whose statistic is at least
    /// as extreme (≥ observed) as the one observed, counting the observed ordering itself.
    /// Exact for short series, otherwise `permutationDraws` seeded shuffles.
    public static func permutationPValue(_ y: [Double], seed: UInt64, statistic: ([Double]) -> Double) -> Double {
        let observed = statistic(y)
        let tolerance = 1e-9
        if y.count <= exactPermutationLimit {
            var a = y
            var atLeast = 0, total = 0
            heapPermutations(&a) { p in
                total += 1
                if statistic(p) >= observed - tolerance { atLeast += 1 }
            }
            return total == 0 ? 1 : Double(atLeast) / Double(total)
        }
        var rng = SplitMix64(seed: seed)
        var a = y
        var atLeast = 0
        for _ in 0..<permutationDraws {
            shuffle(&a, &rng)
            if statistic(a) >= observed - tolerance { atLeast += 1 }
        }
        return Double(atLeast + 1) / Double(permutationDraws + 1)
    }

    /// Fisher–Yates with a SplitMix64; the same seed gives the same order everywhere.
    public static func shuffle<T>(_ a: inout [T], _ rng: inout SplitMix64) {
        guard a.count > 1 else { return }
        for i in stride(from: a.count - 1, to: 0, by: -1) {
            let j = Int(rng.next() % UInt64(i + 1))
            if i != j { a.swapAt(i, j) }
        }
    }

    /// Visits every ordering of `a` once (Heap's algorithm, iterative).
    static func heapPermutations(_ a: inout [Double], _ visit: ([Double]) -> Void) {
        let n = a.count
        visit(a)
        guard n > 1 else { return }
        var c = [Int](repeating: 0, count: n)
        var i = 0
        while i < n {
            if c[i] < i {
                if i % 2 == 0 { a.swapAt(0, i) } else { a.swapAt(c[i], i) }
                visit(a)
                c[i] += 1
                i = 0
            } else {
                c[i] = 0
                i += 1
            }
        }
    }
}
