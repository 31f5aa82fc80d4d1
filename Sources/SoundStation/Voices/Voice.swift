/// One slot of the voice pool: an OpenAL source (made when first needed) and what it is playing.
struct Voice {
    enum Phase: Equatable {
        case free
        case scheduled(frame: Int64)
        case playing, paused
    }

    var source: OpenALSource?
    var generation: UInt32 = 0
    var phase: Phase = .free
    var buffer: SoundBuffer?
    var options = PlayOptions()
    /// Trigger order, so "oldest" is well defined even for voices started in the same frame.
    var sequence: UInt64 = 0

    var isBusy: Bool { phase != .free }
}
