/// SplitMix64, a tiny pseudo-random generator with an explicit seed.
///
/// The asset tool must write the same bytes on every run so regenerated assets show up in
/// `git diff` only when the synthesis really changed; system randomness would defeat that.
struct SplitMix64 {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniform value in 0..<1, built from the top 53 bits so every Double step is reachable.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform value in -1..<1: white noise.
    mutating func bipolar() -> Double {
        unit() * 2 - 1
    }
}
