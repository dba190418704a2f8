import Foundation

extension PatternStatistics {
    /// `pearson(xd, detrended(y)) ?? 0` for many orderings `y` of one series, as the correlation
    /// detector's permutation test asks it, without allocating three arrays per ordering: the same
    /// operations in the same order, so the same bits (a test holds it to that).
    final class DetrendedCorrelation {
        let xd: [Double]
        let n: Int
        private let xs: [Double]
        private let mx: Double
        private let xdMean: Double
        private var residuals: [Double]

        init(xd: [Double]) {
            self.xd = xd
            n = xd.count
            xs = (0..<n).map(Double.init)
            mx = xs.reduce(0, +) / Double(n)
            xdMean = xd.reduce(0, +) / Double(n)
            residuals = [Double](repeating: 0, count: n)
        }

        func value(_ y: [Double]) -> Double {
            guard y.count == n, n >= 2 else { return PatternStatistics.pearson(xd, PatternStatistics.detrended(y)) ?? 0 }
            // detrended(y)
            if n >= 3 {
                let my = y.reduce(0, +) / Double(n)
                var sxy = 0.0, sxx = 0.0
                for i in 0..<n {
                    sxy += (xs[i] - mx) * (y[i] - my)
                    sxx += (xs[i] - mx) * (xs[i] - mx)
                }
                let slope = sxx > 0 ? sxy / sxx : 0
                for i in 0..<n { residuals[i] = y[i] - (my + slope * (xs[i] - mx)) }
            } else {
                for i in 0..<n { residuals[i] = y[i] }
            }
            // pearson(xd, residuals)
            let mean = residuals.reduce(0, +) / Double(n)
            var sxy = 0.0, sxx = 0.0, syy = 0.0
            for i in 0..<n {
                let dx = xd[i] - xdMean, dy = residuals[i] - mean
                sxy += dx * dy
                sxx += dx * dx
                syy += dy * dy
            }
            guard sxx > 1e-12, syy > 1e-12 else { return 0 }
            return sxy / (sxx * syy).squareRoot()
        }
    }
}
