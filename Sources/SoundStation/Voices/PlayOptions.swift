/// How one sound is played: level, speed, position, looping and how much it matters.
public struct PlayOptions: Sendable, Equatable {
    /// Linear gain, 0 silent, 1 as recorded; above 1 amplifies.
    public var volume: Float
    /// Playback speed and pitch: 1 as recorded, 2 an octave up.
    public var pitch: Float
    /// -1 hard left, 0 centre, 1 hard right.
    public var pan: Float
    /// Whether the sound starts again when it ends, until stopped.
    public var loop: Bool
    /// 0...255; when every voice is busy a sound may take the voice of one with lower priority.
    public var priority: Int
    /// The mixing bus whose volume also applies.
    public var bus: Bus
    /// Where the sound is, in the game's units; when set, pan and distance attenuation come from it,
    /// the listener and ``AudioEngine/spatialLayout`` (and ``pan`` is ignored).
    public var position: SoundPosition?
    /// For a stereo sound: downmix it and place it as a point, instead of keeping its width.
    public var spatialize: Bool
    /// The voice's own filter, in series with its bus's: a cutoff in hertz the engine runs
    /// (``SoundFilter/lowpass(cutoff:q:)``), or an EFX shelf (which does nothing without EFX).
    public var filter: SoundFilter?
    /// 0...1: how much of the voice goes to its bus's reverb, when the bus has one.
    public var reverbSend: Float
    /// Decibels the music bus dips to while this voice plays, 0 for none (a stinger over the music:
    /// -9 lets it through). The dip glides in and out at ``AudioEngine/ducking``'s attack and
    /// release; several dipping voices take the deepest. Clamped to ``deepestDuck``...0. An effect's
    /// catalogue entry may set it (key `duckMusic`).
    public var duckMusic: Float
    /// The deepest dip ``duckMusic`` may ask for, in decibels.
    public static let deepestDuck: Float = -60
    /// For a sound that does not ``loop``: how many more passes it plays after its first (0 plays it
    /// once, 2 three times in all), each pass the whole sound, back to back with no gap. At most
    /// ``repeatsRange``'s upper bound; ``loop`` plays until stopped instead.
    public var repeats: Int = 0
    /// How long the voice rises from silence when it starts (equal-power); `.zero` for at once.
    public var fadeIn: Duration = .zero
    /// Semitones the voice is shifted in pitch without changing its speed (-24...24; 0 for none),
    /// through the time-stretcher (SoundTouch) on the filtered path. Unlike ``pitch``, the sound
    /// keeps its length.
    public var pitchShift: Double = 0
    /// The distance model's gain, kept up to date by the engine for a positioned voice.
    var distanceGain: Float = 1

    /// Creates options; the defaults play a sound once, centred, as recorded, on the effects bus.
    /// - Parameters:
    ///   - volume: Linear gain, 0 silent, 1 as recorded; above 1 amplifies.
    ///   - pitch: Playback speed and pitch, 1 as recorded, 2 an octave up.
    ///   - pan: -1 hard left, 0 centre, 1 hard right; ignored when `position` is set.
    ///   - loop: Whether the sound starts again when it ends, until stopped.
    ///   - priority: 0...255; when every voice is busy a sound may take the voice of one with lower
    ///     priority.
    ///   - bus: The mixing bus whose volume also applies.
    ///   - position: Where the sound is, in the game's units, for pan and distance from the listener;
    ///     nil to use `pan`.
    ///   - spatialize: For a stereo sound, downmix it and place it as a point instead of keeping its width.
    ///   - filter: The voice's own filter, in series with its bus's; nil for none.
    ///   - reverbSend: 0...1, how much of the voice goes to its bus's reverb.
    ///   - duckMusic: Decibels (-60...0) the music bus dips to while this voice plays; 0 for none.
    public init(
        volume: Float = 1, pitch: Float = 1, pan: Float = 0, loop: Bool = false, priority: Int = 128,
        bus: Bus = .effects, position: SoundPosition? = nil, spatialize: Bool = false,
        filter: SoundFilter? = nil, reverbSend: Float = 1, duckMusic: Float = 0
    ) {
        self.duckMusic = duckMusic
        self.volume = volume
        self.pitch = pitch
        self.pan = pan
        self.loop = loop
        self.priority = priority
        self.bus = bus
        self.position = position
        self.spatialize = spatialize
        self.filter = filter
        self.reverbSend = reverbSend
    }
}
