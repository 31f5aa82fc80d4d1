extension Mixer {
    /// How long bus volume changes glide, so they never click.
    static let busRampSeconds = 0.02

    /// Carries out ``EngineCommand/setBusVolume(_:_:tween:)`` without a tween: a glide of a few
    /// milliseconds.
    func applyVolume(_ volume: Float, to bus: Bus, in state: inout EngineState) {
        state.busVolumes[bus] = volume
        retargetBus(bus, in: &state)
    }

    /// Carries out ``EngineCommand/setBusMuted(_:_:)``.
    func applyMute(_ muted: Bool, to bus: Bus, in state: inout EngineState) {
        state.mutedBuses[bus] = muted
        retargetBus(bus, in: &state)
    }

    /// Carries out ``EngineCommand/pauseAll``: every voice glides to silence, then holds.
    func pauseEverything(in state: inout EngineState) {
        guard !state.isPaused else { return }
        state.isPaused = true
        let now = currentFrame(&state)
        state.pauseLevel = state.pauseLevel.retargeted(to: 0, at: now, over: busRampFrames)
        wakeSoon(&state)
    }

    /// Carries out ``EngineCommand/resumeAll``: each sound from where it was, gliding up.
    func resumeEverything(in state: inout EngineState, events: inout [SoundEvent]) {
        guard state.isPaused else { return }
        state.isPaused = false
        state.sourcesHeld = false
        let now = currentFrame(&state)
        state.pauseLevel = state.pauseLevel.retargeted(to: 1, at: now, over: busRampFrames)
        for slot in state.pool.busySlots where state.pool.voices[Int(slot)].phase == .paused {
            let source = state.pool.voices[Int(slot)].source
            applyGain(slot, in: &state, at: now)
            try? source?.play()
            if !state.pool.voices[Int(slot)].announced, hub.isListening {
                // First heard now: its start is announced at this frame, not when it was asked for.
                events.append(
                    .started(
                        state.pool.handle(slot), sound: state.pool.voices[Int(slot)].name,
                        time: time(ofFrame: now)))
            }
            state.pool.update(slot) {
                $0.phase = .playing
                $0.announced = true
            }
        }
        wakeSoon(&state)
    }

    /// Pauses the sources once a pause's glide has reached silence and OpenAL has mixed that last
    /// step, so they hold where they are without a click.
    func holdSourcesIfPaused(_ state: inout EngineState, at frame: Int64) {
        guard state.isPaused, !state.sourcesHeld, frame >= state.pauseLevel.end + AudioEngine.quantum else {
            return
        }
        state.sourcesHeld = true
        for slot in state.pool.busySlots where state.pool.voices[Int(slot)].phase == .playing {
            state.pool.voices[Int(slot)].source?.pause()
            state.pool.update(slot) { $0.phase = .paused }
        }
    }

    /// Makes the next housekeeping come at once and on the fine grid (a glide began).
    func wakeSoon(_ state: inout EngineState) {
        state.fineSteps = true
        state.nextWakeFrame = min(state.nextWakeFrame, currentFrame(&state))
        ring.wake()
    }

    /// The frames a bus volume, mute or pause glides over.
    var busRampFrames: Int64 { Int64(Self.busRampSeconds * Double(sampleRate)) }

    private func retargetBus(_ bus: Bus, in state: inout EngineState) {
        let now = currentFrame(&state)
        let target = state.mutedBuses[bus] ? 0 : state.busVolumes[bus]
        state.busLevels[bus] = state.busLevels[bus].retargeted(
            to: target, at: now, over: busRampFrames)
    }
}
