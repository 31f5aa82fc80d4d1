extension AudioEngine {
    /// Plays `buffer` once (or looping) now or at a time on the engine clock.
    ///
    /// With offline output a start is always applied on the render clock: a sound for time `t` starts
    /// at frame `round(t * sampleRate)`, and one without a time at the next rendered frame.
    /// - Parameters:
    ///   - buffer: A buffer made by this engine.
    ///   - options: Volume, pitch, pan, looping, priority and bus.
    ///   - time: When to start, in seconds on ``time``; `nil` or a past time starts at once.
    /// - Returns: The voice's handle, or `nil` when every voice is busy with more important sounds
    ///   (a ``SoundEvent/refused(sound:time:)`` event says so too).
    @discardableResult
    public func play(_ buffer: SoundBuffer, options: PlayOptions = PlayOptions(), at time: Double? = nil)
        -> VoiceHandle?
    {
        var events: [SoundEvent] = []
        let handle = state.withLock { state -> VoiceHandle? in
            let now = currentFrame(&state)
            let frame = time.map { max(now, Int64(($0 * Double(sampleRate)).rounded())) } ?? now
            let clamped = Self.clamp(options)
            guard let claimed = try? state.pool.claim(priority: clamped.priority, device: device) else {
                events.append(.refused(sound: buffer.name, time: seconds(now)))
                return nil
            }
            if let stolen = claimed.stolen, let stolenBuffer = stolen.buffer {
                stolen.source?.stop()
                let old = VoiceHandle(slot: claimed.slot, generation: stolen.generation)
                events.append(.finished(old, sound: stolenBuffer.name, reason: .stolen, time: seconds(now)))
            }
            let deferred = frame > now || isOffline
            let phase: Voice.Phase = deferred ? .scheduled(frame: frame) : .playing
            let handle = state.pool.occupy(claimed.slot, buffer: buffer, options: clamped, phase: phase)
            if !deferred { start(claimed.slot, in: &state, at: now, events: &events) }
            return handle
        }
        hub.send(events)
        return handle
    }

    /// Stops a voice at once; a stale handle does nothing.
    /// - Parameter voice: The handle ``play(_:options:at:)`` returned.
    public func stop(_ voice: VoiceHandle) {
        var events: [SoundEvent] = []
        state.withLock { state in
            guard let current = state.pool.voice(voice), let buffer = current.buffer else { return }
            current.source?.stop()
            state.pool.release(voice.slot)
            let now = currentFrame(&state)
            events.append(.finished(voice, sound: buffer.name, reason: .stopped, time: seconds(now)))
        }
        hub.send(events)
    }

    /// Changes a playing voice's volume (before bus gains); a stale handle does nothing.
    /// - Parameters:
    ///   - volume: Linear gain.
    ///   - voice: The voice.
    public func setVolume(_ volume: Float, for voice: VoiceHandle) {
        state.withLock { state in
            guard var options = state.pool.voice(voice)?.options else { return }
            options.volume = max(0, volume)
            state.pool.setOptions(options, of: voice.slot)
            state.pool.voices[Int(voice.slot)].source?.setGain(
                state.gain(volume: options.volume, bus: options.bus))
        }
    }

    /// Changes a playing voice's pitch (1 as recorded); a stale handle does nothing.
    /// - Parameters:
    ///   - pitch: Playback speed, 0.5...2 sounds natural.
    ///   - voice: The voice.
    public func setPitch(_ pitch: Float, for voice: VoiceHandle) {
        state.withLock { state in
            guard var options = state.pool.voice(voice)?.options else { return }
            options.pitch = Self.clampPitch(pitch)
            state.pool.setOptions(options, of: voice.slot)
            state.pool.voices[Int(voice.slot)].source?.setPitch(options.pitch)
        }
    }

    /// Whether `voice` still holds its sound (playing, paused or waiting to start).
    /// - Parameter voice: The handle.
    /// - Returns: False once the sound ended, was stopped or lost its voice.
    public func isActive(_ voice: VoiceHandle) -> Bool {
        state.withLock { $0.pool.voice(voice) != nil }
    }

    var isOffline: Bool {
        if case .offline = output { return true }
        return false
    }

    func seconds(_ frame: Int64) -> Double { Double(frame) / Double(sampleRate) }

    /// Starts the source of an occupied slot with its options.
    func start(_ slot: Int32, in state: inout EngineState, at frame: Int64, events: inout [SoundEvent]) {
        let voice = state.pool.voices[Int(slot)]
        guard let buffer = voice.buffer, let source = voice.source else { return }
        let options = voice.options
        let gain = state.isPaused ? 0 : state.gain(volume: options.volume, bus: options.bus)
        do {
            try source.prepare(
                buffer: buffer.storage, channels: buffer.channels, gain: gain, pitch: options.pitch,
                pan: options.pan, loop: options.loop)
            try source.play()
            if state.isPaused { source.pause() }
            state.pool.setPhase(state.isPaused ? .paused : .playing, of: slot)
            let handle = VoiceHandle(slot: slot, generation: voice.generation)
            events.append(.started(handle, sound: buffer.name, time: seconds(frame)))
        } catch {
            state.pool.release(slot)
            events.append(.refused(sound: buffer.name, time: seconds(frame)))
        }
    }

    private static func clamp(_ options: PlayOptions) -> PlayOptions {
        var clamped = options
        clamped.volume = max(0, options.volume.isFinite ? options.volume : 0)
        clamped.pitch = clampPitch(options.pitch)
        clamped.pan = options.pan.isFinite ? max(-1, min(1, options.pan)) : 0
        clamped.priority = max(0, min(255, options.priority))
        return clamped
    }

    private static func clampPitch(_ pitch: Float) -> Float {
        pitch.isFinite ? max(0.01, min(8, pitch)) : 1
    }
}
