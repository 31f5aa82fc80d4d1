extension Mixer {
    /// Starts the source of an occupied slot with its options.
    /// Begins the voices due now: alone, or with the rest of their group.
    func beginDue(_ slots: [Int32], in state: inout EngineState, at frame: Int64, events: inout [SoundEvent])
    {
        // Nearly every round has nothing due: no dictionary to make and sort then.
        guard !slots.isEmpty else { return }
        var groups: [UInt64: [Int32]] = [:]
        for slot in slots {
            let group = state.pool.voices[Int(slot)].group
            if group == 0 {
                begin(slot, in: &state, at: frame, events: &events)
            } else {
                groups[group, default: []].append(slot)
            }
        }
        for group in groups.keys.sorted() {
            beginTogether(groups[group] ?? [], in: &state, at: frame, events: &events)
        }
    }

    /// Begins a group's voices on one frame: each is set up, then all start in one `alSourcePlayv`.
    /// While any of their streams is still decoding its first chunks, all of them wait.
    private func beginTogether(
        _ slots: [Int32], in state: inout EngineState, at frame: Int64, events: inout [SoundEvent]
    ) {
        let waiting = slots.contains { !(state.pool.voices[Int($0)].content?.isReadyToBegin ?? true) }
        if waiting {
            for slot in slots { state.pool.reschedule(slot, at: frame + AudioEngine.quantum) }
            return
        }
        var started: [(slot: Int32, source: OpenALSource)] = []
        for slot in slots {
            if let source = begin(slot, in: &state, at: frame, events: &events, holdingPlay: true) {
                started.append((slot, source))
            }
        }
        do {
            try OpenALSource.playAll(started.map(\.source))
        } catch {
            // One by one, then: the stems may start a mixing period apart, but they are heard.
            for (_, source) in started { try? source.play() }
        }
        for (slot, source) in started {
            let voice = state.pool.voices[Int(slot)]
            if voice.playsBufferDirectly, voice.startOffset > 0 { source.sampleOffset = voice.startOffset }
            if state.isPaused || voice.pausedBeforeStart { source.pause() }
        }
    }

    /// Sets up a voice's source and starts it (or, `holdingPlay`, leaves the start to its group).
    /// - Returns: The source, or nil when the voice was refused.
    @discardableResult
    func begin(
        _ slot: Int32, in state: inout EngineState, at frame: Int64, events: inout [SoundEvent],
        holdingPlay: Bool = false
    ) -> OpenALSource? {
        var voice = state.pool.voices[Int(slot)]
        guard let content = voice.content else {
            state.pool.release(slot)
            return nil
        }
        if !content.isReadyToBegin {
            // A stream's worker is still opening or decoding, or a fed stream has no frames yet: look
            // again next round (the worker, or a write, wakes the driver).
            state.pool.reschedule(slot, at: frame + AudioEngine.quantum)
            return nil
        }
        placeVoice(slot, in: &state, at: frame)
        voice = state.pool.voices[Int(slot)]
        let gain = state.gain(of: voice, at: frame)
        do {
            let source = try state.pool.sourceFor(slot, device: device)
            // A voice under a cutoff filter is fed as a queue of filtered blocks (Colour/), and so
            // is a stream the game feeds, in short blocks; a stream otherwise queues its decoded
            // chunks; a buffer plays from OpenAL's copy.
            var buffer: SoundBuffer?
            var filtered = needsCutoff(voice, in: state, at: frame)
            switch content {
            case .buffer(let sound): buffer = filtered ? nil : sound
            case .stream: break
            case .fed: filtered = true
            }
            // A plain one-shot is set up and started in one batch; streams queue first, resumed
            // sounds seek after starting.
            let atOnce = buffer != nil && voice.startOffset == 0
            // Colour first: on a device OpenAL may mix a period between two calls, and a one-shot
            // started before its reverb send (or its bus's reverb waking from rest) could play that
            // period dry, all of a short sound.
            applyColour(to: source, options: voice.options, in: &state)
            try source.prepare(
                buffer: buffer?.storage, channels: content.channels, gain: gain,
                pitch: voice.options.pitch, pan: voice.options.pan, spatialize: voice.options.spatialize,
                loop: voice.options.loop && buffer != nil,
                repeats: buffer != nil && !voice.options.loop ? voice.options.repeats : 0,
                play: atOnce && !holdingPlay)
            if filtered {
                try startFiltered(slot, source: source, from: voice.startOffset, in: &state, at: frame)
            } else if case .stream(let stream) = content {
                try stream.prime(source: source)
            }
            if !holdingPlay {
                if !atOnce { try source.play() }
                if buffer != nil, voice.startOffset > 0 { source.sampleOffset = voice.startOffset }
                if state.isPaused || voice.pausedBeforeStart { source.pause() }
            }
            let endEstimate =
                filtered ? .max : Mixer.endEstimate(of: voice, from: frame, engineRate: sampleRate)
            state.pool.update(slot) {
                $0.phase = state.isPaused || voice.pausedBeforeStart ? .paused : .playing
                $0.announced = !state.isPaused
                $0.appliedGain = gain
                $0.startFrame = frame
                $0.endEstimate = endEstimate
                $0.resuming = false
            }
            if hub.isListening, !state.isPaused, !voice.resuming {
                events.append(
                    .started(state.pool.handle(slot), sound: voice.name, time: time(ofFrame: frame)))
            }
            return source
        } catch {
            // The slot is freed with its source stopped, as every freed slot's is.
            state.pool.voices[Int(slot)].source?.stop()
            state.pool.release(slot)
            events.append(
                .refused(VoiceHandle(ticket: voice.ticket), sound: voice.name, time: time(ofFrame: frame)))
            return nil
        }
    }
}
