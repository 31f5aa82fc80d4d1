import CSoundStationRT

extension Mixer {
    /// The mixing side's first step of every round: carries out the commands the ring holds, in the
    /// order they were written, a batch at a time in one pass over the state, their events sent after
    /// each batch.
    func drainCommands() {
        assertOnMixer()
        guard ring.hasPending else { return }
        let tap = engine.commandTap.withLock { $0 }
        // Until the ring is empty: a scheduled call or an event handler writes more cells, which
        // belong to this round too.
        while ring.hasPending {
            let batch = ring.nextBatch()
            withState { state, events in
                for cell in batch { carryOut(cell, in: &state, events: &events, tap: tap) }
            }
        }
    }

    /// Carries out one cell of the ring.
    private func carryOut(
        _ cell: ssrt_command, in state: inout EngineState, events: inout [SoundEvent], tap: CommandTap?
    ) {
        state.lastTicket = max(state.lastTicket, cell.ticket)
        guard cell.op == UInt8(SSRT_OP_TASK.rawValue), let retained = cell.retained else {
            executeTrigger(cell, in: &state, events: &events, tap: tap)
            return
        }
        let task = Unmanaged<MixerTaskBox>.fromOpaque(retained).takeRetainedValue().task
        perform(task, in: &state, events: &events, tap: tap)
    }

    /// Carries out a task written by the mixing side itself (a scheduled call, a station's step, an
    /// event handler on the driver thread): at once, as the mixing side does everything, so what a
    /// call at a frame asks for acts at that frame and in the order it was asked.
    func carryOutOnMixingSide(_ task: MixerTask) {
        let tap = engine.commandTap.withLock { $0 }
        withState { state, events in perform(task, in: &state, events: &events, tap: tap) }
    }

    /// Starts (or schedules) the voice one play command asks for.
    private func executeTrigger(
        _ command: ssrt_command, in state: inout EngineState, events: inout [SoundEvent], tap: CommandTap?
    ) {
        let sound = SoundID(rawValue: command.sound)
        // A command carries a buffer (play(buffer)), a stream's feeder (play(stream)) or nothing (a
        // trigger by id, which plays the id's installed buffer).
        let carried = command.retained.map { Unmanaged<AnyObject>.fromOpaque($0).takeRetainedValue() }
        // Field by field: a copy of the whole slot would copy its weak reference and its name.
        let looked: (known: Bool, buffer: SoundBuffer?, defaults: SoundDefaults, pitch: Float) =
            sounds.withLock { table in
                guard let index = table.index(sound) else { return (false, nil, SoundDefaults(), 1) }
                let pitch = command.usesSoundDefaults ? table.nextPitch(index) : 1
                let buffer = carried == nil ? table.slots[index].buffer : nil
                return (true, buffer, table.slots[index].defaults, pitch)
            }
        let (known, installed, defaults, variedPitch) = looked
        let content: VoiceSource? =
            switch carried {
            case let buffer as SoundBuffer: .buffer(buffer)
            case let stream as StreamFeeder: .stream(stream)
            case let ring as FeedRing: .fed(ring)
            case nil: installed.map(VoiceSource.buffer)
            default: nil
            }
        // A number out of its range from the trigger that cannot throw (TriggerPort, in signal
        // handlers; every other entry checked it against the same ranges) is refused like a start
        // the pool cannot take, so a bad value is heard of, not moved.
        guard command.numbersInRange, known, let content else {
            let handle = VoiceHandle(ticket: command.ticket)
            events.append(
                .refused(handle, sound: table(name: sound), time: time(ofFrame: currentFrame(&state))))
            state.awaited[command.ticket] = nil
            return
        }
        var request = VoiceRequest(
            name: name(of: content, sound), sound: sound, content: content,
            options: PlayOptions(
                volume: command.volume, pitch: command.pitch, pan: command.pan, loop: command.loops,
                priority: Int(command.priority), bus: Bus(index: command.bus), position: command.position,
                spatialize: command.spatializes, filter: command.voiceFilter, reverbSend: command.reverb_send,
                duckMusic: command.duck_music_db)
        )
        request.options.repeats = command.loops ? 0 : Int(max(0, command.repeats))
        request.options.pitchShift = command.pitch_shift.isFinite ? Double(command.pitch_shift) : 0
        if command.fade_in.isFinite, command.fade_in > 0 {
            request.options.fadeIn = .seconds(Double(command.fade_in))
            request.fadeIn = Double(command.fade_in)
        }
        if command.usesSoundDefaults {
            // The products of checked numbers, kept within the same ranges.
            request.options.volume = PlayOptions.volumeRange.clamp(command.volume * defaults.volume)
            request.options.pitch = PlayOptions.clamped(pitch: command.pitch * variedPitch)
            if !command.ownPriority { request.options.priority = defaults.priority }
            if !command.ownBus { request.options.bus = defaults.bus }
            // The deeper of the caller's dip and the catalogue's.
            request.options.duckMusic = max(
                PlayOptions.deepestDuck, min(command.duck_music_db, defaults.duckMusic))
            request.limit = defaults.limit
        }
        let frame = command.frame == Int64(SSRT_NOW) ? nil : command.frame
        tap?(
            .play(
                voice: VoiceHandle(ticket: command.ticket), sound: sound, options: request.options,
                frame: frame),
            currentFrame(&state))
        _ = startVoice(request, ticket: command.ticket, atFrame: frame, in: &state, events: &events)
        carryOutKept(for: command.ticket, in: &state, events: &events)
    }
}

extension Mixer {
    /// The name events give a voice playing `content`: its buffer's, its stream's, or for a feed
    /// the one the sound table gives `sound`.
    fileprivate func name(of content: VoiceSource, _ sound: SoundID) -> String {
        switch content {
        case .buffer(let buffer): buffer.name
        case .stream(let stream): stream.name
        case .fed: table(name: sound)
        }
    }

    /// The name the sound table gives `sound`.
    fileprivate func table(name sound: SoundID) -> String {
        sounds.withLock { $0.name(of: sound) }
    }
}

/// Sees every command the mixing side carries out, with the engine-clock frame it is carried out at
/// (a remote output forwards them to the player's side).
typealias CommandTap = @Sendable (EngineCommand, Int64) -> Void
