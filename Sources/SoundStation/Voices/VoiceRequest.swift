/// Everything needed to start one voice, prepared before the mixer takes it.
struct VoiceRequest {
    var name: String
    /// The sound's id, whose instance list the voice joins (music streams have one too).
    var sound: SoundID
    /// What it plays.
    var content: VoiceSource
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

    /// A request to play `content` with `options`; the rest as the defaults say.
    init(name: String, sound: SoundID, content: VoiceSource, options: PlayOptions) {
        (self.name, self.sound, self.content, self.options) = (name, sound, content, options)
    }

    /// A request to play a preloaded `buffer`.
    init(name: String, sound: SoundID, buffer: SoundBuffer, options: PlayOptions) {
        self.init(name: name, sound: sound, content: .buffer(buffer), options: options)
    }

    /// A request to play a track streamed by `stream`.
    init(name: String, sound: SoundID, stream: StreamFeeder, options: PlayOptions) {
        self.init(name: name, sound: sound, content: .stream(stream), options: options)
    }
}

/// A per-sound cap on simultaneous voices, as the catalogue's `maxInstances`, `steal` and
/// `coalesceMs` keys set it.
struct InstanceLimit {
    var maxInstances: Int
    var steal: StealPolicy
    /// Repeats within this many frames of the last start are folded into it.
    var coalesceFrames: Int64
}
