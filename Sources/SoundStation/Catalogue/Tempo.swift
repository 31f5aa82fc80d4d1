/// A music track's tempo, from its catalogue entry: beats per minute, beats per bar, and where in
/// the file the first bar begins.
public struct Tempo: Sendable, Equatable {
    /// Beats per minute, more than 0 (fractions allowed: 128.5).
    public let bpm: Double
    /// Beats in one bar, 1 or more (key `beatsPerBar`, default 4).
    public let beatsPerBar: Int
    /// Seconds into the file of the first bar's first beat (key `downbeat`, default 0).
    public let downbeat: Double

    /// Creates a tempo.
    /// - Parameters:
    ///   - bpm: Beats per minute, more than 0.
    ///   - beatsPerBar: Beats in one bar, at least 1.
    ///   - downbeat: Seconds into the file of the first downbeat, 0 or more.
    public init(bpm: Double, beatsPerBar: Int = 4, downbeat: Double = 0) {
        self.bpm = bpm
        self.beatsPerBar = beatsPerBar
        self.downbeat = downbeat
    }

    /// The length of one beat in seconds.
    public var secondsPerBeat: Double { 60 / bpm }

    /// The length of one bar in seconds.
    public var secondsPerBar: Double { secondsPerBeat * Double(beatsPerBar) }
}
