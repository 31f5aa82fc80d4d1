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
    func stopAllVoices(on bus: Bus?, fade: Double, in state: inout EngineState, events: inout [SoundEvent]) {
        let now = currentFrame(&state)
        for slot in state.pool.busySlots
        where bus == nil || state.pool.voices[Int(slot)].options.bus == bus {
            stop(slot, fade: fade, in: &state, at: now, events: &events)
        }
    }
}
