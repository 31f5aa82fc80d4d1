/// The station's changes as the mixer carries them out (``Mixer/perform(_:in:events:tap:)``): each
/// in one pass over the engine's state, which the mixer hands in, reading the station's state once
/// and writing it once. Mixer only.
extension MusicStation {
    /// Carries out `change` now, scheduling the track's next beat in the same pass.
    func carryOut(
        _ change: MusicTask.Change, on mixer: Mixer, in state: inout EngineState, events: inout [SoundEvent]
    ) {
        mixer.assertOnMixer()
        switch change {
        case .play(let change):
            switchTo(
                change.entry, id: change.track.id, buffer: change.track.buffer, change.transition,
                change.position, on: mixer, in: &state, events: &events)
            scheduleNextBeat(on: mixer, in: &state)
        case .stop(let fade):
            stopNow(fade: fade, on: mixer, in: &state, events: &events)
        case .pause:
            let voices = self.state.withLock { station -> [VoiceHandle] in
                if !station.paused, station.playing != nil {
                    station.pausedAt = currentFrame
                    station.generation &+= 1
                }
                station.paused = true
                return station.playing?.voices ?? []
            }
            for voice in voices { mixer.pauseVoice(voice, in: &state) }
        case .resume:
            let voices = self.state.withLock { station -> [VoiceHandle] in
                if let pausedAt = station.pausedAt, station.playing != nil {
                    // The track holds still while paused: its grid moves on by the time it was.
                    station.playing?.anchor.frame += currentFrame - pausedAt
                    station.generation &+= 1
                }
                station.pausedAt = nil
                station.paused = false
                return station.playing?.voices ?? []
            }
            for voice in voices { mixer.resumeVoice(voice, in: &state) }
            if !voices.isEmpty { scheduleNextBeat(on: mixer, in: &state) }
        case .intensity(let intensity, let spec):
            let stems = self.state.withLock { station -> [(VoiceHandle, Float)] in
                station.mixedIntensity = intensity
                guard let playing = station.playing else { return [] }
                return playing.stems.map { ($0.voice, playing.volume * $0.stem.gain(at: intensity)) }
            }
            for (voice, volume) in stems { mixer.addTween(.volume(voice), to: volume, spec, in: &state) }
        case .speed(let speed, let seconds):
            self.state.withLock { $0.mixedSpeed = speed }
            if applySpeed(speed, seconds: seconds, on: mixer, in: &state) {
                scheduleNextBeat(on: mixer, in: &state)
            }
        }
    }

    /// Notes, when a switch is written for a later frame, that the old track's beat on that frame is
    /// left to the new one.
    func willCarryOut(_ change: MusicTask.Change, at frame: Int64) {
        guard case .play = change else { return }
        state.withLock { _ = $0.switchFrames.insert(frame) }
    }

    /// Carries out a switch that waited for `frame`.
    func carryOutLater(
        _ change: MusicTask.Change, at frame: Int64, on mixer: Mixer, in state: inout EngineState,
        events: inout [SoundEvent]
    ) {
        if case .play = change { self.state.withLock { _ = $0.switchFrames.remove(frame) } }
        carryOut(change, on: mixer, in: &state, events: &events)
    }

    /// A stop: the track's voices stop or fade, and where it was is kept for a later resume.
    private func stopNow(
        fade: Double, on mixer: Mixer, in state: inout EngineState, events: inout [SoundEvent]
    ) {
        guard let playing = self.state.withLock({ $0.playing }) else {
            self.state.withLock { $0.generation &+= 1 }
            return
        }
        let position = state.pool.voice(playing.voice).flatMap(Mixer.position(of:))
        self.state.withLock { station in
            station.playing = nil
            station.generation &+= 1
            if let position { station.positions[playing.name] = position }
        }
        for voice in playing.voices { mixer.stopVoice(voice, fade: fade, in: &state, events: &events) }
    }

    /// A switch: the old track's voices stop (or fade), the new one's start on one frame.
    private func switchTo(
        _ entry: SoundEntry, id: SoundID, buffer: SoundBuffer?, _ transition: MusicTransition,
        _ position: StartPosition, on mixer: Mixer, in state: inout EngineState, events: inout [SoundEvent]
    ) {
        // A track unloaded since the lookup still plays from the buffer the switch holds.
        let grid =
            bank.grid(of: entry.name)
            ?? TrackGrid(
                entry: entry, sampleRate: buffer?.sampleRate ?? engine.sampleRate,
                frameCount: buffer?.frameCount ?? 0)
        let stemBuffers = bank.stems(of: entry.name)
        let (old, intensity, paused, group, speed, kept) = self.state.withLock { station in
            station.generation &+= 1
            if !entry.stems.isEmpty { station.group &+= 1 }
            return (
                station.playing, station.mixedIntensity, station.paused,
                entry.stems.isEmpty ? 0 : station.group,
                station.mixedSpeed, station.positions[entry.name]
            )
        }
        // Where the old track was, for a later resume (and for this one, when it is the same track).
        var remembered: (name: String, frame: Int)?
        if let old {
            remembered = state.pool.voice(old.voice).flatMap(Mixer.position(of:)).map { (old.name, $0) }
            let fade = if case .crossfade = transition { transition.fadeSeconds } else { 0.0 }
            for voice in old.voices { mixer.stopVoice(voice, fade: fade, in: &state, events: &events) }
        }
        let offset: Int
        switch position {
        case .restart: offset = 0
        case .resume: offset = (remembered?.name == entry.name ? remembered?.frame : kept) ?? 0
        case .downbeat: offset = grid.frame(ofSeconds: entry.tempo?.downbeat ?? 0)
        case .marker(let marker): offset = grid.frame(ofSeconds: entry.markers[marker] ?? 0)
        }
        let now = currentFrame
        // At a speed other than 1 the track and its stems play through one time-stretcher, each
        // voice one member of it.
        let stemsPlayed = entry.stems.indices.filter { index in
            (index < stemBuffers.count ? stemBuffers[index] : nil) != nil || buffer == nil
        }
        let stretch = speed == 1 ? nil : StretchGroup(members: 1 + stemsPlayed.count, speed: speed)
        // A layered track and its stems start as one group: one alSourcePlayv, one frame.
        let voice = startVoice(
            entry, id: id, buffer: buffer, transition: transition, offset: offset, group: group,
            stretch: stretch.map { StretchTap(group: $0, index: 0) }, on: mixer, in: &state, events: &events)
        var playing: Playing?
        if let voice {
            var anchor = GridAnchor(
                frame: now, position: offset, engineRate: Double(engine.sampleRate), speed: speed)
            anchor.glideFrames = 0
            var track = Playing(
                name: entry.name, voice: voice, grid: grid, anchor: anchor, switchFrame: now,
                volume: entry.volume, stretch: stretch)
            // Stems start in the same round as the track, so on the same frame; a streamed track's
            // stream beside it, each from its own file.
            for index in stemsPlayed {
                let stem = entry.stems[index]
                let stemBuffer = index < stemBuffers.count ? stemBuffers[index] : nil
                let stemVoice = startVoice(
                    stemBuffer == nil ? entry.stemEntry(index) : entry, id: stemBuffer?.id ?? id,
                    buffer: stemBuffer, transition: transition, offset: offset,
                    volume: entry.volume * stem.gain(at: intensity), group: group,
                    stretch: stretch.map { StretchTap(group: $0, index: 1 + track.stems.count) },
                    on: mixer, in: &state, events: &events)
                if let stemVoice { track.stems.append((stemVoice, stem)) }
            }
            // Every member's input is there before the first of them begins and asks for samples.
            if stretch != nil { mixer.prepareStretch(track.voices, in: &state) }
            playing = track
        }
        if paused, let playing {
            for voice in playing.voices { mixer.pauseVoice(voice, in: &state) }
        }
        self.state.withLock { station in
            if let remembered { station.positions[remembered.name] = remembered.frame }
            station.playing = playing
            station.pausedAt = paused && playing != nil ? now : nil
        }
    }

    /// Starts one voice of a track (its own or a stem's).
    private func startVoice(
        _ entry: SoundEntry, id: SoundID, buffer: SoundBuffer?, transition: MusicTransition, offset: Int,
        volume: Float? = nil, group: UInt64 = 0, stretch: StretchTap? = nil, on mixer: Mixer,
        in state: inout EngineState, events: inout [SoundEvent]
    ) -> VoiceHandle? {
        var options = PlayOptions(
            volume: volume ?? entry.volume, loop: entry.loop, priority: 255, bus: .music)
        options.repeats = entry.repeats
        var request: VoiceRequest
        if let buffer {
            let name = volume == nil ? entry.name : buffer.name
            request = VoiceRequest(name: name, sound: id, buffer: buffer, options: options)
        } else {
            // Opened and decoded on the streaming worker (offline: as the render reaches it), never
            // on this thread.
            let stream = engine.makeFeeder(entry)
            request = VoiceRequest(name: entry.name, sound: id, stream: stream, options: options)
        }
        request.fadeIn = transition.fadeSeconds
        request.startOffset = offset
        request.group = group
        request.stretch = stretch
        return mixer.start(request, in: &state, events: &events)
    }

    /// A change of speed.
    /// - Returns: False when no music plays.
    private func applySpeed(_ speed: Double, seconds: Double, on mixer: Mixer, in state: inout EngineState)
        -> Bool
    {
        guard let playing = playingTrack(in: state) else { return false }
        let rate = Double(engine.sampleRate)
        let glide = Int64((seconds * rate).rounded())
        let now = currentFrame
        let group: StretchGroup
        let from: Int64
        if let stretch = playing.stretch {
            group = stretch
            // The stretcher's next samples are heard once the ones already made have played.
            from = now + (mixer.stretchLatency(of: playing.voice, in: state) ?? 0)
        } else {
            group = StretchGroup(members: playing.voices.count, speed: 1)
            from = now
        }
        group.setSpeed(speed, overFrames: Int((seconds * Double(group.sampleRate)).rounded()))
        if playing.stretch == nil { mixer.engageStretch(playing.voices, group: group, in: &state) }
        self.state.withLock { station in
            guard station.playing?.voice == playing.voice else { return }
            station.playing?.stretch = group
            station.playing?.anchor.respeed(at: from, to: speed, over: glide, grid: playing.grid)
            station.generation &+= 1
        }
        return true
    }

    /// ``playingTrack()`` as the mixer sees it, from the engine's state it holds: the anchor moved
    /// to the frame the track's voice really began on, once it has.
    func playingTrack(in state: EngineState) -> Playing? {
        let voice = self.state.withLock { $0.playing?.confirmed == false ? $0.playing?.voice : nil }
        let started = voice.flatMap { voice -> Int64? in
            guard let current = state.pool.voice(voice), current.phase == .playing || current.phase == .paused
            else { return nil }
            return current.startFrame
        }
        return self.state.withLock { station in
            if let started, var playing = station.playing, playing.voice == voice, !playing.confirmed {
                playing.anchor.frame += started - playing.switchFrame
                playing.confirmed = true
                station.playing = playing
            }
            return station.playing
        }
    }
}
