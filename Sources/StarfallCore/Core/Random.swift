import SoundStation

/// The game's only source of chance is SoundStation's ``SplitMix64``: the standard library's
/// generator is seeded by the system and its algorithms for `random(in:)` may change between Swift
/// releases, so a replay would drift; this one depends on nothing but its seed, which is what makes
/// "same seed, same bytes" hold for a whole autoplay render. These are the draws the rules make.
extension SplitMix64 {
    /// A value spread evenly over `range`.
    /// - Parameter range: The bounds; a single value returns it.
    /// - Returns: A value within `range`.
    mutating func value(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// True with probability `probability` (clamped to 0...1).
    /// - Parameter probability: The chance of `true`.
    /// - Returns: The outcome.
    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }
}
