extension Mixer {
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

    /// Pauses one voice where it is; one still waiting for its start begins paused.
    func pauseVoice(_ voice: VoiceHandle, in state: inout EngineState) {
        guard let slot = state.pool.slot(of: voice) else { return }
        switch state.pool.voices[Int(slot)].phase {
        case .playing:
            state.pool.voices[Int(slot)].source?.pause()
            state.pool.update(slot) { $0.phase = .paused }
        case .scheduled: state.pool.update(slot) { $0.pausedBeforeStart = true }
        case .paused, .free: break
        }
    }

    /// Resumes a voice paused alone (not while the whole engine is paused); one paused while it
    /// waited for its start begins playing at its start after all.
    func resumeVoice(_ voice: VoiceHandle, in state: inout EngineState) {
        guard let slot = state.pool.slot(of: voice) else { return }
        if case .scheduled = state.pool.voices[Int(slot)].phase {
            state.pool.update(slot) { $0.pausedBeforeStart = false }
            return
        }
        guard !state.isPaused, state.pool.voices[Int(slot)].phase == .paused else { return }
        try? state.pool.voices[Int(slot)].source?.play()
        state.pool.update(slot) { $0.phase = .playing }
    }

    /// Stops every voice, or those on one bus.
    ///
    /// A remote player's stream whose game closed it (a draining ``FeedRing``) is spared unless
    /// `sparingClosedStreams` is false: its voice ended on the game's side at the close, and the
    /// stop-all a game's engine sends as it shuts down comes after it. Placed at its time, it would cut
    /// what the player still has to play of the stream, which a late link put behind the game's
    /// clock; the stream ends by itself when it has played what was sent.
    func stopAllVoices(
        on bus: Bus?, fade: Double, sparingClosedStreams: Bool = true, in state: inout EngineState,
        events: inout [SoundEvent]
    ) {
        let now = currentFrame(&state)
        for slot in state.pool.busySlots
        where bus == nil || state.pool.voices[Int(slot)].options.bus == bus {
            if sparingClosedStreams, case .fed(let ring) = state.pool.voices[Int(slot)].content,
                ring.draining.load(ordering: .acquiring)
            {
                continue
            }
            stop(slot, fade: fade, in: &state, at: now, events: &events)
        }
    }
}
