import Glibc

/// How the music bus dips while voice notes play, so speech stays clear over the game's music.
public struct Ducking: Sendable, Equatable {
    /// Music's gain while ducked (0.25 is about -12 dB); 1 turns ducking off.
    public var level: Float
    /// How long the dip takes when a voice starts.
    public var attack: Duration
    /// How long the music takes to come back after the last voice ends.
    public var release: Duration
    /// Also duck under effects whose volume is at least ``loudEffectVolume``.
    public var underLoudEffects: Bool
    /// The effect volume that counts as loud when ``underLoudEffects`` is on.
    public var loudEffectVolume: Float

    /// Creates a ducking setting; the defaults dip music by 12 dB under voice notes only.
    /// - Parameters:
    ///   - level: Music's linear gain while ducked, 0...1 (0.25 is about -12 dB); 1 turns ducking off.
    ///   - attack: How long the dip takes when a voice starts.
    ///   - release: How long the music takes to come back after the last voice ends.
    ///   - underLoudEffects: Whether loud effects duck the music too, not only voice notes.
    ///   - loudEffectVolume: The linear effect volume that counts as loud when `underLoudEffects` is on.
    public init(
        level: Float = 0.25, attack: Duration = .milliseconds(80), release: Duration = .milliseconds(400),
        underLoudEffects: Bool = false,
        loudEffectVolume: Float = 0.9
    ) {
        self.level = level
        self.attack = attack
        self.release = release
        self.underLoudEffects = underLoudEffects
        self.loudEffectVolume = loudEffectVolume
    }
}

extension Ducking {
    /// The linear gain of a dip of `decibels` (0 is 1, -20 is 0.1).
    static func gain(ofDecibels decibels: Float) -> Float { Float(pow(10, Double(decibels) / 20)) }
}
