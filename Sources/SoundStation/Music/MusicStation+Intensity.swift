/// Layered tracks: stems that join as the music's intensity rises.
extension MusicStation {
    /// The intensity layered tracks play at, 0...1 (1 until set): each stem's gain follows it along
    /// the stem's `from` and `full` in the catalogue.
    public var intensity: Double { state.withLock { $0.intensity } }

    /// Sets the intensity, at once or gliding there, for the playing track and those played later.
    ///
    /// A glide moves in steps of 256 frames (5.3 ms at 48 kHz), each of which OpenAL Soft smooths, so
    /// it makes no click.
    /// - Parameters:
    ///   - intensity: 0...1.
    ///   - duration: How long the glide takes; `.zero` sets it at once.
    /// - Throws: ``MusicError/invalidIntensity(_:)`` outside 0...1, ``MusicError/invalidGlide(_:)``
    ///   for a negative duration.
    public func setIntensity(_ intensity: Double, over duration: Duration = .zero) throws(MusicError) {
        guard (0...1).contains(intensity) else { throw .invalidIntensity(intensity) }
        guard duration >= .zero else { throw .invalidGlide(duration) }
        let seconds = duration.inSeconds
        let rate = Double(engine.sampleRate)
        let steps = seconds > 0 ? max(1, Int(seconds * rate / Double(AudioEngine.quantum))) : 0
        let (start, glide) = state.withLock { state -> (Double, UInt64) in
            state.intensityGlide &+= 1
            return (state.intensity, state.intensityGlide)
        }
        guard steps > 0 else {
            apply(intensity, glide: glide)
            return
        }
        let now = Double(currentFrame)
        for step in 1...steps {
            let part = Double(step) / Double(steps)
            let frame = Int64((now + part * seconds * rate).rounded())
            engine.schedule(atFrame: frame) { [weak self] in
                self?.apply(start + (intensity - start) * part, glide: glide)
            }
        }
    }

    /// Moves the intensity along a tween: each stem of the playing track glides from its gain now to
    /// its gain at `intensity` along the tween's easing (to the sample offline), from its start (now,
    /// a time, or a point of the music's grid such as `.music(.nextBar, of: music)`).
    /// - Parameters:
    ///   - intensity: 0...1.
    ///   - tween: Duration, easing and start.
    /// - Throws: ``TweenError/invalidValue(name:value:expected:)`` outside 0...1, or the tween's
    ///   errors.
    public func setIntensity(_ intensity: Double, tween: Tween) throws(TweenError) {
        guard (0...1).contains(intensity) else {
            throw .invalidValue(name: "intensity", value: intensity, expected: "from 0 to 1")
        }
        _ = try tween.seconds()
        let start = try tween.startTime()
        var placed = tween
        if let start { placed.start = .at(start) }
        let stems = state.withLock { state -> [(VoiceHandle, Float)] in
            state.intensityGlide &+= 1
            state.intensity = intensity
            guard let playing = state.playing else { return [] }
            return playing.stems.map { ($0.voice, playing.volume * $0.stem.gain(at: intensity)) }
        }
        for (voice, volume) in stems { try engine.setVolume(volume, for: voice, tween: placed) }
    }

    /// Sets the stems' volumes for `intensity`, unless a newer glide has begun.
    private func apply(_ intensity: Double, glide: UInt64) {
        let volumes = state.withLock { state -> [(VoiceHandle, Float)] in
            guard state.intensityGlide == glide else { return [] }
            state.intensity = intensity
            guard let playing = state.playing else { return [] }
            return playing.stems.map { ($0.voice, playing.volume * $0.stem.gain(at: intensity)) }
        }
        for (voice, volume) in volumes { engine.setVolume(volume, for: voice) }
    }
}
