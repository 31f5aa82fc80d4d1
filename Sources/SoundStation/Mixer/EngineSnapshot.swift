import COpenAL

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
    /// The slot of every live ticket (repeats folded into a voice included): the pool's own table,
    /// shared copy-on-write, so a round that starts and ends nothing publishes it without hashing a
    /// ticket (the pool copies it once at its next change).
    var slots: [UInt64: Int32] = [:]
    /// Each slot's state, by slot; meaningful for the slots ``slots`` names.
    var slotStates: [VoiceState] = []
    /// Voices playing, paused or waiting for their start time.
    var busyCount = 0
    var sourceCount = 0
    var underruns = 0
    /// Bytes the streamed voices hold (``AudioEngine/streamedBytes``).
    var streamedBytes = 0
    /// What the device reports of HRTF (``AudioEngine/hrtfStatus``).
    var hrtf = HRTFStatus.unavailable
    /// Offline, the voices' states are left out (``slotStates`` empty) and read from the engine's
    /// state when asked (``AudioEngine/position(of:)``, ``AudioEngine/startedFrame(of:)``).
    var voicesDeferred = false

    /// The voice `ticket` names, or nil once it ended (or before it was taken from the ring).
    func voice(_ ticket: UInt64) -> VoiceState? {
        guard let slot = slots[ticket], slotStates.indices.contains(Int(slot)) else { return nil }
        return slotStates[Int(slot)]
    }
}

extension Mixer {
    /// Builds the snapshot of `state` and swaps it in, at the end of each turn.
    ///
    /// Called after every round (every offline render), so it does per voice only what a query
    /// needs: the position (one OpenAL query) and start frame of each busy slot, read field by field
    /// (copying a whole voice would retain and release its buffer, stream, source and name), into an
    /// array by slot, and offline not even that (``EngineSnapshot/voicesDeferred``); the ticket table
    /// is the pool's, shared, not rebuilt.
    func publish(_ state: EngineState) {
        assertOnMixer()
        // Counted once the snapshot is in, on either way out: a waiter wakes to the new one.
        defer { ring.notePublished() }
        var snapshot = EngineSnapshot()
        snapshot.frame = state.frame
        snapshot.lastTicket = state.lastTicket
        snapshot.busyCount = state.pool.busySlots.count
        snapshot.sourceCount = state.pool.sourceCount
        snapshot.underruns = state.underruns
        snapshot.slots = state.pool.tickets
        snapshot.hrtf = state.space.hrtfStatus
        var streamedBytes = 0
        // Offline, nothing moves between renders, so a voice's position and start are read when
        // asked, for that one voice: an OpenAL query per voice after every render was 9 % of
        // `mix-64`'s CPU time, and the array of them an allocation per render.
        if driver.rendersOnCaller {
            snapshot.voicesDeferred = true
            for slot in state.pool.busySlots where state.pool.voices[Int(slot)].stream != nil {
                streamedBytes += state.pool.voices[Int(slot)].stream?.residentBytes ?? 0
            }
            snapshot.streamedBytes = streamedBytes
            engine.published.withLock { $0 = snapshot }
            return
        }
        let idle = EngineSnapshot.VoiceState(position: nil, startFrame: nil)
        var states = [EngineSnapshot.VoiceState](repeating: idle, count: state.pool.voices.count)
        // `device` is read under its own lock: once per pass. One device lock and one error read for
        // the whole pass, not one per voice; a plain voice's position is read by its source's id,
        // without retaining the voice's references (streams and filtered voices ask their queue).
        let device = self.device
        let voices = state.pool.voices
        device.withContext {
            for slot in state.pool.busySlots {
                let index = Int(slot)
                if voices[index].stream != nil { streamedBytes += voices[index].stream?.residentBytes ?? 0 }
                let phase = voices[index].phase
                guard phase == .playing || phase == .paused else { continue }
                let position: Int?
                if voices[index].playsBufferDirectly, let id = voices[index].source?.id,
                    voices[index].source?.device === device
                {
                    var offset: ALint = 0
                    alGetSourcei(id, AL_SAMPLE_OFFSET, &offset)
                    position = Int(offset)
                } else if let source = voices[index].source {
                    // A queue's position: its feeder's first queued block plus OpenAL's offset.
                    position = Self.position(of: voices[index], on: source)
                } else {
                    position = nil
                }
                states[index] = EngineSnapshot.VoiceState(
                    position: position, startFrame: voices[index].startFrame)
            }
            _ = alGetError()
        }
        snapshot.slotStates = states
        snapshot.streamedBytes = streamedBytes
        engine.published.withLock { $0 = snapshot }
    }

    /// Where `voice` is in its sound, asking OpenAL (mixing side only).
    static func position(of voice: Voice) -> Int? {
        voice.source.map { position(of: voice, on: $0) }
    }

    /// Where `voice` is in its sound, asking its `source`: a queue's first block plus OpenAL's
    /// offset into it (a filtered voice's or a stream's), or OpenAL's offset into the buffer.
    static func position(of voice: Voice, on source: OpenALSource) -> Int {
        if let feeder = voice.filtered { return feeder.position(source: source) }
        if case .stream(let stream) = voice.content { return stream.position(source: source) }
        return source.sampleOffset
    }
}
