/// How much of each known signal a mix contains, by least squares: the check that a sound is in a
/// render at the right frame and gain even when other sounds play over it.
///
/// ```swift
/// let window = 48_000..<50_400
/// let fit = LeastSquares.fit([coinAtOneSecond, music], to: Array(mix[window]))
/// #expect(abs(fit.weights[0] - 0.59) < 0.01)  // the coin at -4.5 dB (centre pan)
/// #expect(fit.explained > 0.99)
/// ```
public enum LeastSquares {
    /// The result of a fit.
    public struct Fit: Sendable, Equatable {
        /// One weight per signal, in the order given.
        public var weights: [Double]
        /// The share of the mix's energy the weighted signals explain: 1 is all of it, 0 none.
        public var explained: Double
    }

    /// Solves `target ≈ Σ weights[i] * signals[i]` through the normal equations (Gaussian
    /// elimination with partial pivoting).
    /// - Parameters:
    ///   - signals: The known signals, each as long as `target`.
    ///   - target: The mix.
    /// - Returns: The weights and how much of the mix they explain; a signal that is all zeros (or a
    ///   copy of another) gets weight 0.
    public static func fit(_ signals: [[Double]], to target: [Double]) -> Fit {
        let count = signals.count
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: count + 1), count: count)
        for row in 0..<count {
            for column in 0..<count { matrix[row][column] = dot(signals[row], signals[column]) }
            matrix[row][count] = dot(signals[row], target)
        }
        for column in 0..<count {
            let pivot = (column..<count).max { abs(matrix[$0][column]) < abs(matrix[$1][column]) } ?? column
            matrix.swapAt(column, pivot)
            guard matrix[column][column] != 0 else { continue }
            for row in 0..<count where row != column {
                let factor = matrix[row][column] / matrix[column][column]
                for entry in column...count { matrix[row][entry] -= factor * matrix[column][entry] }
            }
        }
        let weights = (0..<count).map { matrix[$0][$0] == 0 ? 0 : matrix[$0][count] / matrix[$0][$0] }
        var error = 0.0
        for (index, value) in target.enumerated() {
            var model = 0.0
            for signal in 0..<count where index < signals[signal].count {
                model += weights[signal] * signals[signal][index]
            }
            error += (value - model) * (value - model)
        }
        let energy = dot(target, target)
        return Fit(weights: weights, explained: energy > 0 ? 1 - error / energy : 1)
    }

    /// The least-squares weights of `signals` in `mix`, for samples as rendered.
    /// - Parameters:
    ///   - signals: The known signals, each as long as `mix`.
    ///   - mix: The rendered samples.
    /// - Returns: One weight per signal.
    public static func weights(of signals: [[Float]], in mix: [Float]) -> [Double] {
        fit(signals.map { $0.map(Double.init) }, to: mix.map(Double.init)).weights
    }

    /// The dot product of two series over their common length.
    /// - Parameters:
    ///   - a: One series.
    ///   - b: The other.
    /// - Returns: `Σ a[i] * b[i]`.
    public static func dot(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        for index in 0..<min(a.count, b.count) { sum += a[index] * b[index] }
        return sum
    }
}
