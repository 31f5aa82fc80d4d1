/// Solves for how much of each known signal a mix contains: the least-squares weights `w` with
/// `mix ≈ Σ w[i] * signals[i]`, through the normal equations and Gaussian elimination.
enum LeastSquares {
    static func weights(of signals: [[Float]], in mix: [Float]) -> [Double] {
        let count = signals.count
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: count + 1), count: count)
        for i in 0..<count {
            for j in 0..<count {
                matrix[i][j] = zip(signals[i], signals[j]).reduce(0) { $0 + Double($1.0) * Double($1.1) }
            }
            matrix[i][count] = zip(signals[i], mix).reduce(0) { $0 + Double($1.0) * Double($1.1) }
        }
        for column in 0..<count {
            let pivot = (column..<count).max { abs(matrix[$0][column]) < abs(matrix[$1][column]) } ?? column
            matrix.swapAt(column, pivot)
            for row in 0..<count where row != column {
                let factor = matrix[row][column] / matrix[column][column]
                for k in column...count { matrix[row][k] -= factor * matrix[column][k] }
            }
        }
        return (0..<count).map { matrix[$0][count] / matrix[$0][$0] }
    }
}
