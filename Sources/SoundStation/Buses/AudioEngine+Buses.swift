extension AudioEngine {
    /// How long bus volume changes glide, so they never click.
    static let busRampSeconds = 0.02

    /// Sets a bus's volume, gliding there over a few milliseconds.
    /// - Parameters:
    ///   - volume: Linear gain, 0 or more.
    ///   - bus: The bus; ``Bus/master`` scales all of them.
    public func setVolume(_ volume: Float, for bus: Bus) {
        state.withLock { state in
            state.busVolumes[bus] = max(0, volume.isFinite ? volume : 0)
            retargetBus(bus, in: &state)
        }
    }

    /// The volume a bus is set to (its mute aside).
    /// - Parameter bus: The bus.
    /// - Returns: Its linear gain.
    public func volume(of bus: Bus) -> Float {
        state.withLock { $0.busVolumes[bus, default: 1] }
    }

    /// Mutes or unmutes a bus without forgetting its volume.
    /// - Parameters:
    ///   - muted: True to silence it.
    ///   - bus: The bus.
    public func setMuted(_ muted: Bool, for bus: Bus) {
        state.withLock { state in
            if muted { state.mutedBuses.insert(bus) } else { state.mutedBuses.remove(bus) }
            retargetBus(bus, in: &state)
        }
    }

    /// Whether a bus is muted.
    /// - Parameter bus: The bus.
    /// - Returns: True when muted.
    public func isMuted(_ bus: Bus) -> Bool {
        state.withLock { $0.mutedBuses.contains(bus) }
    }

    /// How music ducks under voice notes (and, optionally, loud effects).
    public var ducking: Ducking {
        get { state.withLock { $0.ducking } }
        set { state.withLock { $0.ducking = newValue } }
    }

    /// Pauses every sound, for a game's pause menu; scheduled sounds wait too.
    ///
    /// The sounds glide to silence over 20 ms (as bus volumes do, so the pause never clicks) and then
    /// hold where they are; a sound started while paused waits, silent, for ``resumeAll()``.
    public func pauseAll() {
        withState { state, _ in
            guard !state.isPaused else { return }
            state.isPaused = true
            let now = currentFrame(&state)
            state.pauseLevel = state.pauseLevel.retargeted(to: 0, at: now, over: busRampFrames)
            wakeSoon(&state)
        }
    }

    /// Resumes what ``pauseAll()`` paused, each sound from where it was, gliding up from silence over
    /// 20 ms.
    public func resumeAll() {
        withState { state, events in
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
    }

    /// Pauses the sources once a pause's glide has reached silence and OpenAL has mixed that last
    /// step, so they hold where they are without a click.
    func holdSourcesIfPaused(_ state: inout EngineState, at frame: Int64) {
        guard state.isPaused, !state.sourcesHeld, frame >= state.pauseLevel.end + Self.quantum else { return }
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

    /// Whether ``pauseAll()`` is in force.
    public var isPaused: Bool { state.withLock { $0.isPaused } }

    private func retargetBus(_ bus: Bus, in state: inout EngineState) {
        let now = currentFrame(&state)
        let target = state.mutedBuses.contains(bus) ? 0 : state.busVolumes[bus, default: 1]
        state.busLevels[bus] = state.busLevels[bus, default: .constant(1)].retargeted(
            to: target, at: now, over: busRampFrames)
    }
}
