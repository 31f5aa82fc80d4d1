extension Mixer {
    /// Carries out one engine command: the one place every mutation of voices, buses and space
    /// takes effect.
    func perform(_ command: EngineCommand, in state: inout EngineState, events: inout [SoundEvent]) {
        switch command {
        case .play:
            // Triggers are carried out from their ring cells (``executeTrigger``); this command only
            // describes one to the command tap.
            break
        case .stop(let voice, let fade): stopVoice(voice, fade: fade.inSeconds, in: &state, events: &events)
        case .stopAll(let bus, let fade):
            stopAllVoices(on: bus, fade: fade.inSeconds, in: &state, events: &events)
        case .pause(let voice): pauseVoice(voice, in: &state)
        case .resume(let voice): resumeVoice(voice, in: &state)
        case .pauseAll: pauseEverything(in: &state)
        case .resumeAll: resumeEverything(in: &state, events: &events)
        case .setVoice(let voice, let parameter, let value, let tween):
            let target: ParameterTween.Target =
                switch parameter {
                case .volume: .volume(voice)
                case .pitch: .pitch(voice)
                case .pan: .pan(voice)
                }
            if let tween {
                addTween(target, to: value, tween, in: &state)
            } else {
                // A value set at once ends a tween of the same parameter.
                state.tweens.removeAll { $0.target == target }
                setParameter(target, to: value, in: &state)
            }
        case .setPosition(let voice, let position, let glide):
            applyPosition(position, to: voice, glide: glide, in: &state)
        case .setVoiceFilter(let voice, let filter, let glide):
            applyFilter(filter, to: voice, glide: glide, in: &state)
        case .seek(let voice, let frame): applySeek(voice, toFrame: frame, in: &state)
        case .setBusVolume(let bus, let volume, let tween):
            if let tween {
                addTween(.bus(bus), to: volume, tween, in: &state)
            } else {
                state.tweens.removeAll { $0.target == .bus(bus) }
                applyVolume(volume, to: bus, in: &state)
            }
        case .setBusMuted(let bus, let muted): applyMute(muted, to: bus, in: &state)
        case .setBusFilter(let bus, let filter, let glide):
            applyFilter(filter, to: bus, glide: glide, in: &state)
        case .setBusReverb(let bus, let reverb): applyReverb(reverb, to: bus, in: &state)
        case .setDucking(let ducking): state.ducking = ducking
        case .setListener(let position, let glide): applyListener(position, glide: glide, in: &state)
        case .setSpatialLayout(let layout): applyLayout(layout, in: &state)
        case .playMusic, .stopMusic, .pauseMusic, .resumeMusic, .setIntensity, .setMusicSpeed:
            // A music station writes these with its change (MixerTask.music), which
            // ``performMusic(_:of:in:events:)`` carries out; alone they name no station's tracks.
            break
        }
    }

    /// Sets a voice's volume, pitch or pan at once.
    private func setParameter(_ target: ParameterTween.Target, to value: Float, in state: inout EngineState) {
        switch target {
        case .volume(let voice):
            guard let slot = state.pool.slot(of: voice) else { return }
            state.pool.update(slot) { $0.options.volume = value }
            applyGain(slot, in: &state, at: currentFrame(&state))
        case .pitch(let voice):
            guard let slot = state.pool.slot(of: voice) else { return }
            let pitch = PlayOptions.clamped(pitch: value)
            state.pool.update(slot) { $0.options.pitch = pitch }
            state.pool.voices[Int(slot)].source?.setPitch(pitch)
        case .pan(let voice):
            guard let slot = state.pool.slot(of: voice) else { return }
            applyPan(value, to: slot, in: &state, at: currentFrame(&state))
        case .bus(let bus): applyVolume(value, to: bus, in: &state)
        }
    }
}
