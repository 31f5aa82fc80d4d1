extension AudioEngine {
    /// Runs `body` under the state lock, then sends the events it produced (outside the lock, so a
    /// handler may call the engine). Mixing side and loaders only: a game's call never takes this lock.
    func withState<T>(_ body: (inout EngineState, inout [SoundEvent]) -> T) -> T {
        var events: [SoundEvent] = []
        let result = withState(collecting: &events, body)
        hub.send(events)
        return result
    }

    /// ``withState(_:)`` that hands the events back instead of sending them, for callers holding a
    /// lock of their own.
    func withState<T>(
        collecting events: inout [SoundEvent], _ body: (inout EngineState, inout [SoundEvent]) -> T
    ) -> T {
        state.withLock { state in body(&state, &events) }
    }

    /// Carries out a voice's stop (at once or by starting its fade-out).
    func stopVoice(
        _ voice: VoiceHandle, fade: Double, in state: inout EngineState, events: inout [SoundEvent]
    ) {
        guard let slot = state.pool.slot(of: voice) else { return }
        stop(slot, fade: fade, in: &state, at: currentFrame(&state), events: &events)
    }

    /// Stops a busy slot at once, or starts the fade-out that ends it.
    private func stop(
        _ slot: Int32, fade: Double, in state: inout EngineState, at now: Int64, events: inout [SoundEvent]
    ) {
        if fade > 0 {
            fadeOut(slot, over: fade, in: &state, at: now)
        } else {
            finish(slot, reason: .stopped, in: &state, at: now, events: &events)
        }
    }

    /// ``stopVoice(_:fade:in:events:)`` for a music station's step on the mixing side, handing back
    /// its events (the station sends them once its own lock is released).
    func stopCollectingEvents(_ voice: VoiceHandle, fade: Double) -> [SoundEvent] {
        var events: [SoundEvent] = []
        withState(collecting: &events) { state, events in
            stopVoice(voice, fade: fade, in: &state, events: &events)
        }
        return events
    }

    /// Pauses one voice where it is.
    func pauseVoice(_ voice: VoiceHandle, in state: inout EngineState) {
        guard let slot = state.pool.slot(of: voice), state.pool.voices[Int(slot)].phase == .playing else {
            return
        }
        state.pool.voices[Int(slot)].source?.pause()
        state.pool.update(slot) { $0.phase = .paused }
    }

    /// Resumes a voice paused alone (not while the whole engine is paused).
    func resumeVoice(_ voice: VoiceHandle, in state: inout EngineState) {
        guard !state.isPaused, let slot = state.pool.slot(of: voice),
            state.pool.voices[Int(slot)].phase == .paused
        else { return }
        try? state.pool.voices[Int(slot)].source?.play()
        state.pool.update(slot) { $0.phase = .playing }
    }

    /// Stops every voice, or those on one bus.
    func stopAllVoices(on bus: Bus?, fade: Double, in state: inout EngineState, events: inout [SoundEvent]) {
        let now = currentFrame(&state)
        for slot in state.pool.busySlots
        where bus == nil || state.pool.voices[Int(slot)].options.bus == bus {
            stop(slot, fade: fade, in: &state, at: now, events: &events)
        }
    }

    /// Where `voice` is in its sound now, asking OpenAL: for a music station's step on the mixing side
    /// (a query reads the snapshot instead).
    func livePosition(of voice: VoiceHandle) -> Int? {
        withState { state, _ in state.pool.voice(voice).flatMap(Self.position(of:)) }
    }

    /// Claims a voice for `request` under the state lock (music: it streams and fades in) and starts
    /// it now or schedules it, handing back its events.
    /// - Returns: The handle, or `nil` when the sound was refused.
    func startCollectingEvents(_ request: VoiceRequest, at time: Duration?) -> (VoiceHandle?, [SoundEvent]) {
        var request = request
        request.options = Self.clamp(request.options)
        let ticket = ring.nextTicket()
        var events: [SoundEvent] = []
        let started = withState(collecting: &events) { state, events in
            startVoice(
                request, ticket: ticket, atFrame: time.map(frame(for:)), in: &state, events: &events)
        }
        return (started ? VoiceHandle(ticket: ticket) : nil, events)
    }
}
