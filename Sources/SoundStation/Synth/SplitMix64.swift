/// SplitMix64, a tiny pseudo-random generator with an explicit seed.
///
/// Everything the engine draws at random must come out the same on every run and on every machine: the
/// asset tool's regenerated files show up in `git diff` only when the synthesis really changed, and a
/// synthesised effect (``SynthParameters``) renders the same samples in every language and on a remote
/// player. System randomness would defeat both. A game may use it for the same reason (a replay that
/// draws from one seed comes out the same on every machine): it is a `RandomNumberGenerator`, and
/// ``split(stream:)`` gives each part of a program a sequence of its own.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    /// - Parameter seed: Any 64-bit value.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    /// - Returns: A uniformly distributed 64-bit value.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniform value in 0..<1, built from the top 53 bits so every Double step is reachable.
    /// - Returns: A value in 0..<1.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform value in -1..<1: white noise.
    /// - Returns: A value in -1..<1.
    public mutating func bipolar() -> Double {
        unit() * 2 - 1
    }

    /// A derived generator for another part of the program, so that drawing more numbers in one part
    /// never shifts another part's sequence. This generator is left as it is.
    /// - Parameter stream: A label that tells the derived generators apart.
    /// - Returns: An independent generator.
    public func split(stream: UInt64) -> SplitMix64 {
        var copy = SplitMix64(seed: state ^ (stream &* 0xD1B5_4A32_D192_ED03))
        _ = copy.next()
        return copy
    }
}
