/// Finds the names a typo was probably meant to be, for "did you mean" hints.
enum NameSuggestions {
    /// Up to `limit` candidates close to `name`, best first.
    ///
    /// A candidate qualifies when its case-insensitive edit distance is small relative to its
    /// length, or when one name contains the other ("reward" for "reward_big"), which catches
    /// the common mistakes of dropped suffixes and mistyped letters without suggesting noise.
    static func closest(to name: String, among candidates: [String], limit: Int = 3) -> [String] {
        let target = Array(name.lowercased())
        guard !target.isEmpty else { return [] }
        var scored: [(name: String, distance: Int)] = []
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let distance = editDistance(target, other)
            let allowance = max(1, min(target.count, other.count) / 3)
            let contains =
                other.count >= 3 && target.count >= 3
                && (candidate.lowercased().contains(name.lowercased())
                    || name.lowercased().contains(candidate.lowercased()))
            if distance <= allowance || contains {
                scored.append((candidate, distance))
            }
        }
        // The sort is stable, so equally close names keep manifest order.
        return scored.sorted { $0.distance < $1.distance }.prefix(limit).map(\.name)
    }

    /// Levenshtein distance, with a transposition counting as one edit since swapped letters
    /// are the most common typing slip.
    static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previousRow: [Int] = []
        var row = Array(0...rhs.count)
        for i in 1...lhs.count {
            let beforePrevious = previousRow
            previousRow = row
            row = [i] + Array(repeating: 0, count: rhs.count)
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
        }
        return row[rhs.count]
    }
}
