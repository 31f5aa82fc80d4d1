extension AudioEngine {
    /// Sets a bus's volume, gliding there over a few milliseconds.
    /// - Parameters:
    ///   - volume: Linear gain in ``PlayOptions/volumeRange``.
    ///   - bus: The bus; ``Bus/master`` scales all of them.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a volume out of range.
    public func setVolume(_ volume: Float, for bus: Bus) throws(AudioEngineError) {
        try PlayOptions.check(volume: volume)
        settings.withLock { $0.busVolumes[bus] = volume }
        submit(.setBusVolume(bus, volume, tween: nil))
    }

    /// The volume a bus is set to (its mute aside).
    /// - Parameter bus: The bus.
    /// - Returns: Its linear gain.
    public func volume(of bus: Bus) -> Float { settings.withLock { $0.busVolumes[bus] } }

    /// Mutes or unmutes a bus without forgetting its volume.
    /// - Parameters:
    ///   - muted: True to silence it.
    ///   - bus: The bus.
    public func setMuted(_ muted: Bool, for bus: Bus) {
        settings.withLock { $0.mutedBuses[bus] = muted }
        submit(.setBusMuted(bus, muted))
    }

    /// Whether a bus is muted.
    /// - Parameter bus: The bus.
    /// - Returns: True when muted.
    public func isMuted(_ bus: Bus) -> Bool { settings.withLock { $0.mutedBuses[bus] } }

    /// How music ducks under voice notes (and, optionally, loud effects).
    public var ducking: Ducking {
        get { settings.withLock { $0.ducking } }
        set {
            settings.withLock { $0.ducking = newValue }
            submit(.setDucking(newValue))
        }
    }

    /// Pauses every sound, for a game's pause menu; scheduled sounds wait too.
    ///
    /// The sounds glide to silence over 20 ms (as bus volumes do, so the pause never clicks) and then
    /// hold where they are; a sound started while paused waits, silent, for ``resumeAll()``.
    public func pauseAll() {
        settings.withLock { $0.isPaused = true }
        submit(.pauseAll)
    }

    /// Resumes what ``pauseAll()`` paused, each sound from where it was, gliding up from silence over
    /// 20 ms.
    public func resumeAll() {
        settings.withLock { $0.isPaused = false }
        submit(.resumeAll)
    }

    /// Whether ``pauseAll()`` is in force.
    public var isPaused: Bool { settings.withLock { $0.isPaused } }
}
