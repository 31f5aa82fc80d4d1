/// SplitMix64, the game's only source of chance.
///
/// The standard library's generator is seeded by the system and its algorithms for `random(in:)` may
/// change between Swift releases, so a replay would drift; this one depends on nothing but its seed,
/// which is what makes "same seed, same bytes" hold for a whole autoplay render.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    /// Starts the sequence for `seed`; equal seeds give equal sequences on every machine.
    /// - Parameter seed: Any value, zero included.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    /// - Returns: A uniformly distributed value.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A value in `0..<1` from the top 53 bits, which a `Double` holds exactly.
    /// - Returns: A uniformly distributed fraction.
    public mutating func fraction() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A value spread evenly over `range`.
    /// - Parameter range: The bounds; a single value returns it.
    /// - Returns: A value within `range`.
    public mutating func value(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + fraction() * (range.upperBound - range.lowerBound)
    }

    /// True with probability `probability` (clamped to 0...1).
    /// - Parameter probability: The chance of `true`.
    /// - Returns: The outcome.
    public mutating func chance(_ probability: Double) -> Bool {
        fraction() < probability
    }

    /// A derived generator for another part of the program, so that drawing more numbers in one part
    /// (say, the bot thinking harder) never shifts the game's own sequence.
    /// - Parameter stream: A label that tells the derived generators apart.
    /// - Returns: An independent generator.
    public func split(stream: UInt64) -> SplitMix64 {
        var copy = SplitMix64(seed: state ^ (stream &* 0xD1B5_4A32_D192_ED03))
        _ = copy.next()
        return copy
    }
}
