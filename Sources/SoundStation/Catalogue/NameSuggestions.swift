/// Finds the names a typo was probably meant to be, for "did you mean" hints.
enum NameSuggestions {
    /// The longest name (in characters) that gets suggestions, or is suggested: a typo is made in
    /// a name a person wrote, and the edit distance's work grows with the product of two lengths,
    /// so a name of a megabyte (from a careless or hostile caller) answers at once, without hints.
    static let maximumLength = 256

    /// How many cells of edit-distance tables one call may fill, all candidates together (about
    /// 20 ms of work): a catalogue of many long, similar names is cut off there, keeping the
    /// suggestions found so far, instead of stalling the call that failed.
    static let workBudget = 4_000_000

    /// Up to `limit` candidates close to `name`, best first.
    ///
    /// A candidate qualifies when its case-insensitive edit distance is small relative to its
    /// length, or when one name contains the other ("reward" for "reward_big"), which catches
    /// the common mistakes of dropped suffixes and mistyped letters without suggesting noise.
    /// Names longer than ``maximumLength`` get and give no suggestions, and the whole search stops
    /// after ``workBudget`` cells.
    static func closest(to name: String, among candidates: [String], limit: Int = 3) -> [String] {
        // The UTF-8 count is known without walking the string; a character is at least one byte.
        guard name.utf8.count <= maximumLength * 4, name.count <= maximumLength else { return [] }
        let lowered = name.lowercased()
        let target = Array(lowered)
        guard !target.isEmpty else { return [] }
        var scored: [(name: String, distance: Int)] = []
        var work = 0
        for candidate in candidates {
            guard candidate.utf8.count <= maximumLength * 4 else { continue }
            let otherLowered = candidate.lowercased()
            let other = Array(otherLowered)
            guard other.count <= maximumLength else { continue }
            let allowance = max(1, min(target.count, other.count) / 3)
            let contains =
                other.count >= 3 && target.count >= 3
                && (otherLowered.contains(lowered) || lowered.contains(otherLowered))
            let gap = abs(target.count - other.count)
            let distance: Int?
            if contains {
                // One inside the other: deleting the rest is the shortest edit.
                distance = gap
            } else if gap > allowance || work >= workBudget {
                // The distance is at least the difference in length: too far, without working it out.
                distance = nil
            } else {
                work += (target.count + 1) * (other.count + 1)
                distance = editDistance(target, other)
            }
            if let distance, contains || distance <= allowance {
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
        var beforePrevious = [Int](repeating: 0, count: rhs.count + 1)
        var previousRow = [Int](repeating: 0, count: rhs.count + 1)
        var row = Array(0...rhs.count)
        for i in 1...lhs.count {
            swap(&beforePrevious, &previousRow)
            swap(&previousRow, &row)
            row[0] = i
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
