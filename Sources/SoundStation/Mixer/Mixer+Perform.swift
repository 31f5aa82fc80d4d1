extension Mixer {
    /// Carries out one task of the ring: the one place every change takes effect, whoever asked for
    /// it (the game's calls, a scheduled call, the SSH player placing what it received). A command
    /// acts now or, when it names a later frame, is kept as data until the clock reaches it
    /// (``perform(due:at:)``); a music station's change is carried out by the station's steps
    /// (Music/MusicStation+Mixer.swift) on the state handed in, in this one pass.
    func perform(_ task: MixerTask, in state: inout EngineState, events: inout [SoundEvent], tap: CommandTap?)
    {
        let now = currentFrame(&state)
        switch task {
        case .command(let command):
            tap?(command, now)
            perform(command, in: &state, events: &events)
        case .timed(let command, let frame):
            tap?(command, now)
            schedule(.command(command), at: frame, in: &state)
        case .music(let command, let task):
            tap?(command, now)
            guard let frame = task.frame else {
                return task.station.carryOut(task.change, on: self, in: &state, events: &events)
            }
            task.station.willCarryOut(task.change, at: frame)
            schedule(.music(task.later), at: frame, in: &state)
        case .awaitVoice(let ticket): state.awaited[ticket] = []
        case .forgetVoice(let ticket): state.awaited[ticket] = nil
        case .call(let frame, let call):
            schedule(.closure(call), at: frame, in: &state)
        case .mark: break
        }
    }

    /// Carries out a scheduled call whose frame, `frame`, has come: a command or a music change that
    /// waited for it (in one pass over the state), or a closure (with no access to the state held, so
    /// it may call the engine).
    func perform(due call: ScheduledCall, at frame: Int64) {
        switch call {
        case .closure(let call): call()
        case .command(let command):
            withState { state, events in perform(command, in: &state, events: &events) }
        case .music(let task):
            guard let station = task.station else { return }
            withState { state, events in
                station.carryOutLater(task.change, at: frame, on: self, in: &state, events: &events)
            }
        }
    }

    /// Keeps `call` to run when the clock reaches `frame`, after those scheduled for that frame before.
    func schedule(_ call: ScheduledCall, at frame: Int64, in state: inout EngineState) {
        let index = state.calls.firstIndex { $0.frame > frame } ?? state.calls.endIndex
        state.calls.insert((frame, call), at: index)
        state.nextWakeFrame = min(state.nextWakeFrame, frame)
    }

    /// Carries out one engine command: every mutation of voices, buses and space. A command for a
    /// voice whose play has not come yet (``EngineState/awaited``) is kept for it.
    func perform(_ command: EngineCommand, in state: inout EngineState, events: inout [SoundEvent]) {
        if !state.awaited.isEmpty, let voice = command.voice, var kept = state.awaited[voice.ticket] {
            // After a stop nothing else matters: the voice will never be heard.
            if case .stop = kept.last { return }
            if case .stop(let voice, _) = command {
                kept = [.stop(voice, fade: .zero)]
            } else if kept.count < Self.keptCommandLimit {
                kept.append(command)
            }
            state.awaited[voice.ticket] = kept
            return
        }
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
        case .setHRTF(let enabled): applyHRTF(enabled, in: &state, events: &events)
        case .playMusic, .stopMusic, .pauseMusic, .resumeMusic, .setIntensity, .setMusicSpeed:
            // A music station writes these with its change (MixerTask.music, carried out above):
            // alone they name no station's tracks.
            break
        }
    }

    /// The most commands kept for one voice whose play has not come (a game sends a few; this bounds
    /// what a link may make the player hold).
    static let keptCommandLimit = 256

    /// Carries out the commands kept for `ticket`'s voice while its play had not come, now that its
    /// play was carried out (started, scheduled or refused).
    func carryOutKept(for ticket: UInt64, in state: inout EngineState, events: inout [SoundEvent]) {
        guard !state.awaited.isEmpty, let kept = state.awaited.removeValue(forKey: ticket) else { return }
        for command in kept { perform(command, in: &state, events: &events) }
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
