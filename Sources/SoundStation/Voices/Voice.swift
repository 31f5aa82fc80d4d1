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
    var buffer: SoundBuffer?
    /// Set instead of `buffer` for a track streamed from its file.
    var stream: StreamFeeder?
    /// Set instead of `buffer` for a stream the game feeds (``PCMFeed``): always on the filtered path.
    var fed: FeedRing?
    /// The sound's name: its buffer's or its stream's.
    var name = ""
    var options = PlayOptions()
    /// The voice's own cutoff filter, gliding; `nil` when it never had one.
    var cutoffRamp: CutoffRamp?
    /// Set while the voice is fed through the engine's cutoff filters instead of playing its buffer or
    /// stream directly (it stays on that path once on it).
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
    /// skips working out its gain again (that was most of a round's cost per voice). Every
    /// change through ``VoicePool`` clears it.
    var gainSettled = false
    /// Trigger order, so "oldest" is well defined even for voices started in the same frame.
    var sequence: UInt64 = 0

    var isBusy: Bool { phase != .free }

    /// Whether it should carry on after a device reopens: music and other loops, not one-shots.
    var survivesDeviceLoss: Bool { options.loop || stream != nil }
}
