/// Everything needed to start one voice, prepared before the mixer takes it.
struct VoiceRequest {
    var name: String
    /// The sound's id, whose instance list the voice joins (music streams have one too).
    var sound: SoundID
    var buffer: SoundBuffer?
    var stream: StreamFeeder?
    /// The queue of a stream the game feeds.
    var fed: FeedRing?
    var options: PlayOptions
    var fadeIn: Double = 0
    var startOffset = 0
    /// How many voices of this sound may play at once, and what happens beyond that.
    var limit: InstanceLimit?
    /// Voices of one nonzero group wait for each other (the slowest stream) and start in one
    /// `alSourcePlayv`: a layered track and its stems.
    var group: UInt64 = 0
    /// The time-stretcher the voice is played through, with the other voices of its group (a
    /// music track at a speed other than 1, or a pitch shift).
    var stretch: StretchTap?
}

/// A per-sound cap on simultaneous voices, as the catalogue's `maxInstances`, `steal` and
/// `coalesceMs` keys set it.
struct InstanceLimit {
    var maxInstances: Int
    var steal: StealPolicy
    /// Repeats within this many frames of the last start are folded into it.
    var coalesceFrames: Int64
}
