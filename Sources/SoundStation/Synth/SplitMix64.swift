/// SplitMix64, a tiny pseudo-random generator with an explicit seed.
///
/// Everything the engine draws at random must come out the same on every run and on every machine: the
/// asset tool's regenerated files show up in `git diff` only when the synthesis really changed, and a
/// synthesised effect (``SynthParameters``) renders the same samples in every language and on a remote
/// player. System randomness would defeat both.
public struct SplitMix64: Sendable {
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
}
