extension Mixer {
    /// Carries out a voice's stop (at once or by starting its fade-out).
    ///
    /// A remote player's stream whose game closed it is passed over (see ``isClosedStream(_:in:)``).
    func stopVoice(
        _ voice: VoiceHandle, fade: Double, in state: inout EngineState, events: inout [SoundEvent]
    ) {
        guard let slot = state.pool.slot(of: voice), !isClosedStream(slot, in: state) else { return }
        stop(slot, fade: fade, in: &state, at: currentFrame(&state), events: &events)
    }

    /// Whether the slot plays a remote player's stream whose game closed it: a draining
    /// ``FeedRing`` the player has not closed. Its voice ended on the game's side at the close, and
    /// the stops the game sends after it (the voice's own, the stop-all of a game's engine shutting
    /// down) would, placed at their time, cut what the player still has to play of the stream, which
    /// a late link put behind the game's clock; it ends by itself when it has played what was sent.
    /// The player's own end of a session closes the feed (`closed` is set first), which stops it.
    private func isClosedStream(_ slot: Int32, in state: EngineState) -> Bool {
        guard case .fed(let ring) = state.pool.voices[Int(slot)].content else { return false }
        return ring.draining.load(ordering: .acquiring) && !ring.closed.load(ordering: .acquiring)
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
    /// A remote player's stream whose game closed it is spared (see ``isClosedStream(_:in:)``)
    /// unless `sparingClosedStreams` is false, as at the engine's own shutdown.
    func stopAllVoices(
        on bus: Bus?, fade: Double, sparingClosedStreams: Bool = true, in state: inout EngineState,
        events: inout [SoundEvent]
    ) {
        let now = currentFrame(&state)
        for slot in state.pool.busySlots
        where bus == nil || state.pool.voices[Int(slot)].options.bus == bus {
            if sparingClosedStreams, isClosedStream(slot, in: state) { continue }
            stop(slot, fade: fade, in: &state, at: now, events: &events)
        }
    }
}
