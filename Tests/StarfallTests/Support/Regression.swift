/// Least-squares fits: how much of each known signal a stretch of a mix contains.
enum Regression {
    struct Fit {
        /// One weight per regressor.
        var weights: [Double]
        /// The share of the target's energy the weighted regressors explain (1 is all of it).
        var explained: Double
    }

    /// Solves `target ≈ Σ weights[i] * regressors[i]` through the normal equations.
    static func fit(_ regressors: [[Double]], to target: [Double]) -> Fit {
        let count = regressors.count
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: count + 1), count: count)
        for row in 0..<count {
            for column in 0..<count { matrix[row][column] = dot(regressors[row], regressors[column]) }
            matrix[row][count] = dot(regressors[row], target)
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
            for regressor in 0..<count { model += weights[regressor] * regressors[regressor][index] }
            error += (value - model) * (value - model)
        }
        let energy = dot(target, target)
        return Fit(weights: weights, explained: energy > 0 ? 1 - error / energy : 1)
    }

    static func dot(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        for index in 0..<min(a.count, b.count) { sum += a[index] * b[index] }
        return sum
    }
}
