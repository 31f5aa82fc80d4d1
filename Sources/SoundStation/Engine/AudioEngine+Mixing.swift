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
    public func pauseAll() {
        withState { state, _ in
            guard !state.isPaused else { return }
            state.isPaused = true
            for slot in state.pool.busySlots where state.pool.voices[Int(slot)].phase == .playing {
                state.pool.voices[Int(slot)].source?.pause()
                state.pool.update(slot) { $0.phase = .paused }
            }
        }
    }

    /// Resumes what ``pauseAll()`` paused, each sound from where it was.
    public func resumeAll() {
        withState { state, _ in
            guard state.isPaused else { return }
            state.isPaused = false
            let now = currentFrame(&state)
            for slot in state.pool.busySlots where state.pool.voices[Int(slot)].phase == .paused {
                let source = state.pool.voices[Int(slot)].source
                applyGain(slot, in: &state, at: now)
                try? source?.play()
                state.pool.update(slot) { $0.phase = .playing }
            }
        }
    }

    /// Whether ``pauseAll()`` is in force.
    public var isPaused: Bool { state.withLock { $0.isPaused } }

    private func retargetBus(_ bus: Bus, in state: inout EngineState) {
        let now = currentFrame(&state)
        let target = state.mutedBuses.contains(bus) ? 0 : state.busVolumes[bus, default: 1]
        let frames = Int64(Self.busRampSeconds * Double(sampleRate))
        state.busLevels[bus] = state.busLevels[bus, default: .constant(1)].retargeted(
            to: target, at: now, over: frames)
    }
}
