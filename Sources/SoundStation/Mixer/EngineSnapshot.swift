/// What the mixing side knew at the end of its last round: everything a query reads.
///
/// The mixing side builds one after each round and swaps it in under ``AudioEngine/published``'s
/// lock, which it holds for nothing else; a query copies what it needs under the same lock. So a
/// query never waits for a round, never drains the ring and never calls OpenAL, and it sees the
/// state as of the last round: a command written just before may not show yet.
struct EngineSnapshot: Sendable {
    /// One voice as queries see it.
    struct VoiceState: Sendable {
        /// The frame of its sound being played, or nil before it starts.
        var position: Int?
        /// The render-clock frame it began on, or nil while it waits to start.
        var startFrame: Int64?
    }

    /// The render clock at the end of the round.
    var frame: Int64 = 0
    /// The highest ticket the mixing side has taken from the ring: a higher one is still on its way,
    /// so its voice counts as waiting to start.
    var lastTicket: UInt64 = 0
    /// Every live ticket (repeats folded into a voice included) and its voice.
    var voices: [UInt64: VoiceState] = [:]
    /// Voices playing, paused or waiting for their start time.
    var busyCount = 0
    var sourceCount = 0
    var underruns = 0
    /// Bytes the streamed voices hold (``AudioEngine/streamedBytes``).
    var streamedBytes = 0
}

extension AudioEngine {
    /// Builds the snapshot of `state` and swaps it in. Mixing side only, under the state lock.
    func publish(_ state: EngineState) {
        var snapshot = EngineSnapshot()
        snapshot.frame = state.frame
        snapshot.lastTicket = state.lastTicket
        snapshot.busyCount = state.pool.busySlots.count
        snapshot.sourceCount = state.pool.sourceCount
        snapshot.underruns = state.underruns
        snapshot.streamedBytes = state.pool.busySlots.reduce(0) { total, slot in
            total + (state.pool.voices[Int(slot)].stream?.residentBytes ?? 0)
        }
        snapshot.voices.reserveCapacity(state.pool.busySlots.count)
        for (ticket, slot) in state.pool.tickets {
            let voice = state.pool.voices[Int(slot)]
            let started = voice.phase == .playing || voice.phase == .paused
            snapshot.voices[ticket] = EngineSnapshot.VoiceState(
                position: started ? Self.position(of: voice) : nil,
                startFrame: started ? voice.startFrame : nil)
        }
        published.withLock { $0 = snapshot }
    }

    /// Where `voice` is in its sound, asking OpenAL (mixing side only).
    static func position(of voice: Voice) -> Int? {
        guard let source = voice.source else { return nil }
        if let feeder = voice.filtered { return feeder.position(source: source) }
        if let stream = voice.stream { return stream.position(source: source) }
        return source.sampleOffset
    }
}
