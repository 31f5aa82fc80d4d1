/// One sound the game asked for, as `starfall --autoplay` reports it.
public enum AudioCue: Sendable, Equatable {
    /// A scene began, and with it `music` (nil when the scene stops the music).
    case scene(Scene, music: String?, at: Double)
    /// An effect was fired.
    case effect(name: String, at: Double, volume: Float, pitch: Float, pan: Float)
    /// The music switched: asked at one time, heard from the next bar of the track playing.
    case music(MusicSwitch)
    /// The game track's intensity (its layers) began to glide to a new value.
    case intensity(Double, at: Double, over: Double)
}

/// A music switch: which track gave way to which, when it was asked for, and the frame and the bar
/// and beat of the old track's grid it landed on.
public struct MusicSwitch: Sendable, Equatable {
    /// The track playing before, or nil when none was.
    public var from: String?
    /// The track playing after, or nil when the music stopped.
    public var to: String?
    /// When the game asked, in seconds on the engine clock.
    public var asked: Double
    /// When the switch happened: the next bar line of `from` (or `asked` when it has no grid).
    public var at: Double
    /// The bar of `from` the switch landed on (from 1), or nil when it was not on a grid.
    public var bar: Int?
    /// The beat in that bar (from 1), or nil when it was not on a grid.
    public var beat: Int?

    /// Creates a switch record.
    /// - Parameters:
    ///   - from: The old track.
    ///   - to: The new track.
    ///   - asked: When it was asked for.
    ///   - at: When it happened.
    ///   - bar: The old track's bar there.
    ///   - beat: The old track's beat there.
    public init(from: String?, to: String?, asked: Double, at: Double, bar: Int? = nil, beat: Int? = nil) {
        self.from = from
        self.to = to
        self.asked = asked
        self.at = at
        self.bar = bar
        self.beat = beat
    }
}
