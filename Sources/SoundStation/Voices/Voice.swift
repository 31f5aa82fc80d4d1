/// One slot of the voice pool: an OpenAL source (made when first needed) and what it is playing.
struct Voice {
    enum Phase: Equatable {
        case free
        case scheduled(frame: Int64)
        case playing, paused
    }

    var source: OpenALSource?
    /// The ticket of the trigger that started it; handles name voices by it.
    var ticket: UInt64 = 0
    /// Tickets of repeats folded into this voice (coalescing), which name it too.
    var aliases: [UInt64] = []
    /// The sound's id, for its instance list.
    var sound = SoundID(rawValue: -1)
    var phase: Phase = .free
    /// Whether its `started` event was sent. False until it begins, and for a voice begun while the
    /// engine was paused until ``AudioEngine/resumeAll()``, when it is first heard; a voice that ends
    /// still unannounced (stolen or stopped before it began) sends it just before its `finished`.
    var announced = true
    /// True while a voice carried over a device loss waits to begin again on the new device (a
    /// stream decodes first): its `started` was sent when it first began, so none is sent again.
    var resuming = false
    /// Paused alone before it began (``AudioEngine/pause(_:)`` while it waits for its start): it
    /// begins paused, until ``AudioEngine/resume(_:)``.
    var pausedBeforeStart = false
    /// What it plays; `nil` while the slot is free.
    var content: VoiceSource?
    /// The sound's name: its buffer's or its stream's.
    var name = ""
    var options = PlayOptions()
    /// The voice's own cutoff filter, gliding; `nil` when it never had one.
    var cutoffRamp: CutoffRamp?
    /// Set while the voice is fed through the engine's cutoff filters (or its time-stretcher) as a
    /// queue of blocks, instead of playing its buffer or stream directly (it stays on that path once
    /// on it).
    var filtered: FilteredFeeder?
    /// The time-stretcher the voice is played through, on the filtered path (``StretchGroup``).
    var stretch: StretchTap?
    /// Where a positioned voice is, gliding; `nil` for a voice placed by its pan.
    var positionRamp: PositionRamp?
    /// A fade on top of the voice's volume; ``stopsAfterFade`` ends the voice when it reaches 0.
    var fade = GainRamp.constant(1)
    var stopsAfterFade = false
    /// Where in the sound to begin, in frames (music resuming where it left off).
    var startOffset = 0
    /// The group it starts with (``VoiceRequest/group``); 0 for none.
    var group: UInt64 = 0
    /// The render-clock frame it started at, for coalescing repeats.
    var startFrame: Int64 = 0
    /// Where a looping or streamed voice was at the last housekeeping, to resume it after a lost
    /// device comes back (OpenAL forgets positions when it stops every source on a disconnect).
    var lastOffset = 0
    /// The render-clock frame a one-shot should end by at its pitch; housekeeping asks OpenAL whether
    /// it has stopped only from a little before then (loops and streams: never).
    var endEstimate = Int64.max
    /// The gain last given to OpenAL, so unchanged gains cost no call.
    var appliedGain: Float = -1
    /// Set by housekeeping when ``appliedGain`` is final under the bus levels it last saw: the
    /// voice's fade has ended and nothing about it changed since. While the levels stay, housekeeping
    /// skips working out its gain again (it would be most of a round's cost per voice). Every change
    /// through ``VoicePool`` clears it.
    var gainSettled = false
    /// Trigger order, so "oldest" is well defined even for voices started in the same frame.
    var sequence: UInt64 = 0

    var isBusy: Bool { phase != .free }

    /// Whether it should carry on after a device reopens: music and other loops, not one-shots.
    var survivesDeviceLoss: Bool {
        if case .stream = content { return true }
        return options.loop
    }

    /// The streamed track it plays, if it plays one: a stream decodes ahead and is told of every new
    /// start, seek and device.
    var stream: StreamFeeder? {
        if case .stream(let stream) = content { return stream }
        return nil
    }

    /// Whether it plays its buffer directly: OpenAL holds the whole sound, loops and repeats it and
    /// knows where it is (a stream or a filtered voice plays a queue the engine keeps).
    var playsBufferDirectly: Bool {
        guard case .buffer = content else { return false }
        return filtered == nil
    }
}

/// What a voice plays.
enum VoiceSource {
    /// A preloaded sound, whole in memory (and in an OpenAL buffer).
    case buffer(SoundBuffer)
    /// A track decoded from its file as it plays, through a queue of OpenAL buffers.
    case stream(StreamFeeder)
    /// A stream the game writes (``PCMFeed``): always a queue of short blocks on the filtered path.
    case fed(FeedRing)

    /// Samples per frame; a stream's before its file is open: 1.
    var channels: Int {
        switch self {
        case .buffer(let buffer): buffer.channels
        case .stream(let stream): stream.format?.channels ?? 1
        case .fed(let ring): ring.channels
        }
    }

    /// The sound's frames, when known (a fed stream has no end).
    var frameCount: Int? {
        switch self {
        case .buffer(let buffer): buffer.frameCount
        case .stream(let stream): stream.format?.frameCount
        case .fed: nil
        }
    }

    /// Whether the voice may begin: a stream once its first chunks are decoded (or it failed), a fed
    /// stream once its first frames are written.
    var isReadyToBegin: Bool {
        switch self {
        case .buffer: true
        case .stream(let stream): stream.isReadyToBegin
        case .fed(let ring): ring.isReadyToBegin
        }
    }

    /// Where the samples of a filtered voice come from, from sound frame `offset`: the stream and the
    /// feed give blocks themselves, a buffer is read from memory (looping or repeating as `options`
    /// say).
    func blocks(from offset: Int, options: PlayOptions) -> any PCMBlocks {
        switch self {
        case .buffer(let buffer):
            MemoryBlocks(buffer, from: offset, loops: options.loop, repeats: options.repeats)
        case .stream(let stream): stream
        case .fed(let ring): ring
        }
    }
}
